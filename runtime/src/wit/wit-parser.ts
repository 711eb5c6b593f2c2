import { componentWit } from "@bytecodealliance/jco";
import { readAppWit } from "./app-wit-section.ts";
import type { AppWorld, WitField, WitFunction, WitPrimitive, WitType, WitTypeDef } from "./wit-types.ts";

/**
 * Reads the app model from the WIT a component carries (what `componentWit` prints for its root world),
 * so the GraphQL schema comes from the component itself and cannot drift from a second metadata file.
 * Supports world-level `record`, `enum`, `type` aliases and `export name: func(...)`; imports, `use`
 * and interface exports are skipped. Variants, flags and resources are rejected by name.
 */
export async function readAppWorld(componentBytes: Uint8Array): Promise<AppWorld> {
  const printedText = (await componentWit(componentBytes)) as string;
  // TypeScript builds keep records in an interface, which the printed world shows without fields; they
  // carry their package's WIT in a custom section. Its exports must be exactly the component's.
  const embedded = readAppWit(componentBytes);
  if (embedded === undefined) return parseWorldWit(printedText);
  const printed = parseWorldWit(printedText, { checkRefs: false });
  const world = parseWorldWit(embedded);
  const actual = printed.functions.map((f) => f.name).sort();
  const declared = world.functions.map((f) => f.name).sort();
  if (actual.join(",") !== declared.join(",")) {
    throw new WitParseError(
      `the component's embedded WIT declares exports [${declared.join(", ")}] but the component exports [${actual.join(", ")}]; rebuild the app`,
    );
  }
  return world;
}

const PRIMITIVES = new Set<WitPrimitive>([
  "bool",
  "s8",
  "s16",
  "s32",
  "s64",
  "u8",
  "u16",
  "u32",
  "u64",
  "f32",
  "f64",
  "char",
  "string",
]);

/** Older spellings of float types that wit-parser still accepts. */
const PRIMITIVE_ALIASES: Record<string, WitPrimitive> = { float32: "f32", float64: "f64" };

type TokenKind = "ident" | "punct" | "doc" | "number";

interface Token {
  kind: TokenKind;
  text: string;
  line: number;
  column: number;
}

export class WitParseError extends Error {
  constructor(message: string, token?: Token) {
    super(token ? `WIT line ${token.line} column ${token.column}: ${message}` : `WIT: ${message}`);
    this.name = "WitParseError";
  }
}

