/**
 * JSON text decoded as Go's `json.Unmarshal` decodes it for Dgraph's /mutate handler: the same syntax-error
 * texts at the same positions, Go's nesting limit, and numbers that keep how they were written.
 *
 * Integers and floats: `JSON.parse` turns `1.0` into `1`, which would make `{"w": 1.0}` an int and
 * `{"w": 0.0}` in a delete a value instead of `S P *`. {@link parseJsonText} keeps such numbers as
 * {@link JsonFloat}.
 */
import { DgraphError } from "../core/errors.ts";

/** A JSON number written with a fraction or exponent whose value is integral (`1.0`, `0.0`, `2e3`). */
export class JsonFloat {
  constructor(readonly value: number) {}
  valueOf(): number {
    return this.value;
  }
  toJSON(): number {
    return this.value;
  }
}

/** A decoded JSON object. */
export type JsonMap = Record<string, unknown>;

/** Go's limit on nesting (`encoding/json` maxNestingDepth). */
const MAX_JSON_DEPTH = 10000;

/**
 * Parses JSON text like Go's `json.Unmarshal` (used by Dgraph's /mutate handler). Integral numbers written
 * with a fraction or exponent come back as {@link JsonFloat}. Syntax errors throw a DgraphError in Dgraph's
 * form `Error parsing JSON at line L, character C: <Go message>\n`.
 */
export function parseJsonText(text: string): unknown {
  const steps = new JsonTextParser(text).steps();
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * {@link parseJsonText} for long texts: awaits `pace` every few thousand values, so that a caller may give
 * the event loop back (a 16 MiB mutation body takes a few hundred milliseconds to read).
 */
export async function parseJsonTextSliced(text: string, pace: () => Promise<void>): Promise<unknown> {
  const steps = new JsonTextParser(text).steps();
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    await pace();
  }
}

/** Values read between two chances to pause. */
const VALUES_PER_STEP = 2048;

type Frame = { array: unknown[]; object: null; key: "" } | { array: null; object: JsonMap; key: string };

class JsonTextParser {
  private pos = 0;

  constructor(private readonly text: string) {}

  /** Parses the text, yielding every VALUES_PER_STEP values; returns the decoded value. */
  *steps(): Generator<void, unknown, void> {
    const text = this.text;
    const stack: Frame[] = [];
    let values = 0;
    this.skipSpace();
    for (;;) {
      if (++values === VALUES_PER_STEP) {
        values = 0;
        yield;
      }
      // A value starts at pos.
      let value: unknown;
      const c = this.peek();
      if (c === 123 /* { */ || c === 91 /* [ */) {
        if (stack.length >= MAX_JSON_DEPTH) this.fail(this.pos, "exceeded max depth");
        this.pos++;
        this.skipSpace();
        if (c === 91) {
          if (this.peek() !== 93) {
            stack.push({ array: [], object: null, key: "" });
            continue;
          }
          this.pos++;
          value = [];
        } else {
          if (this.peek() !== 125) {
            stack.push({ array: null, object: {}, key: this.objectKey() });
            continue;
          }
          this.pos++;
          value = {};
        }
      } else if (c === 34) {
        value = this.string();
      } else if (c === 116) {
        value = this.word("true", true);
      } else if (c === 102) {
        value = this.word("false", false);
      } else if (c === 110) {
        value = this.word("null", null);
      } else if (c === 45 || (c >= 48 && c <= 57)) {
        value = this.number();
      } else {
        this.fail(this.pos, "looking for beginning of value");
      }

      // Hand the value to its container; close containers that end here.
      for (;;) {
        const top = stack[stack.length - 1];
        if (top === undefined) {
          this.skipSpace();
          if (this.pos < text.length) this.fail(this.pos, "after top-level value");
          return value;
        }
        if (top.array !== null) top.array.push(value);
        else setKey(top.object, top.key, value);
        this.skipSpace();
        const d = this.peek();
        this.pos++;
        if (d === 44 /* , */) {
          this.skipSpace();
          if (top.array === null) top.key = this.objectKey();
          break;
        }
        if (top.array !== null ? d === 93 : d === 125) {
          stack.pop();
          value = top.array ?? top.object;
          continue;
        }
        this.fail(this.pos - 1, top.array !== null ? "after array element" : "after object key:value pair");
      }
    }
  }

  /** `"key"` then `:`; leaves pos at the value. */
  private objectKey(): string {
    if (this.peek() !== 34) {
      this.fail(this.pos, "looking for beginning of object key string");
    }
    const key = this.string();
    this.skipSpace();
    if (this.peek() !== 58) this.fail(this.pos, "after object key");
    this.pos++;
    this.skipSpace();
    return key;
  }

