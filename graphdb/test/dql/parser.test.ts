import { describe, expect, it } from "vitest";
import { DgraphError } from "../../src/core/errors.ts";
import type {
  AggregateField,
  CountField,
  DqlDocument,
  ExpandField,
  FilterTree,
  FunctionCall,
  MathField,
  PredicateField,
  QueryBlock,
  Selection,
} from "../../src/dql/ast.ts";
import { DqlSyntaxError, parseDql } from "../../src/dql/parser.ts";

function parse(text: string, vars?: Record<string, string>): DqlDocument {
  return parseDql(text, vars);
}

function block(text: string, vars?: Record<string, string>, index = 0): QueryBlock {
  return parse(text, vars).blocks[index];
}

function errorOf(text: string, vars?: Record<string, string>): string {
  try {
    parseDql(text, vars);
  } catch (error) {
    expect(error).toBeInstanceOf(DqlSyntaxError);
    return (error as Error).message;
  }
  throw new Error(`expected a parse error for: ${text}`);
}

function field(selections: Selection[], index: number): PredicateField {
  const s = selections[index];
  if (s.kind !== "PredicateField") throw new Error(`selection ${index} is ${s.kind}`);
  return s;
}

function rootFunc(text: string, vars?: Record<string, string>): FunctionCall {
  const f = block(text, vars).func;
  if (f === undefined) throw new Error("no root function");
  return f;
}

function filterOf(text: string): FilterTree {
  const f = block(text).filter;
  if (f === undefined) throw new Error("no filter");
  return f;
}

/** A compact rendering of filter trees for assertions: (and (eq name) (not (has age))). */
function show(tree: FilterTree): string {
  switch (tree.kind) {
    case "FilterFunction": {
      const a = tree.func.attr;
      const attr =
        a === undefined
          ? ""
          : a.kind === "PredicateAttr"
            ? ` ${a.reverse ? "~" : ""}${a.predicate}`
            : a.kind === "CountAttr"
              ? ` count(${a.predicate})`
              : ` ${a.kind}:${a.varName}`;
      return `(${tree.func.name}${attr})`;
    }
    case "FilterAnd":
      return `(and ${tree.operands.map(show).join(" ")})`;
    case "FilterOr":
      return `(or ${tree.operands.map(show).join(" ")})`;
    case "FilterNot":
      return `(not ${show(tree.operand)})`;
  }
}

