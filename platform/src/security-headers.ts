import helmet from "@fastify/helmet";
import type { FastifyInstance, FastifyReply } from "fastify";

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
export async function securityHeaders(
  server: FastifyInstance,
  options: { https: boolean; appDomain: string },
): Promise<void> {
  // The console frames app sites (`<app>.<appDomain>`, any port, its own scheme): their thumbnails.
  const policy = { ...CONTENT_SECURITY_POLICY, "frame-src": [`*.${options.appDomain}:*`] };
  await server.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: options.https ? { ...policy, "upgrade-insecure-requests": [] } : policy,
    },
    frameguard: { action: "deny" },
    referrerPolicy: { policy: "no-referrer" },
    strictTransportSecurity: options.https
      ? { maxAge: HSTS_MAX_AGE_SECONDS, includeSubDomains: false }
      : false,
  });
}

/**
 * An app's pages may be framed by the console (the thumbnail on its Overview) and by nothing else. The
 * console's frame is sandboxed without same-origin, so the page runs in an opaque origin: its own files
 * (public by design) are served to any origin, for CORS (module scripts) and CORP (images, styles) alike.
 */
export function allowConsoleFraming(reply: FastifyReply, consoleOrigin: string): void {
  const policy = String(reply.getHeader("content-security-policy") ?? "");
  reply.header(
    "content-security-policy",
    policy.replace(/frame-ancestors [^;]*/, `frame-ancestors ${consoleOrigin}`),
  );
  reply.removeHeader("x-frame-options");
  reply.header("access-control-allow-origin", "*");
  reply.header("cross-origin-resource-policy", "cross-origin");
}
