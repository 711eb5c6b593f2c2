import { GraphQLError, GraphQLScalarType, type GraphQLSchema, Kind, type ValueNode } from "./graphql-js.ts";
import { formatTimestamp, parseTimestamp } from "./timestamp.ts";

/**
 * Behaviour of the custom scalars the schema builder emits. 64-bit integers travel as `bigint` inside
 * the runtime and are written to JSON as numbers when they are safe integers (|v| ≤ 2^53−1) and as decimal
 * strings beyond that, so no client ever sees a rounded value. Inputs accept a number or a string.
 */

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const UINT64_MAX = 2n ** 64n - 1n;
const UINT32_MAX = 2 ** 32 - 1;

/** Parses an Int64/UInt64 input (number, decimal string or bigint) into a range-checked bigint. */
export function parseBigIntInput(value: unknown, scalar: "Int64" | "UInt64"): bigint {
  let n: bigint;
  if (typeof value === "bigint") n = value;
  else if (typeof value === "number") {
    if (!Number.isSafeInteger(value)) {
      throw new GraphQLError(
        `${scalar} cannot represent ${value}: pass integers beyond 2^53 as strings to keep their precision`,
      );
    }
    n = BigInt(value);
  } else if (typeof value === "string" && /^-?\d+$/.test(value.trim())) n = BigInt(value.trim());
  else throw new GraphQLError(`${scalar} cannot represent ${JSON.stringify(value)}: expected an integer`);
  const [min, max] = scalar === "Int64" ? [INT64_MIN, INT64_MAX] : [0n, UINT64_MAX];
  if (n < min || n > max) throw new GraphQLError(`${scalar} cannot represent ${n}: out of range`);
  return n;
}

/** Writes a 64-bit integer for JSON: a number when exactly representable, else a decimal string. */
export function serializeBigInt(value: unknown, scalar: "Int64" | "UInt64"): number | string {
  const n = parseBigIntInput(typeof value === "number" && !Number.isSafeInteger(value) ? NaN : value, scalar);
  return n >= BigInt(Number.MIN_SAFE_INTEGER) && n <= BigInt(Number.MAX_SAFE_INTEGER)
    ? Number(n)
    : n.toString();
}

function literalValue(ast: ValueNode): unknown {
  if (ast.kind === Kind.INT || ast.kind === Kind.STRING) return ast.value;
  if (ast.kind === Kind.FLOAT) return Number(ast.value);
  throw new GraphQLError(`expected an integer literal, got ${ast.kind}`);
}

function bigIntScalar(name: "Int64" | "UInt64", description: string): GraphQLScalarType {
  return new GraphQLScalarType({
    name,
    description,
    serialize: (v) => serializeBigInt(v, name),
    parseValue: (v) => parseBigIntInput(v, name),
    parseLiteral: (ast) => parseBigIntInput(literalValue(ast), name),
  });
}

function parseUInt(value: unknown): number {
  const n = typeof value === "string" && /^\d+$/.test(value.trim()) ? Number(value) : value;
  if (typeof n !== "number" || !Number.isInteger(n) || n < 0 || n > UINT32_MAX) {
    throw new GraphQLError(
      `UInt cannot represent ${JSON.stringify(value)}: expected an integer 0..${UINT32_MAX}`,
    );
  }
  return n;
}

/** The runtime behaviour of each custom scalar, by name. */
export const CUSTOM_SCALARS: Record<string, GraphQLScalarType> = {
  Int64: bigIntScalar("Int64", "A signed 64-bit integer (a string beyond ±2^53 to keep precision)."),
  UInt64: bigIntScalar("UInt64", "An unsigned 64-bit integer (a string beyond 2^53 to keep precision)."),
  UInt: new GraphQLScalarType({
    name: "UInt",
    description: "An unsigned 32-bit integer.",
    serialize: parseUInt,
    parseValue: parseUInt,
    parseLiteral: (ast) => parseUInt(literalValue(ast)),
  }),
  Timestamp: new GraphQLScalarType({
    name: "Timestamp",
    description: "A point in time as an RFC 3339 string, e.g. 2024-05-06T07:08:09.123Z (UTC on output).",
    // The resolvers hand over the canonical string (value-codec.ts); inputs are checked, kept as given.
    serialize: (v) => (typeof v === "string" ? formatTimestamp(parseTimestamp(v)) : formatTimestamp(v)),
    parseValue: (v) => {
      parseTimestamp(v);
      return v;
    },
    parseLiteral: (ast) => {
      if (ast.kind !== Kind.STRING) throw new GraphQLError(`Timestamp must be a string, got ${ast.kind}`);
      parseTimestamp(ast.value);
      return ast.value;
    },
  }),
  Void: new GraphQLScalarType({
    name: "Void",
    description: "No value; always null.",
    serialize: () => null,
    parseValue: () => null,
    parseLiteral: () => null,
  }),
};

/**
 * Gives the scalars of a schema built from SDL (where custom scalars pass values through unchanged) the
 * behaviour above. Scalars declared for field-less records keep the pass-through behaviour.
 */
export function installCustomScalars(schema: GraphQLSchema): void {
  for (const [name, impl] of Object.entries(CUSTOM_SCALARS)) {
    const type = schema.getType(name);
    if (!(type instanceof GraphQLScalarType)) continue;
    type.serialize = impl.serialize;
    type.parseValue = impl.parseValue;
    type.parseLiteral = impl.parseLiteral;
    type.description ??= impl.description;
  }
}
