import fastifyHelmet, { type FastifyHelmetOptions } from "@fastify/helmet";
import type { FastifyInstance } from "fastify";
import helmet from "helmet";

/**
 * The Content-Security-Policy of everything the platform serves. The console's Vite build is one module
 * script and one stylesheet from its own origin, with no inline script or style element and no eval; React
 * sets `style` through the DOM, which CSP does not restrict. It only talks to its own origin's API. So:
 * everything from 'self', nothing inline, no plugins, and no framing (clickjacking).
 */
export const CONTENT_SECURITY_POLICY: Record<string, string[]> = {
  "default-src": ["'self'"],
  "script-src": ["'self'"],
  "style-src": ["'self'"],
  "img-src": ["'self'"],
  "font-src": ["'self'"],
  "connect-src": ["'self'"],
  "object-src": ["'none'"],
  "base-uri": ["'none'"],
  "form-action": ["'self'"],
  "frame-ancestors": ["'none'"],
};

/** HSTS lifetime when serving HTTPS: one year, the usual value once HTTPS is known to work. */
const HSTS_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

/**
 * Security headers on every response (console, control-plane JSON, gateway, errors), through
 * @fastify/helmet: the CSP above, `X-Frame-Options: DENY` (for browsers without frame-ancestors),
 * `X-Content-Type-Options: nosniff`, `Referrer-Policy: no-referrer` (the console links nowhere that needs
 * to know where a click came from, and its URLs name apps), and helmet's cross-origin isolation headers.
 * HTTPS-only headers are sent only when this server terminates TLS itself: HSTS (this host only: the
 * platform cannot vouch for sibling or app subdomains it may not serve over HTTPS) and
 * `upgrade-insecure-requests`, which over plain HTTP would break the console's own requests.
 */
export async function securityHeaders(server: FastifyInstance, options: SecurityOptions): Promise<void> {
  await server.register(fastifyHelmet, helmetOptions(options));
}

export interface SecurityOptions {
  https: boolean;
  appDomain: string;
}

function helmetOptions(options: SecurityOptions): FastifyHelmetOptions {
  // The console frames app sites (`<app>.<appDomain>`, any port, its own scheme): their thumbnails.
  const policy = { ...CONTENT_SECURITY_POLICY, "frame-src": [`*.${options.appDomain}:*`] };
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: options.https ? { ...policy, "upgrade-insecure-requests": [] } : policy,
    },
    frameguard: { action: "deny" },
    referrerPolicy: { policy: "no-referrer" },
    strictTransportSecurity: options.https
      ? { maxAge: HSTS_MAX_AGE_SECONDS, includeSubDomains: false }
      : false,
  };
}

/**
 * The security headers of a static site's responses: the platform's (helmet's, computed once here rather
 * than per request, since static files are the hot path), except that an app's pages may be framed by
 * the console (the thumbnail on its Overview) and by nothing else. The console's frame is sandboxed
 * without same-origin, so the page runs in an opaque origin: its own files (public by design) are served
 * to any origin, for CORS (module scripts) and CORP (images, styles) alike.
 */
export function siteSecurityHeaders(options: SecurityOptions, consoleOrigin: string): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: unknown) => {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  // @fastify/helmet's option types are helmet's CommonJS declarations; the same options.
  helmet(helmetOptions(options) as Parameters<typeof helmet>[0])({} as never, response as never, () => {});
  const policy = headers["content-security-policy"] ?? "";
  headers["content-security-policy"] = policy.replace(
    /frame-ancestors [^;]*/,
    `frame-ancestors ${consoleOrigin}`,
  );
  delete headers["x-frame-options"];
  headers["access-control-allow-origin"] = "*";
  headers["cross-origin-resource-policy"] = "cross-origin";
  return headers;
}
