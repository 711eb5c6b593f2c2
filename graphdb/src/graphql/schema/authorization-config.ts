/**
 * The `# Dgraph.Authorization {json}` line of an input schema (reference §1.1, §1.3 `@auth`): how the JWT of
 * a request is found (`Header`), verified (`VerificationKey` + `Algo` HS256/RS256…, or the JSON Web Key sets
 * at `JWKUrl`/`JWKUrls`), checked (`Audience`) and read (`Namespace`, the claim holding Dgraph's claims),
 * and whether a request without a JWT is refused (`ClosedByDefault`). Parsed and checked with Dgraph's texts
 * when the schema is built; JSON keys match case-insensitively, as Go's decoder does. The older positional
 * form `# Dgraph.Authorization <Header> <Namespace> <Algo> "<key>"` is accepted too.
 */
import { createPublicKey, type KeyObject } from "node:crypto";

export const SUPPORTED_ALGORITHMS = ["RS256", "RS384", "RS512", "HS256", "HS384", "HS512"] as const;

export interface AuthorizationConfig {
  /** The header carrying the JWT, lower-cased (request headers are looked up by lower-case name). */
  readonly header: string;
  readonly namespace: string;
  /** Set unless the keys come from JWK URLs. */
  readonly algo: string | undefined;
  /** The HMAC secret's bytes, or the RSA public key. */
  readonly key: Uint8Array | KeyObject | undefined;
  readonly jwkUrls: readonly string[];
  readonly audience: readonly string[] | undefined;
  readonly closedByDefault: boolean;
  /** JWK sets fetched per URL, kept until their `Cache-Control: max-age` runs out. */
  readonly jwksCache: Map<string, { keys: JsonWebKeyEntry[]; expires: number }>;
}

export interface JsonWebKeyEntry {
  kid?: string;
  kty?: string;
  alg?: string;
  [k: string]: unknown;
}

const MARK = "Dgraph.Authorization";

/** The `# Dgraph.Authorization` line's text (trimmed), or undefined; throws when there are two. */
function authorizationLine(sdl: string): string | undefined {
  let found: string | undefined;
  for (const raw of sdl.split(/\r?\n/)) {
    const text = raw.trim();
    if (!text.startsWith("#") || !text.slice(1).trim().startsWith(MARK)) continue;
    if (found !== undefined) {
      throw new Error(
        `Dgraph.Authorization should be only be specified once in a schema, found second mention: ${text}`,
      );
    }
    found = text;
  }
  return found;
}

/** A JSON object's value by key, matched case-insensitively (Go's encoding/json does). */
function field(obj: Record<string, unknown>, name: string): unknown {
  const lower = name.toLowerCase();
  for (const [k, v] of Object.entries(obj)) if (k.toLowerCase() === lower) return v;
  return undefined;
}

const str = (v: unknown): string => (typeof v === "string" ? v : "");

interface RawMeta {
  verificationKey: string;
  jwkUrl: string;
  jwkUrls: string[];
  header: string;
  namespace: string;
  algo: string;
  audience: string[] | undefined;
  closedByDefault: boolean;
}

function fromJson(text: string): RawMeta | undefined {
  let obj: unknown;
  try {
    obj = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (obj === null || typeof obj !== "object" || Array.isArray(obj)) return undefined;
  const o = obj as Record<string, unknown>;
  const audience = field(o, "Audience");
  const urls = field(o, "JWKUrls");
  return {
    verificationKey: str(field(o, "VerificationKey")),
    jwkUrl: str(field(o, "JWKUrl")),
    jwkUrls: Array.isArray(urls) ? urls.map(String) : [],
    header: str(field(o, "Header")),
    namespace: str(field(o, "Namespace")),
    algo: str(field(o, "Algo")),
    audience: Array.isArray(audience)
      ? audience.map(String)
      : typeof audience === "string"
        ? [audience]
        : undefined,
    closedByDefault: field(o, "ClosedByDefault") === true,
  };
}

/** Dgraph's required-field check. */
function validate(m: RawMeta): void {
  let fields = "";
  if (m.jwkUrls.length > 0 || m.jwkUrl !== "") {
    if (m.jwkUrls.length > 0 && m.jwkUrl !== "") {
      throw new Error("expecting either JWKUrl or JWKUrls, both were given");
    }
    if (m.verificationKey !== "" || m.algo !== "") {
      throw new Error("expecting either JWKUrl/JWKUrls or (VerificationKey, Algo), both were given");
    }
    if (m.audience === undefined || m.audience.length === 0) fields = " `Audience` ";
  } else {
    if (m.verificationKey === "") fields = " `Verification key`/`JWKUrl`/`JWKUrls`";
    if (m.algo === "") fields += " `Algo`";
  }
  if (m.header === "") fields += " `Header`";
  if (m.namespace === "") fields += " `Namespace`";
  if (fields.length > 0) throw new Error(`required field missing in Dgraph.Authorization:${fields}`);
}

/** The positional form: `# Dgraph.Authorization X-Test-Auth https://xyz.io/jwt/claims HS256 "secret"`. */
function fromPositional(line: string): RawMeta {
  const m = /^#\s(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+"([^"]+)"/.exec(`# ${line.slice(line.indexOf(MARK))}`);
  if (m === null) throw new Error(`Invalid \`Dgraph.Authorization\` format: ${line}`);
  return {
    verificationKey: m[5],
    jwkUrl: "",
    jwkUrls: [],
    header: m[2],
    namespace: m[3],
    algo: m[4],
    audience: undefined,
    closedByDefault: false,
  };
}

/** The schema's authorization settings, or undefined without a `# Dgraph.Authorization` line. */
export function parseAuthorizationConfig(sdl: string): AuthorizationConfig | undefined {
  const line = authorizationLine(sdl);
  if (line === undefined) return undefined;
  const json = line.slice(line.indexOf(MARK) + MARK.length).trim();
  const parsed = fromJson(json);
  const meta = parsed ?? fromPositional(line);
  if (parsed !== undefined) validate(meta);
  const jwkUrls = meta.jwkUrl !== "" ? [...meta.jwkUrls, meta.jwkUrl] : meta.jwkUrls;
  let key: Uint8Array | KeyObject | undefined;
  if (jwkUrls.length === 0) {
    if (!(SUPPORTED_ALGORITHMS as readonly string[]).includes(meta.algo)) {
      throw new Error(
        `invalid jwt algorithm: found ${meta.algo}, but supported options are: ${SUPPORTED_ALGORITHMS.join(",")}`,
      );
    }
    if (meta.algo.startsWith("HS")) key = new TextEncoder().encode(meta.verificationKey);
    else {
      try {
        key = createPublicKey(meta.verificationKey.replaceAll("\\n", "\n"));
      } catch (e) {
        throw new Error(`invalid RSA public key in Dgraph.Authorization: ${(e as Error).message}`);
      }
    }
  }
  return {
    header: meta.header.toLowerCase(),
    namespace: meta.namespace,
    algo: jwkUrls.length === 0 ? meta.algo : undefined,
    key,
    jwkUrls,
    audience: meta.audience,
    closedByDefault: meta.closedByDefault,
    jwksCache: new Map(),
  };
}
