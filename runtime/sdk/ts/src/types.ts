/**
 * Numeric types for exported function signatures. TypeScript erases these aliases, but `trellis build`
 * reads them by name and gives the WIT parameter or field that exact type (so GraphQL gets `Int` instead
 * of `Float`). Values are plain numbers; 64-bit integers are exact only within ±2^53 (use `bigint` for an
 * `s64` the app handles as a bigint).
 */
export type i8 = number;
export type i16 = number;
export type i32 = number;
export type i64 = number;
export type u8 = number;
export type u16 = number;
export type u32 = number;
export type u64 = number;
export type f32 = number;
export type f64 = number;
