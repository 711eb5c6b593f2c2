/**
 * JSON decoding with Go `encoding/json` semantics, for request bodies Dgraph decodes with `json.Unmarshal`:
 * the same syntax-error texts (`invalid character 'x' looking for beginning of value`, `unexpected end of
 * JSON input`) at the same byte offsets, type-error texts (`json: cannot unmarshal number into Go value of
 * type string`), and access to each value's raw text (Go's `json.RawMessage`).
 */
import { jsonError } from "../mutation/json-text-parser.ts";

export type GoJsonValue =
  | { kind: "object"; entries: [string, GoJsonValue][]; start: number; end: number }
  | { kind: "array"; items: GoJsonValue[]; start: number; end: number }
  | { kind: "string"; value: string; start: number; end: number }
  | { kind: "number"; text: string; start: number; end: number }
  | { kind: "bool"; value: boolean; start: number; end: number }
  | { kind: "null"; start: number; end: number };

/** Go's `*json.SyntaxError` / `*json.UnmarshalTypeError`: message plus byte offset into the input. */
export class GoJsonError extends Error {
  constructor(
    message: string,
    /** Byte offset as Go reports it (bytes consumed when the error was detected). */
    readonly offset: number,
    readonly kind: "syntax" | "type",
  ) {
    super(message);
    this.name = "GoJsonError";
  }
}

const isSpace = (c: string) => c === " " || c === "\t" || c === "\r" || c === "\n";
const isDigit = (c: string) => c >= "0" && c <= "9";
const isHex = (c: string) => isDigit(c) || (c >= "a" && c <= "f") || (c >= "A" && c <= "F");

/** Go's `quoteChar`: how the scanner names an offending character. */
function quoteChar(c: string): string {
  if (c === "'") return "'\\''";
  if (c === '"') return "'\"'";
  const code = c.codePointAt(0) ?? 0;
  const named: Record<string, string> = {
    "\x07": "\\a",
    "\b": "\\b",
    "\f": "\\f",
    "\n": "\\n",
    "\r": "\\r",
    "\t": "\\t",
    "\v": "\\v",
    "\\": "\\\\",
  };
  if (named[c] !== undefined) return `'${named[c]}'`;
  if (code < 0x20 || code === 0x7f) return `'\\x${code.toString(16).padStart(2, "0")}'`;
  return `'${c}'`;
}

/** Parses `text` like Go's `json.Unmarshal` validity check; offsets in the result are string indices. */
export function parseGoJson(text: string): GoJsonValue {
  const parser = new Parser(text);
  return parser.parseDocument();
}

/** Go's encoding/json nesting limit. */
const MAX_DEPTH = 10_000;

type Container = GoJsonValue & { kind: "object" | "array" };

class Parser {
  private pos = 0;
  private depth = 0;
  constructor(private readonly text: string) {}

  parseDocument(): GoJsonValue {
    this.skipSpace();
    const value = this.parseValue("looking for beginning of value");
    this.skipSpace();
    if (this.pos < this.text.length) this.fail(this.pos, "after top-level value");
    return value;
  }

  private skipSpace(): void {
    while (this.pos < this.text.length && isSpace(this.text[this.pos])) this.pos++;
  }

  /** Reports the character at `index` as Go does (offset = bytes up to and including it). */
  private fail(index: number, context: string): never {
    const ch = String.fromCodePoint(this.text.codePointAt(index) ?? 0);
    throw new GoJsonError(
      `invalid character ${quoteChar(ch)} ${context}`,
      Buffer.byteLength(this.text.slice(0, index)) + 1,
      "syntax",
    );
  }

  private eof(): never {
    throw new GoJsonError("unexpected end of JSON input", Buffer.byteLength(this.text), "syntax");
  }

  private peek(): string {
    if (this.pos >= this.text.length) this.eof();
    return this.text[this.pos];
  }