describe("blocks", () => {
  it("parses a bare block with a uid root function and scalar fields", () => {
    const doc = parse("{ me(func: uid(0x1)) { uid name age } }");
    expect(doc.kind).toBe("Document");
    expect(doc.name).toBeUndefined();
    expect(doc.schema).toBeUndefined();
    expect(doc.blocks).toHaveLength(1);
    const b = doc.blocks[0];
    expect(b).toMatchObject({ kind: "QueryBlock", name: "me", isVar: false, order: [] });
    expect(b.func).toMatchObject({
      kind: "FunctionCall",
      name: "uid",
      args: [],
      uids: { uids: [1], vars: [] },
    });
    expect(b.selections.map((s) => s.kind)).toEqual(["UidField", "PredicateField", "PredicateField"]);
    expect(field(b.selections, 1)).toMatchObject({
      predicate: "name",
      reverse: false,
      langs: [],
      selections: [],
    });
  });

  it("keeps blocks in source order and marks var blocks", () => {
    const doc = parse(`{
      a as var(func: has(name)) { n as name }
      q(func: uid(a), orderasc: val(n)) { name }
      r(func: uid(a)) { uid }
    }`);
    expect(doc.blocks.map((b) => [b.name, b.isVar])).toEqual([
      ["var", true],
      ["q", false],
      ["r", false],
    ]);
    expect(doc.blocks[0].asVar).toBe("a");
    expect(doc.blocks[0].defines).toEqual(["a", "n"]);
    expect(doc.blocks[1].needs).toEqual(["a", "n"]);
  });

  it("accepts a uid variable on a named block", () => {
    const doc = parse("{ f as friends(func: uid(1)) { uid }  q(func: uid(f)) { name } }");
    expect(doc.blocks[0]).toMatchObject({ name: "friends", asVar: "f" });
  });

  it("parses an empty block without a root function for aggregations", () => {
    const doc = parse(`{
      var(func: has(bal)) { b as bal }
      total() { bal: sum(val(b)) }
    }`);
    const total = doc.blocks[1];
    expect(total.name).toBe("total");
    expect(total.func).toBeUndefined();
    expect(total.selections[0]).toMatchObject({
      kind: "AggregateField",
      alias: "bal",
      fn: "sum",
      target: { kind: "ValueVar", varName: "b" },
    });
  });

  it("rejects plain predicates inside an empty block", () => {
    expect(errorOf("{ var(func: has(a)) { b as a } total() { name } }")).toBe(
      "line 1 column 46: Only aggregation/math functions allowed inside empty blocks. Got: name",
    );
  });

  it("parses pagination and multiple sort keys at the root", () => {
    const b = block(
      "{ q(func: has(name), first: -2, offset: 10, after: 0x2a, orderasc: name@en, orderdesc: age) { uid } }",
    );
    expect(b.first).toBe(-2);
    expect(b.offset).toBe(10);
    expect(b.after).toBe(42);
    expect(b.order).toMatchObject([
      { kind: "OrderByPredicate", desc: false, predicate: "name", langs: ["en"] },
      { kind: "OrderByPredicate", desc: true, predicate: "age", langs: [] },
    ]);
  });

  it("sorts by a value variable at the root", () => {
    const doc = parse("{ var(func: has(a)) { x as a } q(func: uid(x), orderdesc: val(x)) { uid } }");
    expect(doc.blocks[1].order).toMatchObject([{ kind: "OrderByValueVar", desc: true, varName: "x" }]);
  });

  it("allows multiple sort keys only for predicates", () => {
    expect(
      errorOf("{ var(func: has(a)) { x as a } q(func: uid(x), orderasc: name, orderdesc: val(x)) { uid } }"),
    ).toMatch(/Multiple sorting only allowed by predicates. Got: x$/);
    expect(
      errorOf("{ var(func: has(a)) { x as a } q(func: uid(x), orderasc: val(x), orderdesc: name) { uid } }"),
    ).toMatch(/Val\(\) is not allowed in multiple sorting. Got: \[x\]$/);
  });

  it("rejects sorting twice by the same attribute", () => {
    expect(errorOf("{ q(func: has(a), orderasc: name, orderdesc: name) { uid } }")).toMatch(
      /Sorting by an attribute: \[name\] can only be done once$/,
    );
  });

  it("parses a shortest path block", () => {
    const doc = parse(`{
      p as shortest(from: 0x2, to: 0x5, numpaths: 2, depth: 4, minweight: 0, maxweight: 10.5) { friend @facets(weight) }
      path(func: uid(p)) { name }
    }`);
    const s = doc.blocks[0];
    expect(s.name).toBe("shortest");
    expect(s.asVar).toBe("p");
    expect(s.func).toBeUndefined();
    expect(s.shortest).toEqual({
      from: { uids: [2], vars: [] },
      to: { uids: [5], vars: [] },
      numPaths: 2,
      depth: 4,
      minWeight: 0,
      maxWeight: 10.5,
    });
    expect(field(s.selections, 0).directives.facets).toMatchObject({ all: false, keys: [{ key: "weight" }] });
  });

  it("takes shortest path endpoints from uid variables", () => {
    const doc = parse(`{
      a as var(func: eq(name, "A"))
      b as var(func: eq(name, "B"))
      shortest(from: uid(a), to: uid(b)) { friend }
    }`);
    expect(doc.blocks[2].shortest).toMatchObject({
      from: { uids: [], vars: ["a"] },
      to: { uids: [], vars: ["b"] },
    });
    expect(doc.blocks[2].needs).toEqual(["a", "b"]);
  });

  it("rejects from/to outside shortest path blocks", () => {
    expect(errorOf("{ q(from: 0x1) { uid } }")).toBe(
      "line 1 column 8: from/to only allowed for shortest path queries",
    );
  });

  it("rejects unknown root keywords", () => {
    expect(errorOf("{ q(func: has(a), limit: 2) { uid } }")).toBe(
      "line 1 column 18: Got invalid keyword: limit at root",
    );
  });

  it("allows a single root function", () => {
    expect(errorOf("{ q(func: has(a), func: has(b)) { uid } }")).toBe(
      "line 1 column 22: Only one function allowed at root",
    );
  });

  it("rejects unknown root functions at the colon", () => {
    expect(errorOf("{ q(func: foo(name)) { uid } }")).toBe(
      "line 1 column 8: Function name: foo is not valid.",
    );
  });

  it("rejects uid_in at the root", () => {
    expect(errorOf("{ q(func: uid_in(friend, 0x1)) { uid } }")).toBe("uid_in function not allowed at root");
  });

  it("rejects a repeated filter at the root", () => {
    expect(errorOf("{ q(func: has(a)) @filter(has(b)) @filter(has(c)) { uid } }")).toBe(
      "line 1 column 35: Repeated filter at root",
    );
  });

  it("rejects unknown directives", () => {
    expect(errorOf("{ q(func: has(a)) @foo { uid } }")).toBe("line 1 column 19: Unknown directive [foo]");
    expect(errorOf("{ q(func: has(a)) { friend @foo(x) { uid } } }")).toBe(
      "line 1 column 28: Unknown directive [foo]",
    );
  });

  it("rejects duplicate block names but not repeated var blocks", () => {
    expect(errorOf("{ q(func: uid(1)) { uid } q(func: uid(2)) { uid } }")).toBe(
      "Duplicate aliases not allowed: q",
    );
    const doc = parse(
      "{ var(func: uid(1)) { a as uid } var(func: uid(2)) { b as uid } q(func: uid(a, b)) { uid } }",
    );
    expect(doc.blocks).toHaveLength(3);
  });

  it("requires a selection set or a new block after the head", () => {
    expect(errorOf("{ q(func: uid(1)) : }")).toBe("line 1 column 18: Malformed Query. Missing {. Got :");
  });

  it("wraps blocks in a named query", () => {
    const doc = parse("query findPeople { q(func: has(name)) { name } }");
    expect(doc.name).toBe("findPeople");
    expect(doc.blocks[0].name).toBe("q");
  });

  it("ignores # comments and commas between fields", () => {
    const doc = parse(`{
      # a comment
      q(func: uid(1)) { uid, name, # trailing
        age }
    }`);
    expect(doc.blocks[0].selections.map((s) => s.kind)).toEqual([
      "UidField",
      "PredicateField",
      "PredicateField",
    ]);
  });

  it("accepts IRIs as predicates and names with dashes", () => {
    const b = block("{ q(func: has(<http://schema.org/name>)) { <http://schema.org/name> written-in } }");
    expect(b.func?.attr).toMatchObject({ kind: "PredicateAttr", predicate: "http://schema.org/name" });
    expect(field(b.selections, 0).predicate).toBe("http://schema.org/name");
    expect(field(b.selections, 1).predicate).toBe("written-in");
  });
});

