import type { WitType, WitTypeDef } from "./wit-types.ts";

/**
 * The component model's canonical ABI for the WIT types an app world uses: how a value is laid out in
 * linear memory (size, alignment, field offsets) and how it is flattened into core wasm parameters.
 * Code generators for guests without a bindings generator of their own (Go) lower and lift values with
 * these numbers; they must match what jco's glue does on the host side.
 * https://github.com/WebAssembly/component-model/blob/main/design/mvp/CanonicalABI.md
 */

export type CoreType = "i32" | "i64" | "f32" | "f64";

export interface Layout {
  size: number;
  align: number;
}

/** The most core parameters a function takes flat; beyond that they are passed in memory. */
export const MAX_FLAT_PARAMS = 16;
/** The most core results returned flat; beyond that the callee returns a pointer to a return area. */
export const MAX_FLAT_RESULTS = 1;

export class CanonicalAbi {
  constructor(private readonly types: Map<string, WitTypeDef>) {}

  layout(t: WitType): Layout {
    switch (t.kind) {
      case "prim":
        return primLayout(t.name);
      case "list":
        return { size: 8, align: 4 };
      case "option":
        return this.variantLayout([t.of]);
      case "result":
        return this.variantLayout([t.ok, t.err]);
      case "tuple":
        return this.recordLayout(t.of).layout;
      case "ref": {
        const def = this.def(t.name);
        if (def.kind === "enum") return discriminantLayout(def.cases.length);
        return this.recordLayout(def.fields.map((f) => f.type)).layout;
      }
    }
  }

  /** Offsets of a record's (or tuple's) fields, and its layout. */
  recordLayout(fields: WitType[]): { offsets: number[]; layout: Layout } {
    let size = 0;
    let align = 1;
    const offsets: number[] = [];
    for (const field of fields) {
      const l = this.layout(field);
      size = alignTo(size, l.align);
      offsets.push(size);
      size += l.size;
      align = Math.max(align, l.align);
    }
    return { offsets, layout: { size: alignTo(size, align), align } };
  }

  /** Where an option's or result's payload starts: after its one-byte discriminant, aligned. */
  payloadOffset(t: WitType): number {
    if (t.kind === "option") return alignTo(1, this.maxAlign([t.of]));
    if (t.kind === "result") return alignTo(1, this.maxAlign([t.ok, t.err]));
    throw new Error(`${t.kind} has no payload`);
  }

  /** Fields of a record type, resolving a reference. */
  fields(t: WitType): WitType[] {
    if (t.kind === "tuple") return t.of;
    if (t.kind !== "ref") throw new Error(`${t.kind} has no fields`);
    const def = this.def(t.name);
    if (def.kind !== "record") throw new Error(`${t.name} is not a record`);
    return def.fields.map((f) => f.type);
  }

  /** The core types a value flattens to. */
  flatten(t: WitType): CoreType[] {
    switch (t.kind) {
      case "prim":
        return t.name === "string" ? ["i32", "i32"] : [primCore(t.name)];
      case "list":
        return ["i32", "i32"];
      case "option":
        return ["i32", ...this.joinCases([t.of])];
      case "result":
        return ["i32", ...this.joinCases([t.ok, t.err])];
      case "tuple":
        return t.of.flatMap((f) => this.flatten(f));
      case "ref": {
        const def = this.def(t.name);
        if (def.kind === "enum") return ["i32"];
        return def.fields.flatMap((f) => this.flatten(f.type));
      }
    }
  }

  /** An option (one payload case) or a result (two): a one-byte discriminant, then the payload. */
  private variantLayout(cases: (WitType | undefined)[]): Layout {
    const disc = { size: 1, align: 1 };
    let size = 0;
    let align = disc.align;
    for (const c of cases) {
      if (!c) continue;
      const l = this.layout(c);
      size = Math.max(size, l.size);
      align = Math.max(align, l.align);
    }
    const offset = alignTo(disc.size, this.maxAlign(cases));
    return { size: alignTo(offset + size, align), align };
  }

  private maxAlign(cases: (WitType | undefined)[]): number {
    return Math.max(1, ...cases.map((c) => (c ? this.layout(c).align : 1)));
  }

  /** Flattened payloads of a variant's cases, joined position by position. */
  private joinCases(cases: (WitType | undefined)[]): CoreType[] {
    const flat: CoreType[] = [];
    for (const c of cases) {
      if (!c) continue;
      this.flatten(c).forEach((t, i) => {
        const have = flat[i];
        flat[i] = have === undefined ? t : join(have, t);
      });
    }
    return flat;
  }

  private def(name: string): WitTypeDef {
    const def = this.types.get(name);
    if (!def) throw new Error(`type ${name} is not defined in the world`);
    return def;
  }
}

export function alignTo(offset: number, align: number): number {
  return Math.ceil(offset / align) * align;
}

function primLayout(name: string): Layout {
  switch (name) {
    case "bool":
    case "s8":
    case "u8":
      return { size: 1, align: 1 };
    case "s16":
    case "u16":
      return { size: 2, align: 2 };
    case "s32":
    case "u32":
    case "f32":
    case "char":
      return { size: 4, align: 4 };
    case "s64":
    case "u64":
    case "f64":
      return { size: 8, align: 8 };
    default:
      return { size: 8, align: 4 }; // string: (ptr, len)
  }
}

function primCore(name: string): CoreType {
  switch (name) {
    case "s64":
    case "u64":
      return "i64";
    case "f32":
      return "f32";
    case "f64":
      return "f64";
    default:
      return "i32";
  }
}

function discriminantLayout(cases: number): Layout {
  if (cases <= 256) return { size: 1, align: 1 };
  if (cases <= 65536) return { size: 2, align: 2 };
  return { size: 4, align: 4 };
}

function join(a: CoreType, b: CoreType): CoreType {
  if (a === b) return a;
  if ((a === "i32" && b === "f32") || (a === "f32" && b === "i32")) return "i32";
  return "i64";
}
