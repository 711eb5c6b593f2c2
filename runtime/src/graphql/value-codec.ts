import { isTimestampRecord } from "../wit/well-known-types.ts";
import type { WitPrimitive, WitType, WitTypeDef } from "../wit/wit-types.ts";
import { parseBigIntInput } from "./custom-scalars.ts";
import { GraphQLError } from "./graphql-js.ts";
import { enumCaseToGraphQL, kebabToCamel } from "./naming-conventions.ts";
import { formatTimestamp, parseTimestamp } from "./timestamp.ts";

/**
 * Converts between GraphQL values and the invoker's JS representation of WIT values (jco's: records
 * with camelCase fields, `option` as `undefined`, 64-bit integers as `bigint`, enums as kebab-case case
 * names, tuples as arrays), driven by the WIT type so every conversion is checked against it.
 */
export class ValueCodec {
  /** Per enum (WIT name): GraphQL value → WIT case, and back. */
  private readonly enumCases = new Map<
    string,
    { toWit: Map<string, string>; toGraphQL: Map<string, string> }
  >();

  constructor(private readonly types: Map<string, WitTypeDef>) {
    for (const def of types.values()) {
      if (def.kind !== "enum") continue;
      const toWit = new Map<string, string>();
      const toGraphQL = new Map<string, string>();
      for (const c of def.cases) {
        toWit.set(enumCaseToGraphQL(c), c);
        toWit.set(c, c);
        toGraphQL.set(c, enumCaseToGraphQL(c));
      }
      this.enumCases.set(def.name, { toWit, toGraphQL });
    }
  }

  /** A GraphQL input value (already coerced by graphql-js) → the invoker's value; `at` names it in errors. */
  toWit(type: WitType, value: unknown, at: string): unknown {
    switch (type.kind) {
      case "option":
        return value === null || value === undefined ? undefined : this.toWit(type.of, value, at);
      case "list":
        if (!Array.isArray(value)) throw invalid(at, "a list", value);
        return value.map((v, i) => this.toWit(type.of, v, `${at}[${i}]`));
      case "tuple": {
        const obj = expectObject(value, at);
        return type.of.map((t, i) => this.toWit(t, obj[`item${i + 1}`], `${at}.item${i + 1}`));
      }
      case "prim":
        return primToWit(type.name, value, at);
      case "ref": {
        const def = this.types.get(type.name);
        if (!def) throw new GraphQLError(`${at}: unknown type "${type.name}"`);
        if (def.kind === "enum") {
          const c = typeof value === "string" ? this.enumCases.get(def.name)?.toWit.get(value) : undefined;
          if (c === undefined) throw invalid(at, `a value of enum ${def.name}`, value);
          return c;
        }
        if (isTimestampRecord(def)) {
          try {
            return parseTimestamp(value);
          } catch (e) {
            throw new GraphQLError(`${at}: ${(e as Error).message}`);
          }
        }
        const obj = expectObject(value, at);
        const out: Record<string, unknown> = {};
        for (const f of def.fields) {
          const key = kebabToCamel(f.name);
          out[key] = this.toWit(f.type, obj[key], `${at}.${key}`);
        }
        return out;
      }
      case "result":
        throw new GraphQLError(`${at}: result values cannot be passed as input`);
    }
  }

  /** An invoker value → the value a GraphQL resolver returns (scalars serialize bigint themselves). */
  toGraphQL(type: WitType | undefined, value: unknown, at: string): unknown {
    if (type === undefined) return null;
    switch (type.kind) {
      case "option":
        return value === null || value === undefined ? null : this.toGraphQL(type.of, value, at);
      case "list":
        if (!Array.isArray(value)) throw invalidResult(at, "a list", value);
        return value.map((v, i) => this.toGraphQL(type.of, v, `${at}[${i}]`));
      case "tuple": {
        if (!Array.isArray(value) || value.length !== type.of.length) {
          throw invalidResult(at, `a ${type.of.length}-tuple`, value);
        }
        const out: Record<string, unknown> = {};
        type.of.forEach((t, i) => {
          out[`item${i + 1}`] = this.toGraphQL(t, value[i], `${at}.item${i + 1}`);
        });
        return out;
      }
      case "prim":
        return value;
      case "ref": {
        const def = this.types.get(type.name);
        if (!def) throw new GraphQLError(`${at}: unknown type "${type.name}"`);
        if (def.kind === "enum") {
          const name =
            typeof value === "string" ? this.enumCases.get(def.name)?.toGraphQL.get(value) : undefined;
          if (name === undefined) throw invalidResult(at, `a case of enum ${def.name}`, value);
          return name;
        }
        if (isTimestampRecord(def)) return formatTimestamp(value);
        if (value === null || typeof value !== "object") throw invalidResult(at, "a record", value);
        const obj = value as Record<string, unknown>;
        if (def.fields.length === 0) return {};
        const out: Record<string, unknown> = {};
        for (const f of def.fields) {
          const key = kebabToCamel(f.name);
          out[key] = this.toGraphQL(f.type, obj[key], `${at}.${key}`);
        }
        return out;
      }
      case "result":
        throw new GraphQLError(`${at}: nested result values are not supported`);
    }
  }
}

const INT_RANGES: Partial<Record<WitPrimitive, [number, number]>> = {
  s8: [-128, 127],
  s16: [-32768, 32767],
  s32: [-(2 ** 31), 2 ** 31 - 1],
  u8: [0, 255],
  u16: [0, 65535],
  u32: [0, 2 ** 32 - 1],
};

function primToWit(prim: WitPrimitive, value: unknown, at: string): unknown {
  switch (prim) {
    case "bool":
      if (typeof value !== "boolean") throw invalid(at, "a Boolean", value);
      return value;
    case "s64":
    case "u64":
      try {
        return parseBigIntInput(value, prim === "s64" ? "Int64" : "UInt64");
      } catch (e) {
        throw new GraphQLError(`${at}: ${(e as Error).message}`);
      }
    case "f32":
    case "f64":
      if (typeof value !== "number") throw invalid(at, "a Float", value);
      return value;
    case "char":
      if (typeof value !== "string" || [...value].length !== 1)
        throw invalid(at, "a single character", value);
      return value;
    case "string":
      if (typeof value !== "string") throw invalid(at, "a String", value);
      return value;
    default: {
      const [min, max] = INT_RANGES[prim]!;
      if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
        throw invalid(at, `an integer in ${min}..${max} (${prim})`, value);
      }
      return value;
    }
  }
}

function expectObject(value: unknown, at: string): Record<string, unknown> {
  if (value === null || typeof value !== "object" || Array.isArray(value))
    throw invalid(at, "an object", value);
  return value as Record<string, unknown>;
}

function show(value: unknown): string {
  return typeof value === "bigint" ? `${value}` : (JSON.stringify(value) ?? String(value));
}

function invalid(at: string, expected: string, value: unknown): GraphQLError {
  return new GraphQLError(`${at}: expected ${expected}, got ${show(value)}`, {
    extensions: { code: "BAD_USER_INPUT" },
  });
}

function invalidResult(at: string, expected: string, value: unknown): GraphQLError {
  return new GraphQLError(
    `the function returned an invalid value at ${at}: expected ${expected}, got ${show(value)}`,
    {
      extensions: { code: "INVALID_RESULT" },
    },
  );
}
