/**
 * Dgraph connection strings, as dgraph-js `open()` and dgo `Open()` accept them:
 *
 *   dgraph://[user:password@]host:port[?sslmode=disable|require|verify-ca][&bearertoken=…|&apikey=…]
 *            [&namespace=<id>]
 *
 * `sslmode` defaults to `disable`; `apikey` (Dgraph Cloud) and `bearertoken` (sent as
 * `Authorization: Bearer …`) exclude each other; a user name needs a password (the client logs in with
 * them). Error texts are dgraph-js's. `namespace` (a Trellis addition, which Dgraph's clients ignore) is
 * the namespace to log into (`loginIntoNamespace`), 0 when absent.
 */

export type DgraphSslMode = "disable" | "require" | "verify-ca";

export const DGRAPH_SSL_MODES: readonly DgraphSslMode[] = ["disable", "require", "verify-ca"];

export interface DgraphConnectionString {
  /** Host name or address, IPv6 without brackets. */
  host: string;
  port: number;
  /** `host:port` as a gRPC target (IPv6 in brackets), e.g. for dgraph-js `DgraphClientStub`. */
  target: string;
  sslmode: DgraphSslMode;
  bearerToken?: string;
  apiKey?: string;
  /** ACL login, from the user-info part (percent-decoded). */
  username?: string;
  password?: string;
  /** The namespace to log into (`?namespace=`), when given. */
  namespace?: number;
  /** Every query parameter, including the ones above and any others (ignored by the clients). */
  params: Record<string, string>;
}

const SCHEME = "dgraph:";

/** Parses a `dgraph://` connection string; throws an Error with dgraph-js's text when it is not valid. */
export function parseDgraphConnectionString(connStr: string): DgraphConnectionString {
  let url: URL;
  try {
    url = new URL(connStr);
  } catch {
    throw new Error(
      `Invalid connection string: ${connStr.startsWith(SCHEME) ? "malformed URL" : "not a URL"}`,
    );
  }
  if (url.protocol !== SCHEME) throw new Error("Invalid scheme: must start with dgraph://");
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  if (!host) throw new Error("Invalid connection string: hostname required");
  if (!url.port) throw new Error("Invalid connection string: port required");
  const port = Number(url.port);
  if (port <= 0) throw new Error(`Invalid connection string: invalid port ${url.port}`);

  const params: Record<string, string> = {};
  url.searchParams.forEach((value, key) => {
    params[key] = value;
  });
  if (params.apikey && params.bearertoken) throw new Error("Both apikey and bearertoken cannot be provided");
  const sslmode = (params.sslmode ?? "disable") as DgraphSslMode;
  if (!DGRAPH_SSL_MODES.includes(sslmode)) {
    throw new Error(`Invalid SSL mode: ${sslmode} (must be one of disable, require, verify-ca)`);
  }

  const out: DgraphConnectionString = {
    host,
    port,
    target: host.includes(":") ? `[${host}]:${port}` : `${host}:${port}`,
    sslmode,
    params,
  };
  if (params.bearertoken) out.bearerToken = params.bearertoken;
  if (params.namespace !== undefined) {
    const ns = /^\d+$/.test(params.namespace) ? Number(params.namespace) : Number.NaN;
    if (!Number.isSafeInteger(ns)) {
      throw new Error(
        `Invalid connection string: namespace must be a decimal id (0 to 2^53-1), got ${params.namespace}`,
      );
    }
    out.namespace = ns;
  }
  if (params.apikey) out.apiKey = params.apikey;
  if (url.username !== "") {
    if (url.password === "") {
      throw new Error("Invalid connection string: password required when username is provided");
    }
    out.username = decodeURIComponent(url.username);
    out.password = decodeURIComponent(url.password);
  }
  return out;
}

/**
 * A gRPC target as apps give it: a `dgraph://` connection string, or a plain `host:port` (then `sslmode`
 * is `disable` and there are no credentials).
 */
export function parseGrpcTarget(target: string): DgraphConnectionString {
  if (target.startsWith(SCHEME)) return parseDgraphConnectionString(target);
  const m = /^(?:\[([^\]]+)\]|([^:/?#@\s[\]]+)):(\d{1,5})$/.exec(target);
  const port = m ? Number(m[3]) : 0;
  if (!m || port <= 0 || port > 65535) {
    throw new Error(`Invalid gRPC target: ${target} (expected host:port or dgraph://host:port)`);
  }
  const host = m[1] ?? m[2];
  return {
    host,
    port,
    target: host.includes(":") ? `[${host}]:${port}` : `${host}:${port}`,
    sslmode: "disable",
    params: {},
  };
}
