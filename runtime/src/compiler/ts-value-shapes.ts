/**
 * The app's API as read from TypeScript, in a form both the WIT generator and the glue generator use:
 * every value carries its WIT meaning plus what the user's code expects (null vs undefined for absent
 * values, bigint vs number, the user's own record keys and enum values).
 */
import type { WitPrimitive } from "../wit/wit-types.ts";

export type ValueShape =
  | { k: "string" }
  | { k: "bool" }
  /** A JS number carried as the WIT primitive `wit` (integers are range-checked by the glue). */
  | { k: "num"; wit: WitPrimitive }
  /** A TS `bigint`, carried as `s64` (a number inside QuickJS, so limited to ±2^53). */
  | { k: "bigint" }
  | { k: "option"; of: ValueShape; none: "null" | "undefined" }
  | { k: "list"; of: ValueShape }
  | { k: "tuple"; of: ValueShape[] }
  | { k: "record"; name: string }
  | { k: "enum"; name: string };

export interface RecordShape {
  kind: "record";
  /** WIT name (kebab-case). */
  name: string;
  fields: {
    /** The property name in the user's TypeScript. */
    key: string;
    /** WIT field name (kebab-case). */
    wit: string;
    shape: ValueShape;
    docs?: string;
  }[];
  docs?: string;
}

export interface EnumShape {
  kind: "enum";
  name: string;
  /** `value` is the string the user's code sees; `wit` the WIT case name. */
  cases: { value: string; wit: string }[];
  docs?: string;
}

export type TypeShape = RecordShape | EnumShape;

export interface FunctionShape {
  /** The exported JS name in the user's module. */
  jsName: string;
  /** WIT export name (kebab-case). */
  wit: string;
  params: { name: string; wit: string; shape: ValueShape }[];
  /** Absent for `void`. */
  result?: ValueShape;
  docs?: string;
}

export interface AppShapes {
  functions: FunctionShape[];
  /** Named types by WIT name, in the order they were first reached. */
  types: Map<string, TypeShape>;
}