describe("functions", () => {
  it("collects uids, uid variables and $variables in uid()", () => {
    const doc = parse(
      "query q($v: string) { v1 as var(func: has(a)) q(func: uid(0x1, 2, v1, $v)) { uid } }",
      { $v: "[0x10, 0x11]" },
    );
    expect(doc.blocks[1].func?.uids).toEqual({ uids: [1, 2, 16, 17], vars: ["v1"] });
  });

  it("accepts a comma separated uid list in a variable", () => {
    const f = rootFunc("query q($ids: string) { q(func: uid($ids)) { uid } }", { $ids: "0x1, 0x2" });
    expect(f.uids?.uids).toEqual([1, 2]);
  });

  it("parses equality with a value list", () => {
    const f = rootFunc('{ q(func: eq(name, ["Alice", "Bob"])) { uid } }');
    expect(f.attr).toMatchObject({ kind: "PredicateAttr", predicate: "name" });
    expect(f.args).toMatchObject([
      { kind: "LiteralArg", value: "Alice", quoted: true },
      { kind: "LiteralArg", value: "Bob", quoted: true },
    ]);
  });

  it("parses comparisons on value variables, counts and predicates", () => {
    const doc = parse(
      "{ var(func: has(a)) { x as a } q(func: uid(x)) @filter(eq(val(x), 3) or gt(count(~friend), 2) or le(age, -5)) { uid } }",
    );
    const tree = doc.blocks[1].filter;
    expect(tree?.kind).toBe("FilterOr");
    if (tree?.kind !== "FilterOr") return;
    const [a, b, c] = tree.operands.map((o) => (o.kind === "FilterFunction" ? o.func : undefined));
    expect(a).toMatchObject({
      name: "eq",
      attr: { kind: "ValueVarAttr", varName: "x" },
      args: [{ value: "3" }],
    });
    expect(b).toMatchObject({ name: "gt", attr: { kind: "CountAttr", predicate: "friend", reverse: true } });
    expect(c).toMatchObject({
      name: "le",
      attr: { kind: "PredicateAttr", predicate: "age" },
      args: [{ value: "-5" }],
    });
  });

  it("takes a value variable as a comparison argument", () => {
    const doc = parse("{ var(func: has(a)) { x as a } q(func: has(b)) @filter(eq(b, val(x))) { uid } }");
    expect(doc.blocks[1].filter).toMatchObject({
      kind: "FilterFunction",
      func: { name: "eq", args: [{ kind: "ValueVarArg", varName: "x" }] },
    });
  });

  it("parses between, has on reverse edges and type", () => {
    expect(rootFunc('{ q(func: between(age, 18, "30")) { uid } }').args).toMatchObject([
      { value: "18", quoted: false },
      { value: "30", quoted: true },
    ]);
    expect(rootFunc("{ q(func: has(~friend)) { uid } }").attr).toMatchObject({
      predicate: "friend",
      reverse: true,
    });
    const t = rootFunc("{ q(func: type(Person)) { uid } }");
    expect(t.attr).toBeUndefined();
    expect(t.args).toMatchObject([{ kind: "LiteralArg", value: "Person" }]);
  });

  it("requires exactly one type name", () => {
    expect(errorOf("{ q(func: type(A, B)) { uid } }")).toMatch(/type function only supports one argument/);
  });

  it("resolves escapes in quoted strings", () => {
    const f = rootFunc('{ q(func: anyofterms(name, "a \\"b\\" c\\\\d\\n\\u00e9")) { uid } }');
    expect(f.args[0]).toMatchObject({ value: 'a "b" c\\d\né', quoted: true });
  });

  it("parses term, text and ngram functions with languages", () => {
    for (const name of ["allofterms", "anyofterms", "alloftext", "anyoftext", "ngram"]) {
      const f = rootFunc(`{ q(func: ${name}(name@en, "a b")) { uid } }`);
      expect(f).toMatchObject({ name, attr: { predicate: "name", langs: ["en"] }, args: [{ value: "a b" }] });
    }
    expect(rootFunc('{ q(func: eq(name@., "x")) { uid } }').attr).toMatchObject({ langs: ["."] });
  });

  it("parses regular expressions with flags", () => {
    const f = rootFunc("{ q(func: regexp(name, /^Al\\/ice.*$/i)) { uid } }");
    expect(f.args).toMatchObject([{ kind: "RegexArg", pattern: "^Al/ice.*$", flags: "i" }]);
  });

  it("parses a regular expression held in a variable", () => {
    const f = rootFunc("query q($re: string) { q(func: regexp(name, $re)) { uid } }", { $re: "/^b/" });
    expect(f.args).toMatchObject([{ kind: "RegexArg", pattern: "^b", flags: "" }]);
  });

  it("parses fuzzy match with a distance", () => {
    expect(rootFunc('{ q(func: match(name, "Alise", 2)) { uid } }').args).toMatchObject([
      { value: "Alise" },
      { value: "2" },
    ]);
  });

  it("parses uid_in with a uid, a list and a uid variable", () => {
    const doc = parse(`{
      v as var(func: has(a))
      q(func: has(b)) @filter(uid_in(friend, 0x1) and uid_in(friend, [0x2, 3]) and uid_in(friend, uid(v))) { uid }
    }`);
    const tree = doc.blocks[1].filter;
    if (tree?.kind !== "FilterAnd") throw new Error("expected and");
    const fns = tree.operands.map((o) => (o.kind === "FilterFunction" ? o.func : undefined));
    expect(fns[0]?.args).toMatchObject([{ kind: "LiteralArg", value: "0x1" }]);
    expect(fns[1]?.args).toMatchObject([{ value: "0x2" }, { value: "3" }]);
    expect(fns[2]?.args).toMatchObject([{ kind: "UidVarArg", varName: "v" }]);
    expect(doc.blocks[1].needs).toEqual(["v"]);
  });

  it("parses geo functions with coordinate arrays", () => {
    const near = rootFunc("{ q(func: near(loc, [-122.4, 37.7], 1000)) { uid } }");
    expect(near.args).toMatchObject([
      { kind: "GeoArg", text: "[-122.4,37.7]", coordinates: [-122.4, 37.7] },
      { kind: "LiteralArg", value: "1000" },
    ]);
    const within = rootFunc("{ q(func: within(loc, [[[1, 2], [3, 4], [5, 6], [1, 2]]])) { uid } }");
    expect(within.args[0]).toMatchObject({
      kind: "GeoArg",
      coordinates: [
        [
          [1, 2],
          [3, 4],
          [5, 6],
          [1, 2],
        ],
      ],
    });
    for (const name of ["contains", "intersects"]) {
      expect(rootFunc(`{ q(func: ${name}(loc, [1, 2])) { uid } }`).name).toBe(name);
    }
  });

  it("parses similar_to with a vector, a variable and options", () => {
    const f = rootFunc('{ q(func: similar_to(vec, 3, "[0.1, 0.2]")) { uid } }');
    expect(f.args).toMatchObject([{ value: "3" }, { value: "[0.1, 0.2]" }]);
    const g = rootFunc(
      "query q($v: float32vector) { q(func: similar_to(vec, 2, $v, ef: 64, distance_threshold: 0.5)) { uid } }",
      {
        $v: "[1, 2]",
      },
    );
    expect(g.args).toMatchObject([
      { kind: "LiteralArg", value: "2" },
      { kind: "LiteralArg", value: "[1, 2]", fromVariable: "$v" },
      { kind: "NamedArg", name: "ef", value: "64" },
      { kind: "NamedArg", name: "distance_threshold", value: "0.5" },
    ]);
  });

  it("accepts checkpwd in filters but not at the root", () => {
    expect(filterOf('{ q(func: has(a)) @filter(checkpwd(pass, "x")) { uid } }')).toMatchObject({
      func: { name: "checkpwd", attr: { predicate: "pass" }, args: [{ value: "x" }] },
    });
    expect(errorOf('{ q(func: checkpwd(pass, "x")) { uid } }')).toBe(
      "line 1 column 8: Function name: checkpwd is not valid.",
    );
  });

  it("lower-cases function names", () => {
    expect(rootFunc('{ q(func: EQ(name, "x")) { uid } }').name).toBe("eq");
  });

  it("rejects unknown filter functions", () => {
    expect(errorOf("{ q(func: has(a)) @filter(foo(b)) { uid } }")).toBe(
      "line 1 column 26: Function name: foo is not valid.",
    );
  });

  it("rejects a function without an attribute", () => {
    expect(errorOf("{ q(func: has()) { uid } }")).toBe(
      "line 1 column 15: Got empty attr for function: [has]",
    );
  });

  it("rejects a quoted attribute", () => {
    expect(errorOf('{ q(func: eq("name", "x")) { uid } }')).toBe(
      'line 1 column 13: Attribute in function must not be quoted with ": "name"',
    );
  });

  it("rejects a language on the wrong argument and * as a function language", () => {
    expect(errorOf('{ q(func: eq(name, "x"@en)) { uid } }')).toMatch(
      /Invalid usage of '@' in function argument/,
    );
    expect(errorOf('{ q(func: eq(name@*, "x")) { uid } }')).toBe(
      "The * symbol cannot be used as a valid language inside functions",
    );
  });

  it("allows len() only inside comparisons", () => {
    expect(errorOf("{ v as var(func: has(a)) q(func: has(b)) @filter(has(len(v))) { uid } }")).toMatch(
      /len function only allowed inside inequality function$/,
    );
  });
});