  /**
   * One value. Iterative, with an explicit stack of the open objects and arrays, so nesting up to Go's
   * limit (10,000) never overflows the call stack.
   */
  private parseValue(context: string): GoJsonValue {
    const open: Container[] = [];
    /** The key each open object is reading the value of. */
    const keys: string[] = [];
    let expecting = context;
    for (;;) {
      const c = this.peek();
      const start = this.pos;
      let value: GoJsonValue;
      if (c === "{" || c === "[") {
        if (++this.depth > MAX_DEPTH) this.fail(this.pos, "exceeded max depth");
        this.pos++;
        this.skipSpace();
        const container: Container =
          c === "{"
            ? { kind: "object", entries: [], start, end: 0 }
            : { kind: "array", items: [], start, end: 0 };
        if (this.peek() !== (c === "{" ? "}" : "]")) {
          open.push(container);
          if (container.kind === "object") keys.push(this.parseKey());
          expecting = "looking for beginning of value";
          continue;
        }
        this.pos++;
        this.depth--;
        container.end = this.pos;
        value = container;
      } else {
        value = this.parseScalar(c, start, expecting);
      }
      // Hand the value to its container, closing every container that ends after it.
      for (;;) {
        const top = open[open.length - 1];
        if (top === undefined) return value;
        if (top.kind === "array") top.items.push(value);
        else top.entries.push([keys[keys.length - 1], value]);
        this.skipSpace();
        const d = this.peek();
        this.pos++;
        if (d === (top.kind === "array" ? "]" : "}")) {
          this.depth--;
          top.end = this.pos;
          open.pop();
          if (top.kind === "object") keys.pop();
          value = top;
          continue;
        }
        if (d !== ",")
          this.fail(
            this.pos - 1,
            top.kind === "array" ? "after array element" : "after object key:value pair",
          );
        if (top.kind === "object") keys[keys.length - 1] = this.parseKey();
        else this.skipSpace();
        expecting = "looking for beginning of value";
        break;
      }
    }
  }

  /** `"key":` and the space after it, inside an object. */
  private parseKey(): string {
    this.skipSpace();
    if (this.peek() !== '"') this.fail(this.pos, "looking for beginning of object key string");
    const key = this.parseString();
    this.skipSpace();
    if (this.peek() !== ":") this.fail(this.pos, "after object key");
    this.pos++;
    this.skipSpace();
    return key;
  }

  private parseScalar(c: string, start: number, context: string): GoJsonValue {
    switch (c) {
      case '"':
        return { kind: "string", value: this.parseString(), start, end: this.pos };
      case "t":
        this.parseLiteral("true");
        return { kind: "bool", value: true, start, end: this.pos };
      case "f":
        this.parseLiteral("false");
        return { kind: "bool", value: false, start, end: this.pos };
      case "n":
        this.parseLiteral("null");
        return { kind: "null", start, end: this.pos };
      default:
        if (c === "-" || isDigit(c)) return this.parseNumber();
        return this.fail(this.pos, context);
    }
  }

  private parseString(): string {
    const start = this.pos++;
    for (;;) {
      const c = this.peek();
      if (c === '"') {
        this.pos++;
        break;
      }
      if (c === "\\") {
        this.pos++;
        const e = this.peek();
        if (e === "u") {
          for (let i = 0; i < 4; i++) {
            this.pos++;
            if (!isHex(this.peek())) this.fail(this.pos, "in \\u hexadecimal character escape");
          }
        } else if (!'"\\/bfnrt'.includes(e)) {
          this.fail(this.pos, "in string escape code");
        }
        this.pos++;
        continue;
      }
      if (c < " ") this.fail(this.pos, "in string literal");
      this.pos++;
    }
    return JSON.parse(this.text.slice(start, this.pos)) as string;
  }

  private parseLiteral(word: "true" | "false" | "null"): void {
    for (let i = 0; i < word.length; i++) {
      const c = this.peek();
      if (c !== word[i]) this.fail(this.pos, `in literal ${word} (expecting '${word[i]}')`);
      this.pos++;
    }
  }

  private parseNumber(): GoJsonValue {
    const start = this.pos;
    if (this.peek() === "-") {
      this.pos++;
      if (!isDigit(this.peek())) this.fail(this.pos, "in numeric literal");
    }
    if (this.text[this.pos] === "0") this.pos++;
    else while (this.pos < this.text.length && isDigit(this.text[this.pos])) this.pos++;
    if (this.text[this.pos] === ".") {
      this.pos++;
      if (!isDigit(this.peek())) this.fail(this.pos, "after decimal point in numeric literal");
      while (this.pos < this.text.length && isDigit(this.text[this.pos])) this.pos++;
    }
    if (this.text[this.pos] === "e" || this.text[this.pos] === "E") {
      this.pos++;
      if (this.peek() === "+" || this.peek() === "-") this.pos++;
      if (!isDigit(this.peek())) this.fail(this.pos, "in exponent of numeric literal");
      while (this.pos < this.text.length && isDigit(this.text[this.pos])) this.pos++;
    }
    return { kind: "number", text: this.text.slice(start, this.pos), start, end: this.pos };
  }
}

