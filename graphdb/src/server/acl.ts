/**
 * Access control as Dgraph does it: users and groups live in the graph (`dgraph.xid`, `dgraph.password`,
 * `dgraph.user.group`), `/login` checks a password with `checkpwd` through the engine and hands out HS256
 * JWTs (access `{userid, groups, namespace, exp}`, refresh `{userid, namespace, exp}`), and every other
 * request carries the access JWT in `X-Dgraph-AccessToken`.
 */
import { createHash } from "node:crypto";
import { errors as joseErrors, jwtVerify, SignJWT } from "jose";
import type { GraphEngine } from "../engine/engine-api.ts";
import { DgraphError, GrpcStatus, TxnAbortedError } from "../engine/errors.ts";

export const GUARDIANS_GROUP = "guardians";
export const GROOT_USER = "groot";
export const GROOT_DEFAULT_PASSWORD = "password";
export const MIN_SECRET_BYTES = 32;
/** The header carrying the access JWT (lower-cased, as Node presents it). */
export const ACCESS_TOKEN_HEADER = "x-dgraph-accesstoken";

export interface AclOptions {
  /** HMAC secret for the JWTs (at least 32 bytes). */
  secret: Uint8Array;
  /** Access-token lifetime in ms (default 6 h). */
  accessTtlMs?: number;
  /** Refresh-token lifetime in ms (default 30 days). */
  refreshTtlMs?: number;
}

/** Who a verified access token speaks for. */
export interface AccessClaims {
  userid: string;
  groups: string[];
  namespace: number;
}

export interface LoginRequest {
  userid: string;
  password: string;
  namespace: number;
  refreshToken: string;
}

export interface LoginTokens {
  accessJWT: string;
  refreshJWT: string;
}

/** The login failure text Dgraph uses for every cause (unknown user, wrong password, bad refresh token). */
export const INVALID_LOGIN = "invalid username or password";

const ACL_SCHEMA = [
  "dgraph.xid: string @index(exact) @upsert .",
  "dgraph.password: password .",
  "dgraph.user.group: [uid] @reverse .",
].join("\n");

const USER_QUERY = `query login($userid: string, $password: string) {
  user(func: eq(dgraph.xid, $userid)) @filter(type(dgraph.type.User)) {
    uid
    dgraph.xid
    password_match: checkpwd(dgraph.password, $password)
    dgraph.user.group { uid dgraph.xid }
  }
}`;

const REFRESH_QUERY = `query refresh($userid: string) {
  user(func: eq(dgraph.xid, $userid)) @filter(type(dgraph.type.User)) {
    uid
    dgraph.xid
    dgraph.user.group { uid dgraph.xid }
  }
}`;

interface UserRecord {
  uid?: string;
  "dgraph.xid"?: string;
  password_match?: boolean;
  "dgraph.user.group"?: { "dgraph.xid"?: string }[];
}

function unauthenticated(message: string): DgraphError {
  return new DgraphError(
    `rpc error: code = Unauthenticated desc = ${message}`,
    "ErrorUnauthorized",
    GrpcStatus.UNAUTHENTICATED,
  );
}

function permissionDenied(message: string): DgraphError {
  return new DgraphError(
    `rpc error: code = PermissionDenied desc = ${message}`,
    "ErrorUnauthorized",
    GrpcStatus.PERMISSION_DENIED,
  );
}

export class Acl {
  private readonly accessTtlMs: number;
  private readonly refreshTtlMs: number;
  private readonly secret: Uint8Array;

  constructor(
    private readonly engine: GraphEngine,
    options: AclOptions,
  ) {
    if (options.secret.length < MIN_SECRET_BYTES) {
      throw new Error(`ACL secret must be at least ${MIN_SECRET_BYTES} bytes, got ${options.secret.length}`);
    }
    this.secret = options.secret;
    this.accessTtlMs = options.accessTtlMs ?? 6 * 3600_000;
    this.refreshTtlMs = options.refreshTtlMs ?? 30 * 24 * 3600_000;
  }

  /**
   * Makes sure the ACL predicates, the `guardians` group and the `groot` user (password "password") exist —
   * at startup and after a drop-all. Idempotent: upserts conditioned on the current graph.
   */
  async ensureGroot(): Promise<void> {
    await this.ensureSchema();
    await this.upsertWithRetry(
      `{ g as var(func: eq(dgraph.xid, "${GUARDIANS_GROUP}")) }`,
      "@if(eq(len(g), 0))",
      `_:g <dgraph.xid> "${GUARDIANS_GROUP}" .\n_:g <dgraph.type> "dgraph.type.Group" .`,
    );
    await this.upsertWithRetry(
      `{
        g as var(func: eq(dgraph.xid, "${GUARDIANS_GROUP}"))
        u as var(func: eq(dgraph.xid, "${GROOT_USER}"))
      }`,
      "@if(eq(len(u), 0) AND gt(len(g), 0))",
      [
        `_:u <dgraph.xid> "${GROOT_USER}" .`,
        `_:u <dgraph.password> "${GROOT_DEFAULT_PASSWORD}" .`,
        `_:u <dgraph.type> "dgraph.type.User" .`,
        "_:u <dgraph.user.group> uid(g) .",
      ].join("\n"),
    );
  }