  private skipSpace(): void {
    const text = this.text;
    for (;;) {
      const c = text.charCodeAt(this.pos);
      if (c === 32 || c === 10 || c === 13 || c === 9) this.pos++;
      else return;
    }
  }

  /** The character code at pos; at the end of input, Go's `unexpected end of JSON input`. */
  private peek(): number {
    if (this.pos >= this.text.length) this.eof();
    return this.text.charCodeAt(this.pos);
  }

  private string(): string {
    const text = this.text;
    const start = this.pos++;
    let escaped = false;
    for (;;) {
      const c = this.peek();
      if (c === 34) break;
      if (c === 92) {
        escaped = true;
        this.pos++;
        const e = this.peek();
        if (e === 117) {
          for (let i = 0; i < 4; i++) {
            this.pos++;
            const h = this.peek() | 0x20;
            if (!((h >= 48 && h <= 57) || (h >= 97 && h <= 102)))
              this.fail(this.pos, "in \\u hexadecimal character escape");
          }
        } else if (
          !(e === 34 || e === 92 || e === 47 || e === 98 || e === 102 || e === 110 || e === 114 || e === 116)
        ) {
          this.fail(this.pos, "in string escape code");
        }
      } else if (c < 32) {
        this.fail(this.pos, "in string literal");
      }
      this.pos++;
    }
    this.pos++;
    return escaped
      ? (JSON.parse(text.slice(start, this.pos)) as string)
      : text.slice(start + 1, this.pos - 1);
  }

  private word<T>(word: string, value: T): T {
    for (let i = 0; i < word.length; i++) {
      const c = this.peek();
      if (c !== word.charCodeAt(i)) this.fail(this.pos, `in literal ${word} (expecting '${word[i]}')`);
      this.pos++;
    }
    return value;
  }

  private digits(): void {
    const text = this.text;
    let c = text.charCodeAt(this.pos);
    while (c >= 48 && c <= 57) c = text.charCodeAt(++this.pos);
  }

  private isDigitAt(): boolean {
    const c = this.peek();
    return c >= 48 && c <= 57;
  }

  private number(): number | JsonFloat {
    const text = this.text;
    const start = this.pos;
    let float = false;
    if (text.charCodeAt(this.pos) === 45) {
      this.pos++;
      if (!this.isDigitAt()) this.fail(this.pos, "in numeric literal");
    }
    if (text.charCodeAt(this.pos) === 48) this.pos++;
    else this.digits();
    if (text.charCodeAt(this.pos) === 46) {
      float = true;
      this.pos++;
      if (!this.isDigitAt()) this.fail(this.pos, "after decimal point in numeric literal");
      this.digits();
    }
    const e = text.charCodeAt(this.pos);
    if (e === 101 || e === 69) {
      float = true;
      this.pos++;
      const s = this.peek();
      if (s === 43 || s === 45) this.pos++;
      if (!this.isDigitAt()) this.fail(this.pos, "in exponent of numeric literal");
      this.digits();
    }
    const value = Number(text.slice(start, this.pos));
    return float && Number.isInteger(value) ? new JsonFloat(value) : value;
  }

  private eof(): never {
    throw jsonError(this.text, Buffer.byteLength(this.text), "unexpected end of JSON input");
  }

  /** Go's `invalid character 'x' <context>` at string index `at` (offset: bytes up to and including it). */
  private fail(at: number, context: string): never {
    const ch = String.fromCodePoint(this.text.codePointAt(at) ?? 0);
    const offset = Buffer.byteLength(this.text.slice(0, at)) + 1;
    throw jsonError(this.text, offset, `invalid character ${goQuoteChar(ch)} ${context}`);
  }
}

/** Own enumerable property, even for `__proto__` (as `JSON.parse` does). */
function setKey(object: JsonMap, key: string, value: unknown): void {
  if (key === "__proto__") {
    Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
  } else {
    object[key] = value;
  }
}

/** Go's `quoteChar` in `encoding/json` scanner errors. */
function goQuoteChar(c: string): string {
  if (c === "'") return "'\\''";
  if (c === '"') return "'\"'";
  const quoted = JSON.stringify(c).slice(1, -1);
  return `'${quoted}'`;
}

/**
 * Dgraph's `convertJSONError`: `Error parsing JSON at line L, character C: <message>\n`, where Dgraph walks
 * the input by runes and stops at the rune starting at byte `offset` (so C is one past Go's column).
 */
export function jsonError(input: string, offset: number, message: string): DgraphError {
  let line = 1;
  let character = 0;
  let byteIndex = 0;
  for (const ch of input) {
    if (ch === "\n") {
      line++;
      character = 0;
    }
    character++;
    if (byteIndex === offset) break;
    const cp = ch.codePointAt(0) ?? 0;
    byteIndex += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
  }
  return new DgraphError(`Error parsing JSON at line ${line}, character ${character}: ${message}\n`);
}
