/**
 * DQL conformance: schema alter, schema queries, drops, index builds (reference §1.5, §3, §3.6).
 */
import { describe } from "vitest";
import { byteOrder, type Case, type Step, table } from "./harness.ts";

type SchemaEntry = { predicate: string; type: string } & Record<string, unknown>;
type TypeEntry = { fields: { name: string }[]; name: string };

/** The pre-defined predicates every `schema {}` lists (§3.3), false/empty fields omitted (§3.6). */
const PREDEFINED_PREDICATES: SchemaEntry[] = [
  { predicate: "dgraph.drop.op", type: "string" },
  { predicate: "dgraph.graphql.p_query", type: "string", index: true, tokenizer: ["sha256"] },
  { predicate: "dgraph.graphql.schema", type: "string" },
  { predicate: "dgraph.graphql.xid", type: "string", index: true, tokenizer: ["exact"], upsert: true },
  {
    predicate: "dgraph.namespace.id",
    type: "int",
    index: true,
    tokenizer: ["int"],
    upsert: true,
    unique: true,
  },
  {
    predicate: "dgraph.namespace.name",
    type: "string",
    index: true,
    tokenizer: ["exact"],
    upsert: true,
    unique: true,
  },
  { predicate: "dgraph.type", type: "string", index: true, tokenizer: ["exact"], list: true },
];

const PREDEFINED_TYPES: TypeEntry[] = [
  { fields: [{ name: "dgraph.graphql.schema" }, { name: "dgraph.graphql.xid" }], name: "dgraph.graphql" },
  { fields: [{ name: "dgraph.graphql.p_query" }], name: "dgraph.graphql.persisted_query" },
  { fields: [{ name: "dgraph.namespace.name" }, { name: "dgraph.namespace.id" }], name: "dgraph.namespace" },
];

/** Expected `schema {}` data: user entries merged with the pre-defined ones, sorted by name. */
function fullSchema(preds: SchemaEntry[] = [], types: TypeEntry[] = []) {
  return {
    schema: [...PREDEFINED_PREDICATES, ...preds].sort((a, b) => byteOrder(a.predicate, b.predicate)),
    types: [...PREDEFINED_TYPES, ...types].sort((a, b) => byteOrder(a.name, b.name)),
  };
}

/** An alter that must fail with exactly `message`. */
function alterError(name: string, schema: string, message: string): Case {
  return { name, data: [{ alter: { schema }, errorExact: message }] };
}

const alter = (schema: string): Step => ({ alter: { schema } });

