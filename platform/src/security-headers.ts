import helmet from "@fastify/helmet";
import type { FastifyInstance } from "fastify";

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
export async function securityHeaders(server: FastifyInstance, options: { https: boolean }): Promise<void> {
  await server.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: options.https
        ? { ...CONTENT_SECURITY_POLICY, "upgrade-insecure-requests": [] }
        : CONTENT_SECURITY_POLICY,
    },
    frameguard: { action: "deny" },
    referrerPolicy: { policy: "no-referrer" },
    strictTransportSecurity: options.https
      ? { maxAge: HSTS_MAX_AGE_SECONDS, includeSubDomains: false }
      : false,
  });
}