describe("filters", () => {
  it("binds not tighter than and, and tighter than or", () => {
    expect(show(filterOf("{ q(func: has(a)) @filter(has(b) or has(c) and not has(d)) { uid } }"))).toBe(
      "(or (has b) (and (has c) (not (has d))))",
    );
    expect(show(filterOf("{ q(func: has(a)) @filter(not has(b) and has(c)) { uid } }"))).toBe(
      "(and (not (has b)) (has c))",
    );
  });

  it("accepts operators in any case and parentheses", () => {
    expect(
      show(filterOf("{ q(func: has(a)) @filter((has(b) OR has(c)) And NOT (has(d) or has(e))) { uid } }")),
    ).toBe("(and (or (has b) (has c)) (not (or (has d) (has e))))");
  });

  it("flattens chains of the same operator", () => {
    expect(show(filterOf("{ q(func: has(a)) @filter(has(b) and has(c) and has(d)) { uid } }"))).toBe(
      "(and (has b) (has c) (has d))",
    );
  });

  it("ignores an empty filter", () => {
    expect(block("{ q(func: has(a)) @filter() { uid } }").filter).toBeUndefined();
  });

  it("requires operators between functions", () => {
    expect(errorOf("{ q(func: has(a)) @filter(has(b) has(c)) { uid } }")).toBe(
      "line 1 column 25: Expected one item in value stack, but got 2",
    );
    expect(errorOf("{ q(func: has(a)) @filter(has(b) and) { uid } }")).toBe("Invalid filter statement");
  });

  it("applies filters on edges", () => {
    const f = field(block('{ q(func: has(a)) { friend @filter(eq(name, "x")) { name } } }').selections, 0);
    expect(f.filter).toMatchObject({ kind: "FilterFunction", func: { name: "eq" } });
    expect(errorOf("{ q(func: has(a)) { friend @filter(has(b)) @filter(has(c)) { uid } } }")).toBe(
      "line 1 column 44: Use AND, OR and round brackets instead of multiple filter directives.",
    );
  });
});