/** Go's name for a JSON value kind in `cannot unmarshal <kind> into ...`. */
function kindName(value: GoJsonValue): string {
  return value.kind === "bool" ? "bool" : value.kind;
}

/** A Go `UnmarshalTypeError` for `value` decoded into the Go type `goType`. */
export function typeError(text: string, value: GoJsonValue, goType: string, field?: string): GoJsonError {
  const into =
    field === undefined ? `Go value of type ${goType}` : `Go struct field ${field} of type ${goType}`;
  // Go reports the offset after the literal, or just inside an object/array.
  const end = value.kind === "object" || value.kind === "array" ? value.start + 1 : value.end;
  return new GoJsonError(
    `json: cannot unmarshal ${kindName(value)} into ${into}`,
    Buffer.byteLength(text.slice(0, end)),
    "type",
  );
}

/** The raw JSON text of a value (Go's `json.RawMessage`). */
export function rawText(text: string, value: GoJsonValue): string {
  return text.slice(value.start, value.end);
}

/**
 * Dgraph's `convertJSONError` text: `Error parsing JSON at line L, character C: <go error>\n` (formatted by
 * the mutation module, which shares it with the JSON mutation parser).
 */
export function dgraphJsonErrorText(input: string, error: GoJsonError): string {
  return jsonError(input, error.offset, error.message).message;
}

/** Looks up a struct field the way Go does: exact key first, then case-insensitive; the last match wins. */
export function structField(value: GoJsonValue & { kind: "object" }, name: string): GoJsonValue | undefined {
  let found: GoJsonValue | undefined;
  const lower = name.toLowerCase();
  for (const [key, v] of value.entries) if (key.toLowerCase() === lower) found = v;
  return found;
}

/** Looks up a map key (exact match; the last duplicate wins, as in Go). */
export function mapEntry(value: GoJsonValue & { kind: "object" }, key: string): GoJsonValue | undefined {
  let found: GoJsonValue | undefined;
  for (const [k, v] of value.entries) if (k === key) found = v;
  return found;
}

/** Span of one value inside a JSON text (`text.slice(start, end)` is its raw JSON). */
export interface RawSpan {
  start: number;
  end: number;
}

function skipSpace(text: string, pos: number): number {
  while (pos < text.length && isSpace(text[pos])) pos++;
  return pos;
}

/** End of the value starting at `pos` in text already known to be valid JSON (no validation here). */
function skipValue(text: string, pos: number): number {
  let depth = 0;
  for (let i = pos; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      for (i++; text.charCodeAt(i) !== 34; i++) if (text.charCodeAt(i) === 92 /* \ */) i++;
      if (depth === 0) return i + 1;
    } else if (c === 123 || c === 91 /* { [ */) {
      depth++;
    } else if (c === 125 || c === 93 /* } ] */) {
      if (--depth === 0) return i + 1;
      if (depth < 0) return i;
    } else if (depth === 0 && (c === 44 || c === 32 || c === 9 || c === 10 || c === 13) /* , ws */) {
      return i;
    }
  }
  return text.length;
}

/**
 * The members of the object starting at `pos`, as raw spans, for text already validated (for example by
 * `JSON.parse`). Much cheaper than `parseGoJson` on large mutation bodies; the last duplicate key wins.
 */
export function objectMembers(text: string, pos: number): Map<string, RawSpan> {
  const members = new Map<string, RawSpan>();
  let i = skipSpace(text, pos + 1);
  if (text[i] === "}") return members;
  for (;;) {
    const keyEnd = skipValue(text, i);
    const key = JSON.parse(text.slice(i, keyEnd)) as string;
    const start = skipSpace(text, skipSpace(text, keyEnd) + 1);
    const end = skipValue(text, start);
    members.set(key, { start, end });
    i = skipSpace(text, end);
    if (text[i] === "}") return members;
    i = skipSpace(text, i + 1);
  }
}

/** The items of the array starting at `pos`, as raw spans, for already-validated text. */
export function arrayItems(text: string, pos: number): RawSpan[] {
  const items: RawSpan[] = [];
  let i = skipSpace(text, pos + 1);
  if (text[i] === "]") return items;
  for (;;) {
    const end = skipValue(text, i);
    items.push({ start: i, end });
    i = skipSpace(text, end);
    if (text[i] === "]") return items;
    i = skipSpace(text, i + 1);
  }
}
