/**
 * @trellis/sdk: what a Trellis TypeScript app imports. Everything is synchronous; errors from the host
 * (an undeclared connection, a failed query) are thrown as `Error`s carrying the host's message, and an
 * exported function that throws returns a GraphQL error.
 */
export * as auth from "./auth.ts";
export * as graph from "./graph.ts";
export * as http from "./http.ts";
export * as log from "./log.ts";
export * as models from "./models.ts";
export * as secrets from "./secrets.ts";
export * as sql from "./sql.ts";
export type { f32, f64, i8, i16, i32, i64, u8, u16, u32, u64 } from "./types.ts";
