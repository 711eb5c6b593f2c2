/**
 * The engine as one request may use it: access checks (ACL token, guardian-only operations, the `/alter`
 * auth token, the txn hash) run right before the engine call, so their failures travel through the same
 * error path — and envelope — as the engine's own errors, as they do in Dgraph.
 *
 * The namespace of every engine call is the access token's (the galaxy without ACL): whatever namespace a
 * request names is overwritten here, so no transport can reach another namespace than its caller's.
 */
import type { GraphEngine, TxnContext } from "../engine/engine-api.ts";
import { GALAXY_NAMESPACE } from "../engine/namespace.ts";
import type { AccessClaims, Acl } from "./acl.ts";
import { checkAuthToken } from "./auth-token.ts";
import type { LoginThrottle } from "./login-throttle.ts";

export type RequestEngine = Pick<GraphEngine, "query" | "mutate" | "commit" | "alter">;

export interface Guards {
  acl?: Acl;
  /** `X-Dgraph-AuthToken` secret required by /alter (and by namespace management). */
  authToken?: string;
  /** Failed logins per client address and per user (with ACL, unless turned off). */
  loginThrottle?: LoginThrottle;
}

export interface RequestCredentials {
  /** `X-Dgraph-AccessToken` header. */
  accessToken?: string;
  /** `X-Dgraph-AuthToken` header. */
  authToken?: string;
  /** `hash` query parameter (ACL txn hash echoed by newer clients). */
  hash: string;
}

export function guardEngine(engine: GraphEngine, guards: Guards, creds: RequestCredentials): RequestEngine {
  const { acl, authToken } = guards;
  if (!acl) {
    // Without ACL there are no logins, so no way to name another namespace: everything is the galaxy's.
    const galaxy = GALAXY_NAMESPACE;
    return {
      query: (req) => engine.query({ ...req, namespace: galaxy }),
      mutate: (req) => engine.mutate({ ...req, namespace: galaxy }),
      commit: (req) => engine.commit({ ...req, namespace: galaxy }),
      alter: async (op) => {
        checkAuthToken(authToken, creds.authToken);
        await engine.alter({ ...op, namespace: galaxy });
      },
    };
  }

  let claims: Promise<AccessClaims> | undefined;
  const authenticate = () => {
    claims ??= acl.verifyAccessToken(creds.accessToken);
    return claims;
  };
  const withHash = (txn: TxnContext, namespace: number): TxnContext =>
    txn.start_ts ? { ...txn, hash: acl.txnHash(txn.start_ts, namespace) } : txn;

  return {
    async query(req) {
      const { namespace } = await authenticate();
      acl.checkTxnHash(req.startTs ?? 0, creds.hash, namespace);
      const res = await engine.query({ ...req, namespace });
      return { ...res, txn: withHash(res.txn, namespace) };
    },
    async mutate(req) {
      const { namespace } = await authenticate();
      acl.checkTxnHash(req.startTs ?? 0, creds.hash, namespace);
      const res = await engine.mutate({ ...req, namespace });
      return { ...res, txn: withHash(res.txn, namespace) };
    },
    async commit(req) {
      const { namespace } = await authenticate();
      acl.checkTxnHash(req.startTs, creds.hash, namespace);
      return engine.commit({ ...req, namespace });
    },
    async alter(op) {
      checkAuthToken(authToken, creds.authToken);
      const who = await authenticate();
      acl.requireGuardian(who);
      // A drop gives the namespace its guardians and groot back itself (the engine keeps groot's password).
      await engine.alter({ ...op, namespace: who.namespace });
    },
  };
}

/**
 * Who may do something outside the DQL API (routes like /state, namespace management): anyone with a
 * valid token, guardians (of any namespace), or the galaxy's guardians only.
 */
export type AccessLevel = "token" | "guardian" | "galaxy-guardian";

/** Throws the ACL's error unless the access token grants `level` (nothing is checked without ACL). */
export async function checkAccess(
  acl: Acl | undefined,
  accessToken: string | undefined,
  level: AccessLevel,
): Promise<void> {
  if (!acl) return;
  const claims = await acl.verifyAccessToken(accessToken);
  if (level === "guardian") acl.requireGuardian(claims);
  else if (level === "galaxy-guardian") acl.requireGalaxyGuardian(claims);
}

/**
 * Checks that a request may manage namespaces (create, drop, list): with ACL, a guardian of the galaxy
 * only (Dgraph's rule and error text); the auth token too when one is configured.
 */
export async function authorizeNamespaceAdmin(guards: Guards, creds: RequestCredentials): Promise<void> {
  checkAuthToken(guards.authToken, creds.authToken);
  await checkAccess(guards.acl, creds.accessToken, "galaxy-guardian");
}
