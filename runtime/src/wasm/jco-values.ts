import type { WitField, WitPrimitive, WitType, WitTypeDef } from "../wit/wit-types.ts";

type TypedArrayCtor =
  | Int8ArrayConstructor
  | Uint8ArrayConstructor
  | Int16ArrayConstructor
  | Uint16ArrayConstructor
  | Int32ArrayConstructor
  | Uint32ArrayConstructor
  | BigInt64ArrayConstructor
  | BigUint64ArrayConstructor
  | Float32ArrayConstructor
  | Float64ArrayConstructor;

/** jco 1.11.2 lowers `list<number type>` by copying the bytes of a typed array: a plain array reads as zeros. */
const TYPED_LISTS: Partial<Record<WitPrimitive, TypedArrayCtor>> = {
  s8: Int8Array,
  u8: Uint8Array,
  s16: Int16Array,
  u16: Uint16Array,
  s32: Int32Array,
  u32: Uint32Array,
  s64: BigInt64Array,
  u64: BigUint64Array,
  f32: Float32Array,
  f64: Float64Array,
};

/**
 * Converts call arguments from plain JS (lists as arrays) to what jco's glue expects: numeric lists as
 * typed arrays, at any depth (inside records, options, tuples, results).
 */
export function toJcoArgs(params: WitField[], types: Map<string, WitTypeDef>, args: unknown[]): unknown[] {
  return args.map((arg, i) => (params[i] ? toJco(params[i].type, types, arg) : arg));
}

function toJco(type: WitType, types: Map<string, WitTypeDef>, value: unknown): unknown {
  if (value === undefined || value === null) return value;
  switch (type.kind) {
    case "prim":
      return value;
    case "list": {
      if (!Array.isArray(value)) return value;
      const ctor = type.of.kind === "prim" ? TYPED_LISTS[type.of.name] : undefined;
      if (ctor) return (ctor as { from(v: unknown[]): unknown }).from(value);
      return value.map((v) => toJco(type.of, types, v));
    }
    case "option":
      return toJco(type.of, types, value);
    case "tuple":
      return Array.isArray(value)
        ? value.map((v, i) => (type.of[i] ? toJco(type.of[i], types, v) : v))
        : value;
    case "result": {
      const r = value as { tag?: string; val?: unknown };
      const side = r.tag === "ok" ? type.ok : r.tag === "err" ? type.err : undefined;
      return side ? { ...r, val: toJco(side, types, r.val) } : value;
    }
    case "ref": {
      const def = types.get(type.name);
      if (def?.kind !== "record" || typeof value !== "object") return value;
      const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
      for (const field of def.fields) {
        const key = camel(field.name);
        if (key in out) out[key] = toJco(field.type, types, out[key]);
      }
      return out;
    }
  }
}

/** Turns typed arrays in a result back into plain arrays, so every list reaches callers as an array. */
export function fromJcoValue(value: unknown): unknown {
  if (ArrayBuffer.isView(value) && !(value instanceof DataView)) {
    return Array.from(value as unknown as ArrayLike<unknown>);
  }
  if (Array.isArray(value)) return value.map(fromJcoValue);
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = fromJcoValue(v);
    return out;
  }
  return value;
}

function camel(name: string): string {
  return name.replace(/-([a-z0-9])/gi, (_m, c: string) => c.toUpperCase());
}
