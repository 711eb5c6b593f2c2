/**
 * The ACL accounts every namespace starts with, as Dgraph creates them: the `guardians` group and the
 * `groot` user in it. They live in the namespace's own graph (`dgraph.xid`, `dgraph.password`,
 * `dgraph.user.group`), so each namespace has its own groot, with its own password.
 */
import type { MutateRequest } from "./engine-api.ts";

export const GUARDIANS_GROUP = "guardians";
export const GROOT_USER = "groot";
/** Dgraph's default groot password (what Dgraph gives the groot of a namespace created over gRPC). */
export const GROOT_DEFAULT_PASSWORD = "password";

/** The ACL predicates, declared when ACL is enabled on a namespace that lacks them. */
export const ACL_SCHEMA = [
  "dgraph.xid: string @index(exact) @upsert .",
  "dgraph.password: password .",
  "dgraph.user.group: [uid] @reverse .",
].join("\n");

/**
 * The two idempotent upserts that make sure the guardians group, then groot in it, exist in a namespace
 * (conditioned on the current graph: nothing changes when they are there). Run them in order, committed.
 * `password` is groot's password in clear, or — with an engine that stores it as given — its stored hash.
 */
export function accountUpserts(password: string, namespace: number): MutateRequest[] {
  return [
    {
      namespace,
      commitNow: true,
      query: `{ g as var(func: eq(dgraph.xid, "${GUARDIANS_GROUP}")) }`,
      mutations: [
        {
          cond: "@if(eq(len(g), 0))",
          setNquads: `_:g <dgraph.xid> "${GUARDIANS_GROUP}" .\n_:g <dgraph.type> "dgraph.type.Group" .`,
        },
      ],
    },
    {
      namespace,
      commitNow: true,
      query: `{
        g as var(func: eq(dgraph.xid, "${GUARDIANS_GROUP}"))
        u as var(func: eq(dgraph.xid, "${GROOT_USER}"))
      }`,
      mutations: [
        {
          cond: "@if(eq(len(u), 0) AND gt(len(g), 0))",
          setNquads: [
            `_:u <dgraph.xid> "${GROOT_USER}" .`,
            `_:u <dgraph.password> ${JSON.stringify(password)} .`,
            `_:u <dgraph.type> "dgraph.type.User" .`,
            "_:u <dgraph.user.group> uid(g) .",
          ].join("\n"),
        },
      ],
    },
  ];
}
