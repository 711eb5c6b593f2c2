/**
 * What one app's namespace may do in the platform's graph database, whichever way its work arrives (its
 * functions' connections, the console, the database's own ports): the bounds the worker opens the engine
 * and its GraphQL services with. The standalone `trellis-graphdb` keeps Dgraph's behaviour; a platform
 * hosts tenants, so here every heavy operation has a bound that stops it with a clear error:
 *
 * - DQL mutations never write `dgraph.*` predicates (but `dgraph.type`): a tenant could otherwise set its
 *   groot's password or store a GraphQL schema nobody validated; logins and `/admin/schema` own them.
 * - a mutation request carries at most `mutationNquads` N-Quads (16 MiB of text) and runs at most
 *   `operationTimeoutMs`; an app function's own timeout ends it sooner (its deadline rides the gRPC call);
 * - an alter (an index build over existing values) reads at most `indexValues` values and runs at most
 *   `operationTimeoutMs`, and its schema text is bounded; a GraphQL schema keeps graphdb's bounds (256 KiB,
 *   200 types, 2,000 fields: the largest builds in well under a second);
 * - at most 4 operations of one namespace run at once, the others wait their turn (1,000 at most, 30 s at
 *   most), so a namespace flooding the database gets its share of the worker, not all of it.
 */
import {
  type AdmissionLimits,
  type AlterLimits,
  DEFAULT_MAX_REMOTE_ANSWER_BYTES,
  type GraphDBOptions,
  type GraphQLServiceOptions,
  type MutationLimits,
} from "@trellis/graphdb";

export interface GraphTenantLimits {
  /** N-Quads one mutation request may carry (default 100,000). */
  mutationNquads: number;
  /** Longest a mutation or an alter may run, in ms (default 120,000). */
  operationTimeoutMs: number;
  /** Values one alter may read to build indexes (default 2,000,000). */
  indexValues: number;
  /**
   * Largest answer read from a server a tenant's GraphQL schema calls (`@custom(http:)`) or from a JWKS
   * endpoint of its `@auth`, in bytes (default 32 MiB): reading stops there, the field fails.
   */
  remoteAnswerBytes: number;
}

export const DEFAULT_GRAPH_TENANT_LIMITS: Readonly<GraphTenantLimits> = {
  mutationNquads: 100_000,
  operationTimeoutMs: 120_000,
  indexValues: 2_000_000,
  remoteAnswerBytes: DEFAULT_MAX_REMOTE_ANSWER_BYTES,
};

const MUTATION_BYTES = 16 * 2 ** 20;
const SCHEMA: Pick<AlterLimits, "schemaBytes" | "schemaPredicates" | "schemaTypes"> = {
  schemaBytes: 2 ** 20,
  schemaPredicates: 5_000,
  schemaTypes: 1_000,
};
const ADMISSION: AdmissionLimits = { concurrent: 4, queued: 1_000, waitMs: 30_000 };

/** The engine options of a platform's graph database under `limits`. */
export function tenantEngineOptions(
  limits: GraphTenantLimits,
): Pick<GraphDBOptions, "protectReservedPredicates" | "mutationLimits" | "alterLimits" | "admission"> {
  const mutationLimits: MutationLimits = {
    nquads: limits.mutationNquads,
    bytes: MUTATION_BYTES,
    timeoutMs: limits.operationTimeoutMs,
  };
  return {
    protectReservedPredicates: true,
    mutationLimits,
    alterLimits: { ...SCHEMA, timeoutMs: limits.operationTimeoutMs, indexValues: limits.indexValues },
    admission: ADMISSION,
  };
}

/** The GraphQL service options of a platform's graph database under `limits`. */
export function tenantGraphQLOptions(
  limits: GraphTenantLimits,
): Pick<GraphQLServiceOptions, "maxRemoteAnswerBytes"> {
  return { maxRemoteAnswerBytes: limits.remoteAnswerBytes };
}
