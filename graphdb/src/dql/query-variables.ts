/**
 * GraphQL-style query variables: `query q($a: string = "x", $n: int!) { ... }` plus the request's
 * `variables` map. Values are substituted at parse time, with Dgraph's checks and texts.
 */
import {
  goParseBool,
  goParseFloat,
  goParseInt,
  goParseUint,
  type NumberFailure,
  numErrorText,
} from "../types/strconv.ts";
import type { QueryVariableDefinition } from "./ast.ts";
import type { DqlSyntaxError } from "./errors.ts";
import { unquote } from "./lexer.ts";
import { describeToken, locationOf, plainError, type TokenStream } from "./token-stream.ts";

interface VariableEntry {
  value: string;
  /** Declared type including a trailing `!`; "" when supplied but not declared. */
  type: string;
}

/** Supplied and declared variables by name (`$a`). */
export class VariableMap {
  private readonly entries = new Map<string, VariableEntry>();
  readonly definitions: QueryVariableDefinition[] = [];

  constructor(supplied: Record<string, string> | undefined) {
    if (supplied === undefined) return;
    for (const name of Object.keys(supplied)) {
      const value = supplied[name];
      this.entries.set(name, { value: typeof value === "string" ? value : String(value), type: "" });
    }
  }

  get size(): number {
    return this.entries.size;
  }

  /** The value of a declared (or typed) variable; throws `Variable not defined $x` otherwise. */
  valueOf(name: string): string {
    const entry = this.entries.get(name);
    if (entry === undefined || entry.type === "") throw plainError(`Variable not defined ${name}`);
    return entry.value;
  }

  /** The value of a variable known by name, typed or not (uid($v) in filters); throws otherwise. */
  rawValueOf(name: string): string {
    const entry = this.entries.get(name);
    if (entry === undefined) throw plainError(`Couldn't find value for DQL variable: [${name}]`);
    return entry.value;
  }

  /** The declared type (with `!`), "" if undeclared, undefined if unknown. */
  typeOf(name: string): string | undefined {
    return this.entries.get(name)?.type;
  }

  /** Parses `$a: type = default, ...)` after the `(` of a named query. */
  parseDefinitions(ts: TokenStream): void {
    const first = ts.peek();
    if (first !== undefined && first.kind === "RightRound") {
      ts.next();
      return;
    }
    let expectArg = true;
    while (ts.next()) {
      let item = ts.item;
      let name: string;
      switch (item.kind) {
        case "Dollar":
          if (!expectArg) throw ts.errorAt(item, "Missing comma in var declaration");
          ts.next();
          item = ts.item;
          if (item.kind !== "Name") {
            throw ts.errorAt(item, `Expecting a variable name. Got: ${describeToken(item)}`);
          }
          name = `$${item.value}`;
          break;
        case "RightRound":
          if (expectArg) throw ts.errorAt(item, "Invalid comma in var block");
          return;
        case "Comma":
          if (expectArg) throw ts.errorAt(item, "Invalid comma in var block");
          expectArg = true;
          continue;
        default:
          throw ts.errorAt(item, `Unexpected item in place of variable. Got: ${describeToken(item)} false`);
      }
      const nameToken = item;
      ts.next();
      item = ts.item;
      if (item.kind !== "Colon") throw ts.errorAt(item, `Expecting a colon. Got: ${describeToken(item)}`);
      ts.next();
      item = ts.item;
      if (item.kind !== "Name")
        throw ts.errorAt(item, `Expecting a variable type. Got: ${describeToken(item)}`);
      let type = item.value;
      ts.next();
      item = ts.item;
      if (item.kind === "MathOp" && item.value === "!") {
        type += "!";
        ts.next();
        item = ts.item;
      }
      const entry: VariableEntry = { value: this.entries.get(name)?.value ?? "", type };
      this.entries.set(name, entry);
      let defaultValue: string | undefined;
      let done = false;
      switch (item.kind) {
        case "Equal": {
          ts.next();
          const value = ts.item;
          if (value.kind !== "Name") {
            throw ts.errorAt(item, `Expecting default value of a variable. Got: ${describeToken(item)}`);
          }
          if (type.endsWith("!")) {
            throw ts.errorAt(item, `Type ending with ! can't have default value: Got: ${type}`);
          }
          defaultValue = unquote(value.value);
          if (entry.value === "") entry.value = defaultValue;
          break;
        }
        case "RightRound":
          done = true;
          break;
        default:
          ts.prev();
      }
      this.define(name, entry, defaultValue, locationOf(nameToken));
      if (done) return;
      expectArg = false;
    }
  }

