/**
 * The shape of an app as its component's WIT describes it: world-level records, enums and exported
 * functions. This model is the contract between the WIT reader (wit-parser.ts), the build-time WIT
 * generator (compiler/), the GraphQL schema builder (graphql/) and the value conversion at call time.
 *
 * Names are kept in WIT spelling (kebab-case); converters to JS / GraphQL spellings live with their users.
 */

export type WitPrimitive =
  | "bool"
  | "s8"
  | "s16"
  | "s32"
  | "s64"
  | "u8"
  | "u16"
  | "u32"
  | "u64"
  | "f32"
  | "f64"
  | "char"
  | "string";

export type WitType =
  | { kind: "prim"; name: WitPrimitive }
  | { kind: "list"; of: WitType }
  | { kind: "option"; of: WitType }
  /** `result<ok, err>`; either side may be absent (`result`, `result<T>`, `result<_, E>`). */
  | { kind: "result"; ok?: WitType; err?: WitType }
  | { kind: "tuple"; of: WitType[] }
  /** A named world-level type (record or enum). */
  | { kind: "ref"; name: string };

export interface WitField {
  name: string;
  type: WitType;
  docs?: string;
}

export interface WitRecord {
  kind: "record";
  name: string;
  fields: WitField[];
  docs?: string;
}

export interface WitEnum {
  kind: "enum";
  name: string;
  cases: string[];
  docs?: string;
}

export type WitTypeDef = WitRecord | WitEnum;

export interface WitFunction {
  /** Export name in WIT (kebab-case, e.g. `get-person`). */
  name: string;
  params: WitField[];
  /** Absent for a function returning nothing. */
  result?: WitType;
  docs?: string;
}

export interface AppWorld {
  /** World-level type definitions by WIT name. */
  types: Map<string, WitTypeDef>;
  /** Exported functions in declaration order (the QuickJS `init` export is not included). */
  functions: WitFunction[];
}
