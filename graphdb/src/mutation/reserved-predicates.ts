/**
 * Which pre-defined `dgraph.*` predicates a DQL mutation may not write. As Dgraph
 * (`x.IsOtherReservedPredicate`): the GraphQL schema's predicates and `dgraph.drop.op`, for everyone,
 * always; the database stores them itself (`/admin/schema`, drops). With `protectAll` (an operator's
 * choice, for servers whose guardians are tenants) every `dgraph.*` predicate but `dgraph.type` too: the
 * ACL's `dgraph.password`, `dgraph.xid`, `dgraph.user.group`, … are then written only by the operations that
 * own them (namespace creation, `setGrootPassword`), never by a mutation, a guardian's included.
 */
import { DgraphError } from "../core/errors.ts";

/** Throws when a public mutation may not touch `predicate`. */
export type PredicateGuard = (predicate: string) => void;

function isGraphQLReserved(predicate: string): boolean {
  return predicate === "dgraph.drop.op" || predicate.startsWith("dgraph.graphql.");
}

/** The guard of public (DQL) mutations; `protectAll` refuses every `dgraph.*` but `dgraph.type`. */
export function reservedPredicateGuard(protectAll: boolean): PredicateGuard {
  return (predicate) => {
    if (!predicate.startsWith("dgraph.")) return;
    if (isGraphQLReserved(predicate)) {
      throw new DgraphError(`Cannot mutate graphql reserved predicate ${predicate}`);
    }
    if (protectAll && predicate !== "dgraph.type") {
      throw new DgraphError(
        `Cannot mutate reserved predicate ${predicate}: this server keeps dgraph.* predicates to the` +
          " operations that own them (logins and namespace accounts, /admin/schema). Use your own predicate names.",
      );
    }
  };
}
