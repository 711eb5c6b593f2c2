/**
 * Whether the standalone server is reachable beyond this machine without access control. It keeps
 * Dgraph's defaults (all interfaces, no ACL), so that case is allowed — but said out loud at startup.
 */
import { isIP } from "node:net";
import type { Logger } from "pino";

/** Loopback addresses (127.0.0.0/8, ::1, their IPv4-mapped form, `localhost`): only this machine connects. */
export function isLoopbackHost(host: string): boolean {
  const h = host.trim().toLowerCase();
  if (h === "localhost" || h.endsWith(".localhost")) return true;
  if (isIP(h) === 4) return h.startsWith("127.");
  const bare = h.startsWith("[") && h.endsWith("]") ? h.slice(1, -1) : h;
  if (isIP(bare) !== 6) return false;
  // The URL parser writes an IPv6 address in its one canonical form (IPv4-mapped ones in hex).
  const canonical = new URL(`http://[${bare}]/`).hostname;
  return canonical === "[::1]" || /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(canonical);
}

/**
 * Logs a warning when the server listens beyond loopback with neither ACL nor an auth token: anyone who
 * can reach the ports can then read, change and drop every namespace's data. Returns whether it warned.
 */
export function warnIfExposed(
  logger: Logger,
  listen: { host: string; port: number; grpcPort: number; acl: boolean; authToken: boolean },
): boolean {
  if (listen.acl || listen.authToken || isLoopbackHost(listen.host)) return false;
  logger.warn(
    {
      host: listen.host,
      port: listen.port,
      grpcPort: listen.grpcPort,
      acl: false,
      authToken: false,
      exposure: "unauthenticated",
    },
    `trellis-graphdb listens on ${listen.host} (ports ${listen.port} and ${listen.grpcPort}) without --acl or --auth-token: ` +
      "anyone who can reach this machine can read, change and drop all data. Start it with --acl " +
      "(logins and access tokens), or with --host 127.0.0.1 to accept local connections only.",
  );
  return true;
}