  private define(
    name: string,
    entry: VariableEntry,
    defaultValue: string | undefined,
    loc: QueryVariableDefinition["loc"],
  ): void {
    const required = entry.type.endsWith("!");
    const def: QueryVariableDefinition = {
      kind: "QueryVariableDefinition",
      name,
      type: required ? entry.type.slice(0, -1) : entry.type,
      required,
      ...(defaultValue !== undefined ? { defaultValue } : {}),
      value: entry.value,
      loc,
    };
    const existing = this.definitions.findIndex((d) => d.name === name);
    if (existing >= 0) this.definitions[existing] = def;
    else this.definitions.push(def);
  }

  /** Dgraph's `checkValueType`: every variable must be declared, initialised if required, well typed. */
  checkValueTypes(): void {
    for (const [name, entry] of this.entries) {
      const error = checkValueType(name, entry);
      if (error !== undefined) throw error;
    }
  }
}

function checkValueType(name: string, entry: VariableEntry): DqlSyntaxError | undefined {
  let type = entry.type;
  if (type.length === 0) return plainError(`Type of variable ${name} not specified`);
  if (type.endsWith("!")) {
    if (entry.value === "") return plainError(`Variable ${name} should be initialised`);
    type = type.slice(0, -1);
  }
  const value = entry.value;
  if (value === "") return undefined;
  switch (type) {
    case "int":
      return typeMismatch("an int", value, "ParseInt", goParseInt(value));
    case "float":
      return typeMismatch("a float", value, "ParseFloat", goParseFloat(value));
    case "bool":
      return typeMismatch("a bool", value, "ParseBool", goParseBool(value));
    case "float32vector":
    case "vfloat":
      return isVector(value) ? undefined : plainError(`Expected a vector32float but got ${value}`);
    case "string":
      return undefined;
    default:
      return plainError(`Type ${JSON.stringify(type)} not supported`);
  }
}

/** Dgraph's `Expected an int but got x: strconv…` when the value does not parse; undefined when it does. */
function typeMismatch(
  expected: string,
  value: string,
  fn: string,
  parsed: bigint | number | boolean | NumberFailure,
): DqlSyntaxError | undefined {
  if (typeof parsed !== "string") return undefined;
  return plainError(`Expected ${expected} but got ${value}: ${numErrorText(fn, value, parsed, "json")}`);
}

function isVector(value: string): boolean {
  try {
    const parsed: unknown = JSON.parse(value);
    return Array.isArray(parsed) && parsed.every((x) => typeof x === "number");
  } catch {
    return false;
  }
}

/**
 * Dgraph's `parseID` for `uid($v)`: `0x1`, `[0x1, 0x2]` (and, leniently, `0x1, 0x2`). Whitespace is
 * ignored; an empty value is an error.
 */
export function parseUidList(raw: string): number[] {
  let val = "";
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 10 && c !== 13) val += raw[i];
  }
  if (val === "") throw plainError("ID can't be empty");
  let body = val;
  if (val[0] === "[") {
    if (val[val.length - 1] !== "]") throw plainError(`Invalid id list at root. Got: ${val}`);
    body = val.slice(1, -1);
  }
  const uids: number[] = [];
  for (const part of body.split(",")) {
    if (part === "") continue;
    if (part.includes("[") || part.includes(")") || part.includes("]")) {
      throw plainError(`Invalid id list at root. Got: ${val}`);
    }
    const uid = goParseUint(part);
    if (typeof uid === "string") throw plainError(numErrorText("ParseUint", part, uid, "json"));
    uids.push(Number(uid));
  }
  return uids;
}