describe("selections", () => {
  it("parses aliases, languages and reverse edges", () => {
    const b = block("{ q(func: uid(1)) { n : name@en:fr:. all: name@* ~friend { name } } }");
    expect(field(b.selections, 0)).toMatchObject({ alias: "n", predicate: "name", langs: ["en", "fr", "."] });
    expect(field(b.selections, 1)).toMatchObject({ alias: "all", predicate: "name", langs: ["*"] });
    expect(field(b.selections, 2)).toMatchObject({
      predicate: "friend",
      reverse: true,
      selections: [{ kind: "PredicateField" }],
    });
  });

  it("parses counts of predicates, reverse edges and uids", () => {
    const b = block(
      "{ q(func: uid(1)) { count(friend) c: count(~friend) count(uid) total as count(uid) } r() { t: sum(val(total)) } }",
    );
    const counts = b.selections as CountField[];
    expect(counts[0]).toMatchObject({
      kind: "CountField",
      isUid: false,
      predicate: "friend",
      reverse: false,
    });
    expect(counts[1]).toMatchObject({ alias: "c", predicate: "friend", reverse: true });
    expect(counts[2]).toMatchObject({ isUid: true, predicate: "uid" });
    expect(errorOf("{ q(func: uid(1)) { total as count(uid) } }")).toMatch(/defined but not used/);
  });

  it("counts only matching edges with a filter inside count()", () => {
    const b = block('{ q(func: uid(1)) { count(friend @filter(eq(name, "x"))) } }');
    expect(b.selections[0]).toMatchObject({
      kind: "CountField",
      predicate: "friend",
      filter: { kind: "FilterFunction" },
    });
  });

  it("defines variables on predicates, counts and uid", () => {
    const doc = parse(`{
      var(func: uid(1)) { a as age  c as count(friend)  u as uid  f as friend }
      q(func: uid(u, f)) { val(a) val(c) }
    }`);
    expect(doc.blocks[0].defines).toEqual(["a", "c", "u", "f"]);
    expect(doc.blocks[0].selections.map((s) => [s.kind, s.asVar])).toEqual([
      ["PredicateField", "a"],
      ["CountField", "c"],
      ["UidField", "u"],
      ["PredicateField", "f"],
    ]);
  });

  it("parses value variables and aggregations", () => {
    const doc = parse(`{
      var(func: uid(1)) { a as age }
      q(func: uid(1)) { val(a)  years: val(a)  min(val(a)) max(val(a)) s: sum(val(a)) avg(val(a)) }
    }`);
    const sel = doc.blocks[1].selections;
    expect(sel[0]).toEqual({ kind: "ValueVarField", loc: expect.anything(), varName: "a" });
    expect(sel[1]).toMatchObject({ kind: "ValueVarField", alias: "years", varName: "a" });
    expect((sel.slice(2) as AggregateField[]).map((s) => [s.fn, s.alias])).toEqual([
      ["min", undefined],
      ["max", undefined],
      ["sum", "s"],
      ["avg", undefined],
    ]);
  });

  it("requires variables in aggregations outside groupby", () => {
    expect(errorOf("{ q(func: uid(1)) { min(age) } }")).toBe(
      "line 1 column 27: Only variables allowed in aggregate functions. Got: age",
    );
  });

  it("treats aggregate names without parentheses as predicates", () => {
    expect(field(block("{ q(func: uid(1)) { min max } }").selections, 0).predicate).toBe("min");
  });

  it("parses math expressions with precedence and functions", () => {
    const doc = parse(`{
      var(func: uid(1)) { a as age  b as count(friend) }
      q(func: uid(1)) {
        r as math(a + b * -2 / (a - 1))
        s: math(max(a, b) + pow(a, 2) + cond(a > 1, ln(a), sqrt(b)) + since(a) + logbase(a, 2) + a dot b)
        val(r)
      }
    }`);
    const [r, s] = doc.blocks[1].selections as MathField[];
    expect(r.asVar).toBe("r");
    expect(r.text).toBe("a + b * -2 / (a - 1)");
    expect(r.expr).toEqual({
      kind: "MathBinary",
      op: "+",
      left: { kind: "MathVarRef", varName: "a" },
      right: {
        kind: "MathBinary",
        op: "/",
        left: {
          kind: "MathBinary",
          op: "*",
          left: { kind: "MathVarRef", varName: "b" },
          right: {
            kind: "MathUnary",
            op: "-",
            operand: { kind: "MathNumber", value: 2, text: "2", isInt: true },
          },
        },
        right: {
          kind: "MathBinary",
          op: "-",
          left: { kind: "MathVarRef", varName: "a" },
          right: { kind: "MathNumber", value: 1, text: "1", isInt: true },
        },
      },
    });
    expect(s.alias).toBe("s");
    expect(JSON.stringify(s.expr)).toContain('"fn":"cond"');
    expect(JSON.stringify(s.expr)).toContain('"fn":"dot"');
    expect(doc.blocks[1].needs).toEqual(["a", "b", "r"]);
  });

  it("follows Dgraph's precedence for comparisons and % in math", () => {
    const [m] = block(
      "{ var(func: uid(1)) { a as age } q(func: uid(1)) { x: math(a % 2 * 3 >= 1.5) } }",
      undefined,
      1,
    ).selections as MathField[];
    expect(m.expr).toMatchObject({
      op: ">=",
      left: { op: "%", right: { op: "*" } },
      right: { kind: "MathNumber", value: 1.5, isInt: false },
    });
  });

  it("substitutes query variables in math", () => {
    const sel = block("query t($n: int) { q(func: uid(1)) { x as count(uid) p: math(x + $n) } }", {
      $n: "7",
    }).selections;
    expect(sel[1]).toMatchObject({
      kind: "MathField",
      expr: { op: "+", right: { kind: "MathNumber", value: 7, isInt: true } },
    });
  });

  it("rejects malformed math", () => {
    expect(errorOf("{ q(func: uid(1)) { x: math(foo(a)) } }")).toBe("Unknown math function: foo");
    expect(errorOf("{ var(func: uid(1)) { a as age } q(func: uid(1)) { x: math(a / 0) } }")).toBe(
      "Division by zero.",
    );
    expect(errorOf("{ q(func: uid(1)) { x: math() } }")).toBe("Empty () not allowed in math block.");
    expect(errorOf("{ q(func: uid(1)) { math(a) } }")).toBe(
      "line 1 column 24: Function math should be used with a variable or have an alias",
    );
  });

  it("parses expand forms", () => {
    const doc = parse(`{
      var(func: uid(1)) { t as dgraph.type }
      q(func: uid(1)) {
        expand(_all_) { expand(_all_) }
        expand(Person, Film)
        expand(val(t)) @filter(type(Person))
      }
    }`);
    const [all, types, byVar] = doc.blocks[1].selections as ExpandField[];
    expect(all.target).toEqual({ kind: "ExpandAll" });
    expect(all.selections[0]).toMatchObject({ kind: "ExpandField", target: { kind: "ExpandAll" } });
    expect(types.target).toEqual({ kind: "ExpandTypes", types: ["Person", "Film"] });
    expect(byVar.target).toEqual({ kind: "ExpandValueVar", varName: "t" });
    expect(byVar.filter).toMatchObject({ func: { name: "type" } });
  });

  it("restricts expand", () => {
    expect(errorOf("{ q(func: uid(1)) { e: expand(_all_) } }")).toBe(
      "line 1 column 29: expand() cannot have an alias",
    );
    expect(errorOf("{ q(func: uid(1)) { expand(_all_) @filter(has(name)) } }")).toBe(
      "line 1 column 35: expand is only compatible with type filters",
    );
    expect(errorOf("{ q(func: uid(1)) { expand(_forward_) } }")).toBe(
      "line 1 column 27: Argument _forward_ has been deprecated",
    );
  });

  it("parses edge arguments", () => {
    const f = field(
      block(
        "{ q(func: uid(1)) { friend (first: 10, offset: 2, after: 0x1, orderasc: name, orderdesc: age@en) @filter(has(name)) { name } } }",
      ).selections,
      0,
    );
    expect(f).toMatchObject({ first: 10, offset: 2, after: 1, filter: { func: { name: "has" } } });
    expect(f.order).toMatchObject([
      { kind: "OrderByPredicate", predicate: "name", desc: false },
      { kind: "OrderByPredicate", predicate: "age", langs: ["en"], desc: true },
    ]);
  });

  it("sorts edges by a value variable", () => {
    const doc = parse(
      "{ var(func: uid(1)) { friend { s as score } } q(func: uid(1)) { friend (orderdesc: val(s)) { name } } }",
    );
    expect(field(doc.blocks[1].selections, 0).order).toMatchObject([
      { kind: "OrderByValueVar", varName: "s", desc: true },
    ]);
  });

  it("rejects unknown and repeated edge arguments", () => {
    expect(errorOf("{ q(func: uid(1)) { friend (limit: 1) { name } } }")).toBe(
      "line 1 column 38: Got invalid keyword: limit",
    );
    expect(errorOf("{ q(func: uid(1)) { friend (first: 1, first: 2) { name } } }")).toBe(
      'line 1 column 48: Got repeated key "first" at level "friend"',
    );
  });

  it("reports non-numeric pagination with Go's parse error", () => {
    expect(errorOf("{ q(func: uid(1), first: abc) { uid } }")).toBe(
      'strconv.ParseInt: parsing "abc": invalid syntax',
    );
  });

  it("parses checkpwd in a selection", () => {
    const b = block('{ q(func: uid(1)) { ok: checkpwd(password, "secret") } }');
    expect(b.selections[0]).toMatchObject({
      kind: "CheckPwdField",
      alias: "ok",
      predicate: "password",
      password: "secret",
    });
  });

  it("expands fragments defined before or after use, recursively", () => {
    const doc = parse(`
      fragment a { name ...b }
      { q(func: uid(1)) { uid ...a friend { ...b } } }
      fragment b { age }
    `);
    const sel = doc.blocks[0].selections;
    expect(sel.map((s) => (s.kind === "PredicateField" ? s.predicate : s.kind))).toEqual([
      "UidField",
      "name",
      "age",
      "friend",
    ]);
    expect(field(sel, 3).selections.map((s) => (s as PredicateField).predicate)).toEqual(["age"]);
  });

  it("reports missing and cyclic fragments", () => {
    expect(errorOf("{ q(func: uid(1)) { ...nope } }")).toBe("Missing fragment: nope");
    expect(errorOf("fragment a { ...b } fragment b { ...a } { q(func: uid(1)) { ...a } }")).toBe(
      "Cycle detected: a",
    );
  });

  it("rejects misplaced functions in selections", () => {
    expect(errorOf("{ q(func: uid(1)) { count() } }")).toBe(
      "line 1 column 26: Cannot use count(), please use count(uid)",
    );
    expect(errorOf("{ q(func: uid(1)) { uid(a) } }")).toBe("line 1 column 23: Cannot do uid() of a variable");
    expect(errorOf("{ q(func: uid(1)) { count(a b) } }")).toBe(
      "line 1 column 29: Multiple predicates not allowed in single count.",
    );
    expect(errorOf("{ var(func: uid(1)) { a as age } q(func: uid(1)) { val(a) @filter(has(b)) } }")).toBe(
      "line 1 column 56: Invalid use of directive.",
    );
  });

  it("forbids children under language-tagged predicates", () => {
    expect(errorOf("{ q(func: uid(1)) { name@en { uid } } }")).toBe(
      "line 1 column 30: Cannot have children for attr: name with lang tags: [en]",
    );
  });

  it("reports an @ that is neither a directive nor a language", () => {
    expect(errorOf("{ q(func: uid(1)) { name@en @foo } }")).toBe(
      "line 1 column 29: Expected directive or language list, got @foo",
    );
  });
});