const TOKEN =
  /(\s+)|(\/\/\/[^\n]*)|(\/\/[^\n]*)|(\/\*[\s\S]*?\*\/)|(->)|(%?[A-Za-z_][A-Za-z0-9_-]*)|([0-9][0-9A-Za-z.+-]*)|([{}()<>,:;=.@/*])/y;

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let line = 1;
  let lineStart = 0;
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < text.length) {
    const start = TOKEN.lastIndex;
    const m = TOKEN.exec(text);
    const column = start - lineStart + 1;
    if (!m) {
      throw new WitParseError(`unexpected character ${JSON.stringify(text[start])}`, {
        kind: "punct",
        text: text[start],
        line,
        column,
      });
    }
    const [whole, space, doc, , , arrow, ident, number, punct] = m;
    if (doc !== undefined) tokens.push({ kind: "doc", text: doc.slice(3).replace(/^ /, ""), line, column });
    else if (arrow !== undefined || punct !== undefined)
      tokens.push({ kind: "punct", text: whole, line, column });
    else if (ident !== undefined) tokens.push({ kind: "ident", text: ident.replace(/^%/, ""), line, column });
    else if (number !== undefined) tokens.push({ kind: "number", text: number, line, column });
    if (space !== undefined || whole.includes("\n")) {
      for (let i = 0; i < whole.length; i++) {
        if (whole[i] === "\n") {
          line++;
          lineStart = start + i + 1;
        }
      }
    }
  }
  return tokens;
}

/** Parses printed world WIT into an `AppWorld` (see module doc for what is supported). */
export function parseWorldWit(text: string, options: { checkRefs?: boolean } = {}): AppWorld {
  return new WorldParser(tokenize(text)).parse(options.checkRefs ?? true);
}

class WorldParser {
  private pos = 0;
  private readonly types = new Map<string, WitTypeDef>();
  private readonly aliases = new Map<string, WitType>();
  private readonly functions: WitFunction[] = [];

  constructor(private readonly tokens: Token[]) {}

  parse(checkRefs: boolean): AppWorld {
    let sawWorld = false;
    while (!this.atEnd()) {
      this.takeDocs();
      if (this.atEnd()) break;
      const t = this.next();
      if (t.kind === "ident" && t.text === "package") this.skipStatement();
      else if (t.kind === "ident" && t.text === "world") {
        if (sawWorld) throw new WitParseError("more than one world in the WIT", t);
        sawWorld = true;
        this.expectIdent();
        this.expect("{");
        this.parseWorldBody();
      } else if (t.kind === "ident" && t.text === "interface") {
        // An app package's own `interface types { record … }` (TypeScript builds keep types there).
        this.expectIdent();
        this.expect("{");
        this.parseWorldBody(true);
      } else if (t.kind === "ident" && t.text === "use") {
        this.skipStatement();
      } else throw new WitParseError(`unexpected ${JSON.stringify(t.text)} at top level`, t);
    }
    if (!sawWorld) throw new WitParseError("no world found");
    if (!checkRefs) return { types: this.types, functions: this.functions };
    for (const fn of this.functions) {
      for (const p of fn.params) this.checkRefs(p.type, `parameter ${p.name} of export ${fn.name}`);
      if (fn.result) this.checkRefs(fn.result, `result of export ${fn.name}`);
    }
    for (const def of this.types.values()) {
      if (def.kind === "record")
        for (const f of def.fields) this.checkRefs(f.type, `field ${f.name} of record ${def.name}`);
    }
    return { types: this.types, functions: this.functions };
  }

  /** A world body, or with `inInterface` an interface body (its types count; its functions do not). */
  private parseWorldBody(inInterface = false): void {
    for (;;) {
      const docs = this.takeDocs();
      const t = this.next();
      if (t.text === "}") return;
      if (t.kind !== "ident") throw new WitParseError(`unexpected ${JSON.stringify(t.text)} in world`, t);
      if (inInterface && this.peek()?.text === ":") {
        this.skipStatement();
        continue;
      }
      switch (t.text) {
        case "import":
        case "use":
        case "include":
          this.skipStatement();
          break;
        case "export":
          this.parseExport(t, docs);
          break;
        case "record":
          this.parseRecord(docs);
          break;
        case "enum":
          this.parseEnum(docs);
          break;
        case "type": {
          const name = this.expectIdent();
          this.expect("=");
          this.aliases.set(name.text, this.parseType());
          this.expect(";");
          break;
        }
        case "variant":
        case "flags":
        case "resource":
        case "union": {
          const name = this.peek();
          throw new WitParseError(
            `${t.text} ${name?.text ?? ""} is not supported: use records, enums, option and result`,
            t,
          );
        }
        default:
          throw new WitParseError(`unexpected ${JSON.stringify(t.text)} in world`, t);
      }
    }
  }

  private parseExport(exportToken: Token, docs: string | undefined): void {
    const name = this.next();
    const colon = this.peek();
    // `export wasi:cli/run@0.2.0;` or `export pkg:ns/iface;`: an interface export, not an app function.
    if (
      name.kind !== "ident" ||
      colon?.text !== ":" ||
      this.peek(1)?.kind !== "ident" ||
      this.isPackagePath()
    ) {
      this.skipStatement();
      return;
    }
    this.expect(":");
    const kind = this.next();
    if (kind.text === "interface") {
      this.skipStatement();
      return;
    }
    if (kind.text === "async") throw new WitParseError(`async export ${name.text} is not supported`, kind);
    if (kind.text !== "func") throw new WitParseError(`export ${name.text}: expected func`, kind);
    this.expect("(");
    const params = this.parseFields(")", `export ${name.text}`);
    let result: WitType | undefined;
    if (this.peek()?.text === "->") {
      this.next();
      if (this.peek()?.text === "(") {
        throw new WitParseError(`export ${name.text}: named results are not supported`, this.peek());
      }
      result = this.parseType();
    }
    this.expect(";");
    if (isQuickJsInit(name.text, params)) return;
    if (this.functions.some((f) => f.name === name.text)) {
      throw new WitParseError(`export ${name.text} is declared twice`, exportToken);
    }
    this.functions.push({
      name: name.text,
      params,
      ...(result ? { result } : {}),
      ...(docs ? { docs } : {}),
    });
  }

  /** After `export name`, true when the tokens read `name:ns/iface` (a package path, not a func). */
  private isPackagePath(): boolean {
    return this.peek(2)?.text === "/";
  }

  private parseRecord(docs: string | undefined): void {
    const name = this.expectIdent();
    this.expect("{");
    const fields = this.parseFields("}", `record ${name.text}`);
    this.define({ kind: "record", name: name.text, fields, ...(docs ? { docs } : {}) }, name);
  }

  private parseEnum(docs: string | undefined): void {
    const name = this.expectIdent();
    this.expect("{");
    const cases: string[] = [];
    for (;;) {
      this.takeDocs();
      if (this.peek()?.text === "}") {
        this.next();
        break;
      }
      cases.push(this.expectIdent().text);
      if (this.peek()?.text === ",") this.next();
    }
    this.define({ kind: "enum", name: name.text, cases, ...(docs ? { docs } : {}) }, name);
  }

  private define(def: WitTypeDef, at: Token): void {
    if (this.types.has(def.name) || this.aliases.has(def.name)) {
      throw new WitParseError(`type ${def.name} is declared twice`, at);
    }
    this.types.set(def.name, def);
  }

  /** `name: type` pairs separated by commas, up to `close`, with their doc comments. */
  private parseFields(close: string, owner: string): WitField[] {
    const fields: WitField[] = [];
    for (;;) {
      const docs = this.takeDocs();
      if (this.peek()?.text === close) {
        this.next();
        return fields;
      }
      const name = this.expectIdent();
      this.expect(":");
      const type = this.parseType();
      if (fields.some((f) => f.name === name.text)) {
        throw new WitParseError(`${owner}: ${name.text} appears twice`, name);
      }
      fields.push({ name: name.text, type, ...(docs ? { docs } : {}) });
      const sep = this.next();
      if (sep.text === close) return fields;
      if (sep.text !== ",") throw new WitParseError(`${owner}: expected "," or "${close}"`, sep);
    }
  }

  private parseType(): WitType {
    const t = this.next();
    if (t.kind !== "ident") throw new WitParseError(`expected a type, found ${JSON.stringify(t.text)}`, t);
    const name = t.text;
    if (PRIMITIVES.has(name as WitPrimitive)) return { kind: "prim", name: name as WitPrimitive };
    if (name in PRIMITIVE_ALIASES) return { kind: "prim", name: PRIMITIVE_ALIASES[name] };
    switch (name) {
      case "list": {
        this.expect("<");
        const of = this.parseType();
        if (this.peek()?.text === ",")
          throw new WitParseError("fixed-size lists are not supported", this.peek());
        this.expect(">");
        return { kind: "list", of };
      }
      case "option": {
        this.expect("<");
        const of = this.parseType();
        this.expect(">");
        return { kind: "option", of };
      }
      case "result": {
        if (this.peek()?.text !== "<") return { kind: "result" };
        this.next();
        const ok = this.parseOptionalType();
        let err: WitType | undefined;
        if (this.peek()?.text === ",") {
          this.next();
          err = this.parseType();
        }
        this.expect(">");
        return { kind: "result", ...(ok ? { ok } : {}), ...(err ? { err } : {}) };
      }
      case "tuple": {
        this.expect("<");
        const of: WitType[] = [this.parseType()];
        while (this.peek()?.text === ",") {
          this.next();
          of.push(this.parseType());
        }
        this.expect(">");
        return { kind: "tuple", of };
      }
      case "own":
      case "borrow":
        throw new WitParseError(`resource handle ${name}<...> is not supported`, t);
      case "future":
      case "stream":
      case "error-context":
        throw new WitParseError(`${name} is not supported (component-model async)`, t);
      default: {
        const alias = this.aliases.get(name);
        return alias ?? { kind: "ref", name };
      }
    }
  }

  /** The ok side of `result<_, E>` is written `_`. */
  private parseOptionalType(): WitType | undefined {
    if (this.peek()?.text === "_") {
      this.next();
      return undefined;
    }
    return this.parseType();
  }

  private checkRefs(type: WitType, where: string): void {
    switch (type.kind) {
      case "prim":
        return;
      case "list":
      case "option":
        this.checkRefs(type.of, where);
        return;
      case "result":
        if (type.ok) this.checkRefs(type.ok, where);
        if (type.err) this.checkRefs(type.err, where);
        return;
      case "tuple":
        for (const t of type.of) this.checkRefs(t, where);
        return;
      case "ref":
        if (!this.types.has(type.name)) {
          throw new WitParseError(
            `${where} uses type ${type.name}, which is not a record or enum declared in the world ` +
              "(types `use`d from an interface are not visible: declare app types in the world)",
          );
        }
    }
  }

  /** Skips to the end of the current statement: a `;` or a balanced `{ ... }` block. */
  private skipStatement(): void {
    let depth = 0;
    while (!this.atEnd()) {
      const t = this.next();
      if (t.text === "{") depth++;
      else if (t.text === "}") {
        depth--;
        if (depth === 0) {
          // `use pkg.{a, b};` ends with `;` after the braces, `import x: interface { }` does not.
          if (this.peek()?.text === ";") this.next();
          return;
        }
      } else if (t.text === ";" && depth === 0) return;
    }
  }

  private takeDocs(): string | undefined {
    const lines: string[] = [];
    while (this.peek()?.kind === "doc") lines.push(this.next().text);
    return lines.length > 0 ? lines.join("\n") : undefined;
  }

  private atEnd(): boolean {
    return this.pos >= this.tokens.length;
  }

  private peek(ahead = 0): Token | undefined {
    return this.tokens[this.pos + ahead];
  }

  private next(): Token {
    const t = this.tokens[this.pos];
    if (!t) {
      const last = this.tokens[this.tokens.length - 1];
      throw new WitParseError("unexpected end of WIT", last);
    }
    this.pos++;
    return t;
  }

  private expect(text: string): Token {
    const t = this.next();
    if (t.text !== text) throw new WitParseError(`expected "${text}", found ${JSON.stringify(t.text)}`, t);
    return t;
  }

  private expectIdent(): Token {
    const t = this.next();
    if (t.kind !== "ident") throw new WitParseError(`expected a name, found ${JSON.stringify(t.text)}`, t);
    return t;
  }
}

/** componentize-qjs adds `init: func(shim: string, script: string, ...)` after Wizer; it is not app API. */
function isQuickJsInit(name: string, params: WitField[]): boolean {
  return name === "init" && params[0]?.name === "shim" && params[1]?.name === "script";
}