const cases: Case[] = [
  // ---------------------------------------------------------------------------------------------
  // schema {} output shape
  {
    name: "schema {} on a fresh database lists exactly the pre-defined dgraph.* predicates and types",
    query: "schema {}",
    expected: fullSchema(),
  },
  {
    name: "scalar and list types are reported with type and list flag",
    schema: [
      "p_default: default .",
      "p_int: int .",
      "p_float: float .",
      "p_string: string .",
      "p_bool: bool .",
      "p_datetime: datetime .",
      "p_geo: geo .",
      "p_password: password .",
      "p_uid: uid .",
      "p_uids: [uid] .",
      "p_strings: [string] .",
      "p_ints: [int] .",
      "p_floats: [float] .",
      "p_dates: [datetime] .",
    ].join("\n"),
    query:
      "schema(pred: [p_default, p_int, p_float, p_string, p_bool, p_datetime, p_geo, p_password, p_uid, p_uids, p_strings, p_ints, p_floats, p_dates]) { type list }",
    expected: {
      schema: [
        { predicate: "p_bool", type: "bool" },
        { predicate: "p_dates", type: "datetime", list: true },
        { predicate: "p_datetime", type: "datetime" },
        { predicate: "p_default", type: "default" },
        { predicate: "p_float", type: "float" },
        { predicate: "p_floats", type: "float", list: true },
        { predicate: "p_geo", type: "geo" },
        { predicate: "p_int", type: "int" },
        { predicate: "p_ints", type: "int", list: true },
        { predicate: "p_password", type: "password" },
        { predicate: "p_string", type: "string" },
        { predicate: "p_strings", type: "string", list: true },
        { predicate: "p_uid", type: "uid" },
        { predicate: "p_uids", type: "uid", list: true },
      ],
    },
  },
  {
    name: "type names are case-insensitive (INT, dateTime, [STRING])",
    schema: "a: INT .\nb: dateTime .\nc: [STRING] .",
    query: "schema(pred: [a, b, c]) { type list }",
    expected: {
      schema: [
        { predicate: "a", type: "int" },
        { predicate: "b", type: "datetime" },
        { predicate: "c", type: "string", list: true },
      ],
    },
  },
  {
    name: "string tokenizers exact, fulltext, hash, term, trigram are listed in declaration order",
    schema: "name: string @index(exact, fulltext, hash, term, trigram) .",
    query: "schema(pred: [name]) { type index tokenizer }",
    expected: {
      schema: [
        {
          predicate: "name",
          type: "string",
          index: true,
          tokenizer: ["exact", "fulltext", "hash", "term", "trigram"],
        },
      ],
    },
  },
  {
    name: "int, float and bool indexes use the int, float and bool tokenizers",
    schema: "age: int @index(int) .\nscore: float @index(float) .\nok: bool @index(bool) .",
    query: "schema(pred: [age, score, ok]) { type index tokenizer }",
    expected: {
      schema: [
        { predicate: "age", type: "int", index: true, tokenizer: ["int"] },
        { predicate: "ok", type: "bool", index: true, tokenizer: ["bool"] },
        { predicate: "score", type: "float", index: true, tokenizer: ["float"] },
      ],
    },
  },
  {
    name: "datetime indexes year, month, day, hour",
    schema:
      "y: datetime @index(year) .\nm: datetime @index(month) .\nd: datetime @index(day) .\nh: datetime @index(hour) .",
    query: "schema(pred: [y, m, d, h]) { index tokenizer }",
    expected: {
      schema: [
        { predicate: "d", index: true, tokenizer: ["day"] },
        { predicate: "h", index: true, tokenizer: ["hour"] },
        { predicate: "m", index: true, tokenizer: ["month"] },
        { predicate: "y", index: true, tokenizer: ["year"] },
      ],
    },
  },
  {
    name: "@reverse and @count on a [uid] predicate show in schema {} next to the pre-defined predicates",
    schema: "friend: [uid] @reverse @count .",
    query: "schema {}",
    expected: fullSchema([{ predicate: "friend", type: "uid", reverse: true, count: true, list: true }]),
  },
  {
    name: "@upsert, @lang, @noconflict and @unique flags are reported (noconflict as no_conflict)",
    schema: [
      "email: string @index(exact) @upsert .",
      "title: string @lang .",
      "tags: [string] @noconflict .",
      "code: string @index(hash) @unique .",
    ].join("\n"),
    query: "schema {}",
    expected: fullSchema([
      { predicate: "code", type: "string", index: true, tokenizer: ["hash"], unique: true },
      { predicate: "email", type: "string", index: true, tokenizer: ["exact"], upsert: true },
      { predicate: "tags", type: "string", list: true, no_conflict: true },
      { predicate: "title", type: "string", lang: true },
    ]),
  },
  {
    name: "schema(pred: [...]) { type } returns only the requested field besides predicate",
    schema: "name: string @index(term) @lang .",
    query: "schema(pred: [name]) { type }",
    expected: { schema: [{ predicate: "name", type: "string" }] },
  },
  {
    // inferred: Dgraph looks up each named predicate and skips the ones it doesn't know.
    name: "schema(pred: [...]) skips predicates that don't exist",
    schema: "name: string .",
    query: "schema(pred: [name, nosuch]) { type }",
    expected: { schema: [{ predicate: "name", type: "string" }] },
  },
  {
    name: "IRI predicate names are accepted and reported without brackets",
    schema: "<http://x.org/name>: string @index(exact) .",
    query: "schema(pred: [<http://x.org/name>]) { type index tokenizer }",
    expected: {
      schema: [{ predicate: "http://x.org/name", type: "string", index: true, tokenizer: ["exact"] }],
    },
  },
  {
    name: "comments in schema text are ignored",
    schema: "# people\nname: string . # the name\n# end",
    query: "schema(pred: [name]) { type }",
    expected: { schema: [{ predicate: "name", type: "string" }] },
  },

  // ---------------------------------------------------------------------------------------------
  // types
  {
    name: "type declaration lists its fields in order, reverse fields as ~pred",
    schema:
      "name: string .\nage: int .\nfriend: [uid] @reverse .\ntype Person {\n  name\n  age\n  friend\n  <~friend>\n}",
    query: "schema(type: Person) {}",
    expected: {
      types: [
        {
          fields: [{ name: "name" }, { name: "age" }, { name: "friend" }, { name: "~friend" }],
          name: "Person",
        },
      ],
    },
  },
  {
    // inferred: Dgraph's formatTypes always sets "fields" (an empty list for an empty type).
    name: "type T {} is accepted and has an empty field list",
    schema: "type T {}",
    query: "schema(type: T) {}",
    expected: { types: [{ fields: [], name: "T" }] },
  },
  {
    name: "schema(type: [A, B]) returns both types sorted by name",
    schema: "a: string .\nb: string .\ntype B {\n  b\n}\ntype A {\n  a\n}\ntype C {\n  a\n  b\n}",
    query: "schema(type: [B, A]) {}",
    expected: {
      types: [
        { fields: [{ name: "a" }], name: "A" },
        { fields: [{ name: "b" }], name: "B" },
      ],
    },
  },
  {
    name: "schema {} lists user types with the pre-defined ones in byte order (upper case first)",
    schema: "name: string .\ntype Person {\n  name\n}",
    query: "schema {}",
    expected: fullSchema(
      [{ predicate: "name", type: "string" }],
      [{ fields: [{ name: "name" }], name: "Person" }],
    ),
  },
  {
    name: "old-style `field: type` inside a type is accepted and the type part ignored",
    schema: "name: string .\nage: int .\ntype Person {\n  name: string\n  age: int\n}",
    query: "schema(type: Person) {}",
    expected: { types: [{ fields: [{ name: "name" }, { name: "age" }], name: "Person" }] },
  },

  // ---------------------------------------------------------------------------------------------
  // alter semantics
  {
    name: "an alter changes only the predicates it names",
    schema: "name: string @index(term) .\nage: int .",
    data: [alter("age: int @index(int) .")],
    query: "schema(pred: [name, age]) { type index tokenizer }",
    expected: {
      schema: [
        { predicate: "age", type: "int", index: true, tokenizer: ["int"] },
        { predicate: "name", type: "string", index: true, tokenizer: ["term"] },
      ],
    },
  },
  {
    name: "restating a predicate replaces its whole definition (directives not restated are removed)",
    schema: "friend: [uid] @reverse @count .",
    data: [alter("friend: [uid] .")],
    query: "schema(pred: [friend]) { type reverse count list }",
    expected: { schema: [{ predicate: "friend", type: "uid", list: true }] },
  },
  {
    name: "restating a type replaces its fields and leaves other types alone",
    schema: "a: string .\nb: string .\nc: string .\ntype P {\n  a\n  b\n}\ntype Q {\n  a\n}",
    data: [alter("type P {\n  c\n}")],
    query: "schema(type: [P, Q]) {}",
    expected: {
      types: [
        { fields: [{ name: "c" }], name: "P" },
        { fields: [{ name: "a" }], name: "Q" },
      ],
    },
  },
  {
    name: "a failing alter applies nothing, not even its valid lines",
    data: [{ alter: { schema: "a: string .\nb: int @reverse ." }, error: "Cannot reverse for non-UID type" }],
    query: "schema {}",
    expected: fullSchema(),
  },
  {
    name: "restating a pre-defined predicate unchanged is allowed",
    schema: "dgraph.type: [string] @index(exact) .\nname: string .",
    query: "schema(pred: [dgraph.type, name]) { type index tokenizer list }",
    expected: {
      schema: [
        { predicate: "dgraph.type", type: "string", index: true, tokenizer: ["exact"], list: true },
        { predicate: "name", type: "string" },
      ],
    },
  },

  // ---------------------------------------------------------------------------------------------
  // alter errors (line L column C, 0-based byte columns)
  alterError("error: missing colon", "name string .", "line 1 column 5: Missing colon"),
  alterError("error: undefined type", "name: foo .", "line 1 column 6: Undefined Type"),
  alterError(
    "error: unknown directive is an invalid index specification",
    "name: string @upserts .",
    "line 1 column 14: Invalid index specification",
  ),
  alterError(
    "error: @reverse on a scalar predicate",
    "age: int @reverse .",
    "line 1 column 10: Cannot reverse for non-UID type",
  ),
  alterError(
    "error: @lang on a non-string predicate",
    "age: int @lang .",
    "line 1 column 10: @lang directive can only be specified for string type. Got: [int] for attr: [age]",
  ),
  alterError(
    "error: tokenizer not valid for the predicate's type",
    "age: int @index(term) .",
    "line 1 column 16: Tokenizer: term isn't valid for predicate: age of type: int",
  ),
  alterError(
    "error: unknown tokenizer (datetime is not a tokenizer name)",
    "when: datetime @index(datetime) .",
    "line 1 column 22: Invalid tokenizer datetime",
  ),
  alterError(
    "error: index on a uid predicate",
    "friend: uid @index(exact) .",
    "line 1 column 13: Indexing not allowed on predicate friend of type uid",
  ),
  alterError(
    "error: two sortable tokenizers",
    "d: datetime @index(year, month) .",
    "line 1 column 23: Only one index tokenizer can be sortable for d",
  ),
  alterError(
    "error: [bool] is not a valid list type",
    "flags: [bool] .",
    "line 1 column 8: Unsupported type for list: [bool].",
  ),
  alterError(
    "error: the line number counts from 1 across lines",
    "a: string .\nb: int @reverse .",
    "line 2 column 8: Cannot reverse for non-UID type",
  ),
  alterError(
    "error: @index without tokenizers",
    "name: string @index .",
    "line 1 column 14: Require type of tokenizer for pred: name for indexing.",
  ),
  alterError(
    "error: type fields must be on separate lines (Dgraph reads `a b` as an old-style `a: type`)",
    "type P { a b }",
    "line 1 column 11: Missing colon in type declaration. Got b",
  ),
  alterError(
    "error: duplicate fields in a type",
    "type A {\n  a\n  a\n}",
    "line 4 column 0: Duplicate fields with name: a",
  ),
  {
    name: "error: changing a pre-defined predicate",
    data: [
      {
        alter: { schema: "dgraph.type: string ." },
        error: "predicate dgraph.type is pre-defined and is not allowed to be modified",
      },
    ],
  },
  {
    name: "error: new predicates may not use the reserved dgraph. prefix",
    data: [
      { alter: { schema: "dgraph.foo: string ." }, error: "is prefixed with `dgraph.` which is reserved" },
    ],
  },

  // ---------------------------------------------------------------------------------------------
  // drops
  {
    name: "drop_all removes all data",
    schema: "name: string @index(exact) .",
    data: [{ set: '_:a <name> "Alice" .' }, { alter: { dropAll: true } }],
    query: "{ q(func: has(name)) { name } }",
    expected: { q: [] },
  },
  {
    name: "drop_all removes the user schema and keeps the pre-defined one",
    schema: "name: string @index(exact) .\ntype Person {\n  name\n}",
    data: [{ set: '_:a <name> "Alice" .' }, { alter: { dropAll: true } }],
    query: "schema {}",
    expected: fullSchema(),
  },
  {
    name: "drop_op DATA removes all data",
    schema: "name: string @index(exact) .",
    data: [{ set: '_:a <name> "Alice" .\n_:a <dgraph.type> "Person" .' }, { alter: { dropOp: "DATA" } }],
    query: "{ q(func: has(name)) { name } t(func: type(Person)) { uid } }",
    expected: { q: [], t: [] },
  },
  {
    name: "drop_op DATA keeps the schema, and its indexes serve new data",
    schema: "name: string @index(exact) .",
    data: [{ set: '_:a <name> "Alice" .' }, { alter: { dropOp: "DATA" } }, { set: '_:b <name> "Bob" .' }],
    query: '{ q(func: eq(name, "Bob")) { name } old(func: eq(name, "Alice")) { name } }',
    expected: { q: [{ name: "Bob" }], old: [] },
  },
  {
    name: "drop_op DATA leaves schema {} unchanged",
    schema: "name: string @index(exact) .\ntype Person {\n  name\n}",
    data: [{ set: '_:a <name> "Alice" .' }, { alter: { dropOp: "DATA" } }],
    query: "schema {}",
    expected: fullSchema(
      [{ predicate: "name", type: "string", index: true, tokenizer: ["exact"] }],
      [{ fields: [{ name: "name" }], name: "Person" }],
    ),
  },
  {
    name: "drop_attr removes one predicate's data and keeps the others",
    schema: "name: string .\nage: int .",
    data: [{ set: '_:a <name> "Alice" .\n_:a <age> "30" .' }, { alter: { dropAttr: "age" } }],
    query: "{ q(func: uid({{a}})) { name age } }",
    expected: { q: [{ name: "Alice" }] },
  },
  {
    name: "drop_attr removes the predicate from schema {}",
    schema: "name: string .\nage: int @index(int) .",
    data: [{ set: '_:a <age> "30" .' }, { alter: { dropAttr: "age" } }],
    query: "schema {}",
    expected: fullSchema([{ predicate: "name", type: "string" }]),
  },
  {
    name: "drop_op ATTR with drop_value is the same as drop_attr",
    schema: "name: string .\nage: int .",
    data: [
      { set: '_:a <name> "Alice" .\n_:a <age> "30" .' },
      { alter: { dropOp: "ATTR", dropValue: "name" } },
    ],
    query: "{ q(func: uid({{a}})) { name age } }",
    expected: { q: [{ age: 30 }] },
  },
  {
    name: "drop_op TYPE removes only the type definition",
    schema: "name: string .\ntype Person {\n  name\n}\ntype Other {\n  name\n}",
    data: [{ alter: { dropOp: "TYPE", dropValue: "Person" } }],
    query: "schema {}",
    expected: fullSchema(
      [{ predicate: "name", type: "string" }],
      [{ fields: [{ name: "name" }], name: "Other" }],
    ),
  },
  {
    name: "error: dgraph.type cannot be dropped",
    data: [
      {
        alter: { dropAttr: "dgraph.type" },
        error: "predicate dgraph.type is pre-defined and is not allowed to be dropped",
      },
    ],
  },

  // ---------------------------------------------------------------------------------------------
  // index builds on existing data
  {
    name: "adding a term index to a predicate with data builds it: allofterms finds old values",
    schema: "name: string .",
    data: [
      { set: '_:a <name> "Alice Smith" .\n_:b <name> "Bob Smith" .\n_:c <name> "Carol" .' },
      alter("name: string @index(term) ."),
    ],
    query: '{ q(func: allofterms(name, "smith")) { name } }',
    expected: { q: [{ name: "Alice Smith" }, { name: "Bob Smith" }] },
  },
  {
    name: "adding an int index to existing data serves range queries",
    schema: "age: int .",
    data: [{ set: '_:a <age> "20" .\n_:b <age> "30" .\n_:c <age> "40" .' }, alter("age: int @index(int) .")],
    query: "{ q(func: ge(age, 30)) { age } }",
    expected: { q: [{ age: 30 }, { age: 40 }] },
  },
  {
    name: "adding @reverse to existing edges makes ~pred traversable",
    schema: "name: string .\nfriend: [uid] .",
    data: [
      { set: '_:a <name> "A" .\n_:b <name> "B" .\n_:a <friend> _:b .' },
      alter("friend: [uid] @reverse ."),
    ],
    query: "{ q(func: uid({{b}})) { name ~friend { name } } }",
    expected: { q: [{ name: "B", "~friend": [{ name: "A" }] }] },
  },
  {
    name: "adding @count to existing edges serves eq(count(pred), n) at root",
    schema: "friend: [uid] .\nname: string .",
    data: [
      {
        set: '_:a <name> "A" .\n_:b <name> "B" .\n_:c <name> "C" .\n_:a <friend> _:b .\n_:a <friend> _:c .\n_:b <friend> _:c .',
      },
      alter("friend: [uid] @count ."),
    ],
    query: "{ q(func: eq(count(friend), 2)) { name } }",
    expected: { q: [{ name: "A" }] },
  },
  {
    name: "removing an index makes root eq fail again",
    schema: "name: string @index(exact) .",
    data: [{ set: '_:a <name> "Alice" .' }, alter("name: string .")],
    query: '{ q(func: eq(name, "Alice")) { name } }',
    errorExact: ": Predicate name is not indexed",
  },
  {
    name: "replacing a tokenizer rebuilds the index for the new one",
    schema: "name: string @index(exact) .",
    data: [{ set: '_:a <name> "Alice Smith" .' }, alter("name: string @index(term) .")],
    query: '{ q(func: anyofterms(name, "smith")) { name } }',
    expected: { q: [{ name: "Alice Smith" }] },
  },
];

describe("conformance: schema", () => {
  table(cases);
});