  private async ensureSchema(): Promise<void> {
    const res = await this.engine.query({
      query: "schema(pred: [dgraph.xid, dgraph.password, dgraph.user.group]) { type }",
    });
    const present = new Set(
      ((JSON.parse(res.json) as { schema?: { predicate: string }[] }).schema ?? []).map((p) => p.predicate),
    );
    if (present.size < 3) await this.engine.alter({ schema: ACL_SCHEMA });
  }

  private async upsertWithRetry(query: string, cond: string, setNquads: string): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        await this.engine.mutate({ query, mutations: [{ cond, setNquads }], commitNow: true });
        return;
      } catch (e) {
        if (!(e instanceof TxnAbortedError) || attempt >= 5) throw e;
      }
    }
  }

  /** `/login`: password or refresh-token login; every failure is `invalid username or password`. */
  async login(req: LoginRequest): Promise<LoginTokens> {
    let user: UserRecord | undefined;
    if (req.refreshToken !== "") {
      const claims = await this.verify(req.refreshToken).catch(() => undefined);
      if (!claims || typeof claims.userid !== "string") throw new DgraphError(INVALID_LOGIN);
      user = await this.findUser(REFRESH_QUERY, { $userid: claims.userid });
    } else {
      if (req.userid === "" || req.namespace !== 0) throw new DgraphError(INVALID_LOGIN);
      user = await this.findUser(USER_QUERY, { $userid: req.userid, $password: req.password });
      if (user && user.password_match !== true) user = undefined;
    }
    const userid = user?.["dgraph.xid"];
    if (!user || userid === undefined) throw new DgraphError(INVALID_LOGIN);
    const groups = (user["dgraph.user.group"] ?? [])
      .map((g) => g["dgraph.xid"])
      .filter((g): g is string => typeof g === "string");
    return {
      accessJWT: await this.sign({ userid, groups, namespace: 0 }, this.accessTtlMs),
      refreshJWT: await this.sign({ userid, namespace: 0 }, this.refreshTtlMs),
    };
  }

  private async findUser(query: string, vars: Record<string, string>): Promise<UserRecord | undefined> {
    const res = await this.engine.query({ query, vars });
    const users = (JSON.parse(res.json) as { user?: UserRecord[] }).user ?? [];
    // xid is indexed with `exact`, so this is a case-sensitive match: "Groot" is not "groot".
    return users.find((u) => u["dgraph.xid"] === vars.$userid);
  }

  private sign(claims: Record<string, unknown>, ttlMs: number): Promise<string> {
    return new SignJWT(claims)
      .setProtectedHeader({ alg: "HS256", typ: "JWT" })
      .setExpirationTime(Math.floor((Date.now() + ttlMs) / 1000))
      .sign(this.secret);
  }

  private async verify(token: string): Promise<Record<string, unknown>> {
    try {
      const { payload } = await jwtVerify(token, this.secret, {
        algorithms: ["HS256"],
        requiredClaims: ["exp"],
      });
      return payload;
    } catch (e) {
      if (e instanceof joseErrors.JWTExpired) throw unauthenticated("Token is expired");
      if (e instanceof joseErrors.JWTClaimValidationFailed && e.claim === "exp") {
        throw unauthenticated("Token is expired");
      }
      if (token.split(".").length !== 3) {
        throw unauthenticated("unable to parse jwt token: token contains an invalid number of segments");
      }
      if (e instanceof joseErrors.JWSSignatureVerificationFailed) {
        throw unauthenticated("unable to parse jwt token: signature is invalid");
      }
      throw unauthenticated(`unable to parse jwt token: ${(e as Error).message}`);
    }
  }

  /** Verifies an `X-Dgraph-AccessToken` header value. */
  async verifyAccessToken(token: string | undefined): Promise<AccessClaims> {
    if (token === undefined || token === "") throw permissionDenied("no accessJwt available");
    const payload = await this.verify(token);
    if (typeof payload.userid !== "string") {
      throw unauthenticated(`userid in claims is not a string:${String(payload.userid ?? "")}`);
    }
    if (!Array.isArray(payload.groups)) {
      // A refresh token has no groups: it only buys new tokens at /login.
      throw unauthenticated("groups in claims is not a list: refresh tokens are only accepted by /login");
    }
    return {
      userid: payload.userid,
      groups: payload.groups.filter((g): g is string => typeof g === "string"),
      namespace: typeof payload.namespace === "number" ? payload.namespace : 0,
    };
  }

  /** Throws unless the caller belongs to `guardians`. */
  requireGuardian(claims: AccessClaims): void {
    if (!claims.groups.includes(GUARDIANS_GROUP)) {
      throw permissionDenied(
        `Only guardians are allowed access. User '${claims.userid}' is not a member of guardians group.`,
      );
    }
  }

  /** Dgraph's txn hash: hex(sha256(sprintf("%#x%#x%#x", namespace, startTs, secret))). */
  txnHash(startTs: number, namespace = 0): string {
    const secretHex = `0x${Buffer.from(this.secret).toString("hex")}`;
    return createHash("sha256")
      .update(`0x${namespace.toString(16)}0x${startTs.toString(16)}${secretHex}`)
      .digest("hex");
  }

  /** Checks a client-echoed `hash` parameter (absent is accepted: dgraph-js-http 20.x never sends it). */
  checkTxnHash(startTs: number, hash: string, namespace = 0): void {
    if (startTs !== 0 && hash !== "" && hash !== this.txnHash(startTs, namespace)) {
      throw new DgraphError("hash mismatch the claimed startTs|namespace");
    }
  }
}
