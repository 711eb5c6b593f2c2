/**
 * DQL writes a web page must not be able to make. Any page a browser shows can POST to any address the
 * browser reaches (a local server too) without asking first, as long as the request is CORS-"simple": a
 * Content-Type of text/plain, application/x-www-form-urlencoded or multipart/form-data (or none) and no
 * custom header. The page cannot read the answer, but a write needs no answer: `{"drop_all": true}` as
 * text/plain to /alter would wipe a server without ACL. So /alter and /commit refuse such a request when
 * it comes from a browser (it carries an Origin header: browsers send one on every POST) unless it carries
 * X-Dgraph-AccessToken or X-Dgraph-AuthToken: a custom header makes the browser ask first (a preflight),
 * which the server's CORS policy answers. Clients that are not browsers send no Origin and are not
 * affected: dgraph-js-http sends its alter and commit bodies as text/plain, as Dgraph accepts.
 * /mutate needs no guard: it accepts only application/json and application/rdf, as Dgraph's does, and
 * those are never simple.
 */
import type { IncomingHttpHeaders } from "node:http";
import { ACCESS_TOKEN_HEADER } from "./acl.ts";
import { AUTH_TOKEN_HEADER } from "./auth-token.ts";
import { ORIGINAL_CONTENT_TYPE } from "./content-type-header.ts";
import { RequestError, type WireErrorCode } from "./envelope.ts";
import { headerValue } from "./header-value.ts";

/** The media types a browser sends cross-origin without a preflight (the Fetch standard's list). */
export const CORS_SIMPLE_TYPES: readonly string[] = [
  "text/plain",
  "application/x-www-form-urlencoded",
  "multipart/form-data",
];

function present(headers: IncomingHttpHeaders, name: string): boolean {
  const v = headers[name];
  return v !== undefined && v !== "";
}

/**
 * Throws unless a write request could not have been sent by a web page without a preflight.
 * `useInstead` names the Content-Types the endpoint takes, for the error; `code` is the endpoint's error
 * code (Dgraph's /alter errors are `Error`, /commit's `ErrorInvalidRequest`).
 */
export function refuseSimpleWrite(
  headers: IncomingHttpHeaders,
  endpoint: string,
  useInstead: string,
  code: WireErrorCode,
): void {
  if (present(headers, ACCESS_TOKEN_HEADER) || present(headers, AUTH_TOKEN_HEADER)) return;
  const essence = (headerValue(headers, ORIGINAL_CONTENT_TYPE) ?? "").split(";")[0].trim().toLowerCase();
  // Only a browser (which always sends Origin on a POST) is refused: other clients keep working.
  if (!present(headers, "origin")) return;
  const simple = essence === "" || CORS_SIMPLE_TYPES.includes(essence);
  if (!simple) return;
  const sent = essence === "" ? "no Content-Type" : `Content-Type ${essence}`;
  throw new RequestError(
    `${endpoint} refuses a request with ${sent} and neither X-Dgraph-AccessToken nor X-Dgraph-AuthToken: ` +
      `any web page can send such a request (a CORS simple request). Send the body as ${useInstead}, ` +
      "or with an access token (log in) or the auth token.",
    code,
  );
}
