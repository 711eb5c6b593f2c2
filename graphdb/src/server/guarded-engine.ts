/**
 * The engine as one request may use it: access checks (ACL token, guardian-only operations, the `/alter`
 * auth token, the txn hash) run right before the engine call, so their failures travel through the same
 * error path — and envelope — as the engine's own errors, as they do in Dgraph.
 */
import type { AlterOperation, GraphEngine, TxnContext } from "../engine/engine-api.ts";
import type { AccessClaims, Acl } from "./acl.ts";
import { checkAuthToken } from "./auth-token.ts";

export type RequestEngine = Pick<GraphEngine, "query" | "mutate" | "commit" | "alter">;

export interface Guards {
  acl?: Acl;
  /** `X-Dgraph-AuthToken` secret required by /alter. */
  authToken?: string;
}

export interface RequestCredentials {
  /** `X-Dgraph-AccessToken` header. */
  accessToken?: string;
  /** `X-Dgraph-AuthToken` header. */
  authToken?: string;
  /** `hash` query parameter (ACL txn hash echoed by newer clients). */
  hash: string;
}

/** Operations that wipe the ACL users too; groot is re-created afterwards, as in Dgraph. */
function wipesUsers(op: AlterOperation): boolean {
  return op.dropAll === true || op.dropOp === "ALL" || op.dropOp === "DATA";
}

export function guardEngine(engine: GraphEngine, guards: Guards, creds: RequestCredentials): RequestEngine {
  const { acl, authToken } = guards;
  if (!acl) {
    if (!authToken) return engine;
    return {
      query: (req) => engine.query(req),
      mutate: (req) => engine.mutate(req),
      commit: (req) => engine.commit(req),
      alter: async (op) => {
        checkAuthToken(authToken, creds.authToken);
        await engine.alter(op);
      },
    };
  }

  let claims: Promise<AccessClaims> | undefined;
  const authenticate = () => {
    claims ??= acl.verifyAccessToken(creds.accessToken);
    return claims;
  };
  const withHash = (txn: TxnContext): TxnContext =>
    txn.start_ts ? { ...txn, hash: acl.txnHash(txn.start_ts) } : txn;

  return {
    async query(req) {
      await authenticate();
      acl.checkTxnHash(req.startTs ?? 0, creds.hash);
      const res = await engine.query(req);
      return { ...res, txn: withHash(res.txn) };
    },
    async mutate(req) {
      await authenticate();
      acl.checkTxnHash(req.startTs ?? 0, creds.hash);
      const res = await engine.mutate(req);
      return { ...res, txn: withHash(res.txn) };
    },
    async commit(req) {
      await authenticate();
      acl.checkTxnHash(req.startTs, creds.hash);
      return engine.commit(req);
    },
    async alter(op) {
      checkAuthToken(authToken, creds.authToken);
      acl.requireGuardian(await authenticate());
      await engine.alter(op);
      if (wipesUsers(op)) await acl.ensureGroot();
    },
  };
}
