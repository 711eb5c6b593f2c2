/**
 * `@trellis/runtime/egress`: the egress policy alone — no compiler, no WebAssembly host — for a thread
 * that only needs to connect under it (the platform's graph database worker rebuilds the guarded fetch
 * from the plain `EgressOptions` it is handed). The same names are exported by the package's index.
 */
export { type AllowEntry, EgressAllowError, parseEgressAllow } from "./egress/egress-allow.ts";
export {
  type EgressMode,
  type EgressOptions,
  EgressPolicy,
  type HostResolver,
  PERMISSIVE_EGRESS,
} from "./egress/egress-policy.ts";
export { EGRESS_ALLOW_SETTING, EgressRefusedError, egressRefusal } from "./egress/egress-refused.ts";
export { createGuardedFetch, type GuardedFetch, type OutboundFetch } from "./egress/guarded-fetch.ts";
export { connectGuarded, GuardedSocket } from "./egress/guarded-socket.ts";
