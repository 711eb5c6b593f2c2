/**
 * Which web pages may read the server's responses (CORS). Dgraph answers every origin
 * (`Access-Control-Allow-Origin: *`, with `Access-Control-Allow-Credentials: true`); that stays the
 * default of a server without ACL, where there are no credentials to protect. With ACL the default is no
 * CORS headers at all — browsers then keep pages of other origins from reading anything — and an explicit
 * allow-list names the origins (e.g. a console) that may; a wildcard is refused with ACL.
 */

/** The `cors` option of the HTTP server. */
export type CorsOption =
  /** Allow these origins (`https://console.example.com`, exact match), or `"*"` for any (not with ACL). */
  | { allowOrigins: "*" | readonly string[] }
  /** No CORS headers: only same-origin pages (and non-browser clients) can read responses. */
  | false;

const ALLOW_METHODS = "POST, OPTIONS";
const ALLOW_HEADERS =
  "X-Dgraph-AccessToken, X-Dgraph-AuthToken, Content-Type, Content-Length, Accept-Encoding, Cache-Control, X-CSRF-Token, X-Auth-Token, X-Requested-With";

/** The CORS headers Dgraph adds to the API endpoints, /health, /state and /ui/keywords. */
export const DGRAPH_CORS_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  "access-control-allow-origin": "*",
  "access-control-allow-methods": ALLOW_METHODS,
  "access-control-allow-headers": ALLOW_HEADERS,
  "access-control-allow-credentials": "true",
});

/** The response headers a request gets, by its `Origin` header. */
export type ResponseHeaders = (origin: string | undefined) => Readonly<Record<string, string>>;

/**
 * The headers every Dgraph response carries: CORS by the policy, and `Connection: close` unless
 * keep-alive was asked for (Dgraph ends every connection after one response).
 */
export function responseHeaders(options: {
  cors: CorsOption | undefined;
  acl: boolean;
  keepAlive: boolean;
}): ResponseHeaders {
  const connection: Record<string, string> = options.keepAlive ? {} : { connection: "close" };
  const cors = options.cors ?? (options.acl ? false : { allowOrigins: "*" as const });
  if (cors === false) {
    const none = Object.freeze({ ...connection });
    return () => none;
  }
  if (cors.allowOrigins === "*") {
    if (options.acl) {
      throw new Error(
        'cors.allowOrigins "*" is refused with ACL: any web page could then read responses to requests ' +
          "made with a token; list the origins that may (e.g. your console's)",
      );
    }
    const any = Object.freeze({ ...DGRAPH_CORS_HEADERS, ...connection });
    return () => any;
  }
  const allowed = new Set(cors.allowOrigins);
  for (const origin of allowed) {
    if (origin === "*" || origin === "null" || !/^[a-z][a-z0-9+.-]*:\/\/[^/\s]+$/i.test(origin)) {
      throw new Error(
        `cors.allowOrigins: ${JSON.stringify(origin)} is not an origin; give scheme://host[:port], e.g. https://console.example.com`,
      );
    }
  }
  // Credentials travel in headers (X-Dgraph-AccessToken), never cookies: no Allow-Credentials needed.
  const denied = Object.freeze({ ...connection, vary: "Origin" });
  const byOrigin = new Map<string, Readonly<Record<string, string>>>();
  for (const origin of allowed) {
    byOrigin.set(
      origin,
      Object.freeze({
        ...connection,
        vary: "Origin",
        "access-control-allow-origin": origin,
        "access-control-allow-methods": ALLOW_METHODS,
        "access-control-allow-headers": ALLOW_HEADERS,
      }),
    );
  }
  return (origin) => (origin === undefined ? denied : (byOrigin.get(origin) ?? denied));
}
