import type { IncomingMessage } from "node:http";
import { isIP } from "node:net";

/** Where the dev server listens. */
export interface ServerAddress {
  /** The listen address as configured (127.0.0.1 by default; 0.0.0.0 or :: for all interfaces). */
  host: string;
  /** The port actually listened on. */
  port: number;
}

/**
 * Why `trellis dev` must refuse a request with 403, or undefined when it may answer. A dev server on
 * loopback is still reachable from every web page the developer opens: without these checks any site could
 * POST mutations to it or, through DNS rebinding, read its answers. So:
 *
 * - a request with an `Origin` header (from a browser page) must come from the dev server's own origin:
 *   http://localhost:PORT, http://127.0.0.1:PORT, http://[::1]:PORT, http://<--host>:PORT, or, when
 *   listening on all interfaces, http://<IP address>:PORT equal to the request's Host (someone opening the
 *   explorer by address). A host *name* is never compared with Host: a rebound name would match itself.
 *   No CORS headers are sent, so no other origin can read a response either;
 * - a browser request the browser itself marks as coming from another site (`Sec-Fetch-Site`; `<img>`,
 *   `<script>`, frames carry no Origin) is refused too, except a top-level navigation (a link to the
 *   explorer), which shows its answer to the developer, not to the page that linked;
 * - requests without those headers (curl, server-side clients, typing the URL) are answered;
 * - on loopback (the default), the `Host` header must be localhost, *.localhost or an IP address: a page
 *   whose name was rebound to 127.0.0.1 sends its own name there.
 */
export function foreignRequestReason(req: IncomingMessage, server: ServerAddress): string | undefined {
  const own = `http://127.0.0.1:${server.port}`;
  const hostHeader = req.headers.host;
  const requestHost = hostHeader === undefined ? undefined : hostName(hostHeader);
  if (isLoopback(server.host) && requestHost !== undefined && !localName(requestHost, server.host)) {
    return (
      `requests addressed to "${hostHeader}" are refused: trellis dev answers only localhost or an IP ` +
      `address (protection against DNS rebinding); open ${own}/explorer instead`
    );
  }
  const origin = req.headers.origin;
  const crossSite = origin !== undefined ? !sameOrigin(origin, server, requestHost) : fromOtherSite(req);
  if (!crossSite) return undefined;
  return (
    `cross-origin request${origin ? ` from ${origin}` : ""} refused: trellis dev answers only its own ` +
    `pages (${own}/explorer) and clients that send no Origin header (curl, server-side code); call it ` +
    "from there, or through a proxy that drops the Origin header (e.g. your front end's dev server proxy)"
  );
}

function sameOrigin(origin: string, server: ServerAddress, requestHost: string | undefined): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false; // "null" (sandboxed frames, file://) and anything unparsable
  }
  if (url.protocol !== "http:" || Number(url.port || 80) !== server.port) return false;
  const name = url.hostname.toLowerCase();
  if (name === "localhost" || name === "127.0.0.1" || name === "[::1]") return true;
  if (!isWildcard(server.host)) return name === bracketed(server.host.toLowerCase());
  return isIP(unbracketed(name)) !== 0 && name === requestHost;
}

/** A browser request from another site (or another port: "same-site") that is not a top-level navigation. */
function fromOtherSite(req: IncomingMessage): boolean {
  const site = req.headers["sec-fetch-site"];
  if (site === undefined || site === "same-origin" || site === "none") return false;
  return !(req.headers["sec-fetch-mode"] === "navigate" && req.headers["sec-fetch-dest"] === "document");
}

/** `example.com` from `example.com:8686`, `[::1]` from `[::1]:8686`, lower-cased. */
function hostName(hostHeader: string): string {
  const host = hostHeader.trim().toLowerCase();
  return host.startsWith("[") ? host.slice(0, host.indexOf("]") + 1) : host.replace(/:\d*$/, "");
}

function localName(name: string, serverHost: string): boolean {
  return (
    name === "localhost" ||
    name.endsWith(".localhost") ||
    isIP(unbracketed(name)) !== 0 ||
    name === bracketed(serverHost.toLowerCase())
  );
}

function isLoopback(host: string): boolean {
  return host === "localhost" || host === "::1" || /^127\.\d+\.\d+\.\d+$/.test(host);
}

function isWildcard(host: string): boolean {
  return host === "0.0.0.0" || host === "::" || host === "";
}

const bracketed = (host: string) => (host.includes(":") ? `[${host}]` : host);
const unbracketed = (host: string) => host.replace(/^\[(.*)\]$/, "$1");