describe("directives", () => {
  it("parses cascade with and without fields", () => {
    const b = block("{ q(func: has(a)) @cascade { friend @cascade(name, age) { name age } } }");
    expect(b.directives.cascade).toEqual({ fields: [] });
    expect(field(b.selections, 0).directives.cascade).toEqual({ fields: ["name", "age"] });
  });

  it("parses normalize, ignorereflex and recurse", () => {
    const b = block("{ q(func: has(a)) @normalize @ignorereflex @recurse(depth: 5, loop: true) { friend } }");
    expect(b.directives).toMatchObject({
      normalize: true,
      ignoreReflex: true,
      recurse: { depth: 5, loop: true },
    });
    expect(block("{ q(func: has(a)) @recurse { friend } }").directives.recurse).toEqual({ loop: false });
  });

  it("validates recurse arguments", () => {
    expect(errorOf("{ q(func: has(a)) @recurse(depth: x) { friend } }")).toBe(
      "Value inside depth should be type of integer",
    );
    expect(errorOf("{ q(func: has(a)) @recurse(depth: 2, loop: maybe) { friend } }")).toBe(
      "Value inside loop should be type of boolean",
    );
    expect(errorOf("{ q(func: has(a)) @recurse(steps: 2) { friend } }")).toBe(
      "line 1 column 34: Unexpected key: [steps] inside @recurse block",
    );
  });

  it("takes recurse depth from a query variable", () => {
    const b = block("query q($d: int) { q(func: has(a)) @recurse(depth: $d) { friend } }", { $d: "3" });
    expect(b.directives.recurse).toEqual({ depth: 3, loop: false });
  });

  it("parses groupby keys with aliases and languages", () => {
    const doc = parse(`{
      var(func: has(genre)) @groupby(g: genre, name@en) { c as count(uid) m: min(rating) }
      q(func: uid(c)) { uid }
    }`);
    const b = doc.blocks[0];
    expect(b.directives.groupBy).toMatchObject([
      { predicate: "genre", alias: "g", langs: [] },
      { predicate: "name", langs: ["en"] },
    ]);
    expect(b.selections).toMatchObject([
      { kind: "CountField", isUid: true, asVar: "c" },
      { kind: "AggregateField", alias: "m", fn: "min", target: { kind: "Predicate", predicate: "rating" } },
    ]);
  });

  it("allows only aggregations under groupby", () => {
    expect(errorOf("{ q(func: has(a)) @groupby(genre) { name } }")).toBe(
      "line 1 column 41: Only aggregator/count functions allowed inside @groupby. Got: name",
    );
  });

  it("parses every form of @facets", () => {
    const doc = parse(`{
      q(func: uid(1)) {
        a @facets
        b @facets()
        c @facets(since, alias: weight, orderdesc: rank, w as close)
        d @facets(eq(close, true) and lt(weight, 3)) @facets(since)
      }
      r(func: uid(w)) { uid }
    }`);
    const [a, b, c, d] = doc.blocks[0].selections as PredicateField[];
    expect(a.directives.facets).toEqual({ all: true, keys: [], orders: [] });
    expect(b.directives.facets).toEqual({ all: false, keys: [], orders: [] });
    expect(c.directives.facets).toEqual({
      all: false,
      keys: [
        { key: "close", asVar: "w" },
        { key: "rank" },
        { key: "since" },
        { key: "weight", alias: "alias" },
      ],
      order: { key: "rank", desc: true },
      orders: [{ key: "rank", desc: true }],
    });
    expect(show(d.directives.facetsFilter as FilterTree)).toBe("(and (eq close) (lt weight))");
    expect(d.directives.facets?.keys).toEqual([{ key: "since" }]);
    expect(doc.blocks[0].defines).toEqual(["w"]);
  });

  it("rejects variables in facet filters and duplicate facet directives", () => {
    expect(errorOf("{ v as var(func: uid(1)) q(func: uid(1)) { a @facets(uid_in(x, uid(v))) } }")).toBe(
      "line 1 column 46: variables are not allowed in facets filter.",
    );
    expect(errorOf("{ q(func: uid(1)) { a @facets(x) @facets(y) } }")).toBe(
      "line 1 column 34: Only one facets allowed",
    );
  });
});

