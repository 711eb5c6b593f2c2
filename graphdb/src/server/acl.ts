/**
 * Access control as Dgraph does it: users and groups live in the graph (`dgraph.xid`, `dgraph.password`,
 * `dgraph.user.group`) of their namespace, `/login` checks a password with `checkpwd` through the engine in
 * the namespace asked for and hands out HS256 JWTs (access `{userid, groups, namespace, exp}`, refresh
 * `{userid, namespace, exp}`), and every other request carries the access JWT in `X-Dgraph-AccessToken`
 * and runs in the token's namespace.
 */
import { createHash } from "node:crypto";
import { errors as joseErrors, jwtVerify, SignJWT } from "jose";
import { DgraphError, GrpcStatus } from "../core/errors.ts";
import { GROOT_DEFAULT_PASSWORD, GROOT_USER, GUARDIANS_GROUP } from "../engine/acl-accounts.ts";
import type { GraphEngine } from "../engine/engine-api.ts";
import { GALAXY_NAMESPACE } from "../engine/namespace.ts";

export { GROOT_DEFAULT_PASSWORD, GROOT_USER, GUARDIANS_GROUP };
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

/**
 * The login failure text Dgraph uses for every cause (unknown user, wrong password, bad refresh token,
 * a namespace that does not exist).
 */
export const INVALID_LOGIN = "invalid username or password";

/** Login on a server started without ACL (both transports). */
export const ACL_NOT_ENABLED = "ACL is not enabled on this server: start it with --acl";

/** Dgraph's refusal of namespace management to anyone but the galaxy's guardians. */
export const GALAXY_GUARDIANS_ONLY = "Only guardian of galaxy is allowed to do this operation";

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

export function permissionDenied(message: string): DgraphError {
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
   * Makes sure the ACL predicates, the `guardians` group and the `groot` user (password "password") exist
   * in a namespace (default the galaxy) — at startup. Idempotent: upserts conditioned on the current
   * graph. (After a drop, the engine itself gives the namespace its accounts back.)
   */
  async ensureGroot(namespace = GALAXY_NAMESPACE): Promise<void> {
    // The engine writes the accounts itself: a DQL mutation may be refused `dgraph.*` predicates.
    await this.engine.ensureGroot(namespace);
  }

  /**
   * `/login`: password login into `req.namespace`, or refresh-token login into the refresh token's
   * namespace; every failure is `invalid username or password` (an unknown namespace too: whether one
   * exists is nobody's business before they log in).
   */
  async login(req: LoginRequest): Promise<LoginTokens> {
    let user: UserRecord | undefined;
    let namespace: number;
    if (req.refreshToken !== "") {
      const claims = await this.verify(req.refreshToken).catch(() => undefined);
      if (!claims || typeof claims.userid !== "string") throw new DgraphError(INVALID_LOGIN);
      const claimed = namespaceClaim(claims.namespace);
      if (claimed === undefined) throw new DgraphError(INVALID_LOGIN);
      namespace = claimed;
      user = await this.findUser(namespace, REFRESH_QUERY, { $userid: claims.userid });
    } else {
      if (req.userid === "" || !Number.isSafeInteger(req.namespace)) throw new DgraphError(INVALID_LOGIN);
      namespace = req.namespace;
      user = await this.findUser(namespace, USER_QUERY, { $userid: req.userid, $password: req.password });
      if (user && user.password_match !== true) user = undefined;
    }
    const userid = user?.["dgraph.xid"];
    if (!user || userid === undefined) throw new DgraphError(INVALID_LOGIN);
    const groups = (user["dgraph.user.group"] ?? [])
      .map((g) => g["dgraph.xid"])
      .filter((g): g is string => typeof g === "string");
    return {
      accessJWT: await this.sign({ userid, groups, namespace }, this.accessTtlMs),
      refreshJWT: await this.sign({ userid, namespace }, this.refreshTtlMs),
    };
  }

  private async findUser(
    namespace: number,
    query: string,
    vars: Record<string, string>,
  ): Promise<UserRecord | undefined> {
    let json: string;
    try {
      json = (await this.engine.query({ namespace, query, vars })).json;
    } catch {
      // A namespace that does not exist (or was dropped) has no users.
      return undefined;
    }
    const users = (JSON.parse(json) as { user?: UserRecord[] }).user ?? [];
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
    const namespace = namespaceClaim(payload.namespace);
    if (namespace === undefined) {
      throw unauthenticated(`namespace in claims is not valid:${String(payload.namespace)}`);
    }
    return {
      userid: payload.userid,
      groups: payload.groups.filter((g): g is string => typeof g === "string"),
      namespace,
    };
  }

  /**
   * Throws unless the caller is a guardian of the galaxy (namespace 0): namespace management, cluster
   * state. A guardian of another namespace is refused with Dgraph's text.
   */
  requireGalaxyGuardian(claims: AccessClaims): void {
    if (claims.namespace !== GALAXY_NAMESPACE) throw permissionDenied(GALAXY_GUARDIANS_ONLY);
    this.requireGuardian(claims);
  }

  /** Throws unless the caller belongs to `guardians` (of its own namespace). */
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

/**
 * The `namespace` claim of a token this server signed: a JSON number (Dgraph's float64). A token without
 * one predates namespaces and speaks for the galaxy; undefined for anything else (refuse the token).
 */
function namespaceClaim(value: unknown): number | undefined {
  if (value === undefined) return GALAXY_NAMESPACE;
  if (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) return value;
  return undefined;
}