describe("query variables", () => {
  it("substitutes supplied values and defaults", () => {
    const doc = parse(
      'query q($a: string = "Alice", $n: int = 2, $f: float, $b: bool) { q(func: eq(name, $a), first: $n) { uid } }',
      {
        $f: "1.5",
      },
    );
    expect(doc.name).toBe("q");
    expect(doc.variables.map((v) => [v.name, v.type, v.required, v.defaultValue, v.value])).toEqual([
      ["$a", "string", false, "Alice", "Alice"],
      ["$n", "int", false, "2", "2"],
      ["$f", "float", false, undefined, "1.5"],
      ["$b", "bool", false, undefined, ""],
    ]);
    expect(doc.blocks[0].first).toBe(2);
    expect(doc.blocks[0].func?.args).toMatchObject([
      { kind: "LiteralArg", value: "Alice", fromVariable: "$a" },
    ]);
  });

  it("lets supplied values override defaults", () => {
    const f = rootFunc('query q($a: string = "Alice") { q(func: eq(name, $a)) { uid } }', { $a: "Bob" });
    expect(f.args[0]).toMatchObject({ value: "Bob" });
  });

  it("substitutes the empty string for declared variables without value", () => {
    const f = rootFunc("query q($a: string) { q(func: eq(name, $a)) { uid } }");
    expect(f.args[0]).toMatchObject({ kind: "LiteralArg", value: "", fromVariable: "$a" });
  });

  it("ignores pagination variables that have no value", () => {
    expect(block("query q($n: int) { q(func: has(a), first: $n) { uid } }").first).toBeUndefined();
  });

  it("requires a value for variables declared with !", () => {
    expect(errorOf("query q($n: int!) { q(func: has(a), first: $n) { uid } }")).toBe(
      "Variable $n should be initialised",
    );
    expect(block("query q($n: int!) { q(func: has(a), first: $n) { uid } }", { $n: "3" }).first).toBe(3);
  });

  it("rejects supplied variables that are not declared", () => {
    expect(errorOf("query q($a: string) { q(func: eq(name, $a)) { uid } }", { $a: "x", $b: "y" })).toBe(
      "Type of variable $b not specified",
    );
  });

  it("checks values against the declared type", () => {
    expect(errorOf("query q($n: int) { q(func: has(a), first: $n) { uid } }", { $n: "x" })).toBe(
      'Expected an int but got x: strconv.ParseInt: parsing "x": invalid syntax',
    );
    expect(errorOf("query q($f: float) { q(func: eq(a, $f)) { uid } }", { $f: "1.2.3" })).toMatch(
      /^Expected a float but got 1\.2\.3/,
    );
    expect(errorOf("query q($b: bool) { q(func: eq(a, $b)) { uid } }", { $b: "yes" })).toMatch(
      /^Expected a bool but got yes/,
    );
    expect(errorOf("query q($s: strin) { q(func: eq(a, $s)) { uid } }", { $s: "x" })).toBe(
      'Type "strin" not supported',
    );
  });

  it("forbids a default on a required variable", () => {
    expect(errorOf("query q($n: int! = 3) { q(func: has(a)) { uid } }")).toBe(
      "line 1 column 17: Type ending with ! can't have default value: Got: int!",
    );
  });

  it("allows variables only in named queries", () => {
    expect(errorOf("query ($a: int) { q(func: has(a)) { uid } }")).toBe(
      "line 1 column 6: Variables can be defined only in named queries.",
    );
  });

  it("reports variables used without declaration", () => {
    expect(errorOf("{ q(func: eq(name, $a)) { uid } }", { $a: "x" })).toBe("Variable not defined $a");
  });

  it("substitutes variables in edge arguments and uid filters", () => {
    const doc = parse(
      "query q($n: int, $ids: string) { q(func: has(a)) { friend (first: $n) @filter(uid($ids)) { uid } } }",
      {
        $n: "4",
        $ids: "[0x5, 0x6]",
      },
    );
    const f = field(doc.blocks[0].selections, 0);
    expect(f.first).toBe(4);
    expect(f.filter).toMatchObject({ func: { name: "uid", uids: { uids: [5, 6], vars: [] } } });
  });

  it("substitutes variables in value lists", () => {
    const f = rootFunc('query q($x: string) { q(func: eq(name, [$x, "b"])) { uid } }', { $x: "a" });
    expect(f.args.map((a) => (a.kind === "LiteralArg" ? a.value : a.kind))).toEqual(["a", "b"]);
  });

  it("reports an empty uid variable", () => {
    expect(errorOf("query q($ids: string) { q(func: uid($ids)) { uid } }")).toBe("ID can't be empty");
  });

  it("reads declarations from every query header before parsing", () => {
    const doc = parse("query a($x: string) { q(func: eq(name, $x)) { uid } }", { $x: "v" });
    expect(doc.variables).toHaveLength(1);
  });
});

describe("variable dependencies", () => {
  it("reports variables defined but not used, with sorted lists", () => {
    expect(errorOf("{ q(func: uid(1)) { b as age a as name } r(func: uid(b)) { uid } }")).toBe(
      "Some variables are defined but not used\nDefined:[a b]\nUsed:[b]\n",
    );
  });

  it("reports variables used but not defined", () => {
    expect(errorOf("{ q(func: uid(x, y)) { n as name } r(func: uid(n)) { uid } }")).toBe(
      "Some variables are used but not defined\nDefined:[n]\nUsed:[n x y]\n",
    );
  });

  it("reports variables defined twice", () => {
    expect(errorOf("{ q(func: uid(1)) { a as name a as age } r(func: uid(a)) { uid } }")).toBe(
      "Some variables are declared multiple times.",
    );
  });

  it("reports mismatched variables", () => {
    expect(errorOf("{ q(func: uid(1)) { a as name } r(func: uid(b)) { uid } }")).toBe(
      "Variables are not used properly. \nDefined:[a]\nUsed:[b]\n",
    );
  });

  it("counts variables needed by an upsert's mutations as used", () => {
    expect(() =>
      parseDql('{ q(func: eq(email, "a")) { v as uid } }', undefined, { needVars: ["v"] }),
    ).not.toThrow();
    expect(errorOf('{ q(func: eq(email, "a")) { v as uid } }')).toBe(
      "Some variables are defined but not used\nDefined:[v]\nUsed:[]\n",
    );
  });
});

describe("schema queries", () => {
  it("parses schema {} as everything", () => {
    const doc = parse("schema {}");
    expect(doc.blocks).toEqual([]);
    expect(doc.schema).toEqual({ kind: "SchemaQuery", fields: [], loc: { line: 1, column: 0 } });
  });

  it("parses predicate lists and requested fields", () => {
    expect(parse("schema(pred: [name, age]) { type index }").schema).toMatchObject({
      predicates: ["name", "age"],
      fields: ["type", "index"],
    });
    expect(parse("schema(pred: name) { }").schema).toMatchObject({ predicates: ["name"], fields: [] });
  });

  it("parses type lists", () => {
    expect(parse("schema(type: Person) {}").schema).toMatchObject({ types: ["Person"] });
    expect(parse("schema(type: [A, B]) {}").schema?.types).toEqual(["A", "B"]);
    expect(parse("schema(type: [A, B]) {}").schema?.predicates).toBeUndefined();
  });

  it("does not mix schema and query blocks", () => {
    expect(errorOf("{ q(func: uid(1)) { uid } } schema {}")).toBe(
      "line 1 column 28: Schema block is not allowed with query block",
    );
    expect(errorOf("schema {} query q { q(func: uid(1)) { uid } }")).toBe(
      "line 1 column 10: Schema block is not allowed with query block",
    );
    expect(errorOf("schema {} { q(func: uid(1)) { uid } }")).toBe(
      "line 1 column 10: Schema block is not allowed with query block",
    );
    expect(errorOf("schema {} schema {}")).toBe("line 1 column 10: Only one schema block allowed ");
  });

  it("rejects malformed schema blocks", () => {
    expect(errorOf("schema(pred: name, type: x) {}")).toBe("line 1 column 17: Invalid schema blocks");
    expect(errorOf("schema { type, index }")).toBe("line 1 column 13: Invalid schema block.");
  });
});

describe("errors", () => {
  it("are DgraphErrors coded ErrorInvalidRequest", () => {
    try {
      parseDql("{ q(func: foo(x)) { uid } }");
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(DgraphError);
      expect(error).toBeInstanceOf(DqlSyntaxError);
      expect((error as DgraphError).code).toBe("ErrorInvalidRequest");
      expect((error as DqlSyntaxError).locations).toEqual([{ line: 1, column: 8 }]);
    }
  });

  it("rejects old mutation syntax", () => {
    expect(errorOf("mutation { set { <a> <b> <c> . } }")).toBe(
      "line 1 column 0: Mutation block no longer allowed.",
    );
  });

  it("numbers lines from 1 and columns from 0 in bytes, as Dgraph does", () => {
    expect(errorOf("{\n  q(func: uid(1)) {\n    uid(x)\n  }\n}")).toBe(
      "line 3 column 7: Cannot do uid() of a variable",
    );
    expect(errorOf('{ q(func: eq(name, "é")) { uid } q(func: foo(x)) { uid } }')).toBe(
      "line 1 column 40: Function name: foo is not valid.",
    );
  });
});
