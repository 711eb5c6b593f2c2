import { isIP } from "node:net";

/** proxy-addr's names for address ranges, accepted as they are. */
const NAMED_RANGES = new Set(["loopback", "linklocal", "uniquelocal"]);

/**
 * The `--trust-proxy` list: addresses, CIDRs (`10.0.0.0/8`, `10.0.0.0/255.0.0.0`) and proxy-addr's
 * names (`loopback`, `linklocal`, `uniquelocal`), comma-separated. With such a list Fastify (proxy-addr)
 * walks `X-Forwarded-For` from the right and takes the first hop that is not a trusted proxy: the address
 * the nearest trusted proxy saw, which a client cannot forge. `true`, `*` or a hop count would take the
 * left-most entry — whatever the client wrote there — and are refused.
 */
export function trustedProxies(value: string): string[] {
  const entries = value
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "");
  if (entries.length === 0) throw new Error("--trust-proxy: give the proxies' addresses or CIDRs");
  for (const entry of entries) {
    if (/^(true|\*|all|\d+)$/i.test(entry)) {
      throw new Error(
        `--trust-proxy: "${entry}" is refused: it would believe the client-written, left-most ` +
          "X-Forwarded-For hop, so any client could pick the address it is counted as. List the reverse " +
          "proxies' addresses or CIDRs instead (e.g. 127.0.0.1 or 10.0.0.0/8)",
      );
    }
    if (!NAMED_RANGES.has(entry) && !validRange(entry)) {
      throw new Error(
        `--trust-proxy: "${entry}" is not an IP address, a CIDR (10.0.0.0/8) or one of loopback, ` +
          "linklocal, uniquelocal",
      );
    }
  }
  return entries;
}

function validRange(entry: string): boolean {
  const [address, mask, extra] = entry.split("/");
  const family = isIP(address);
  if (family === 0 || extra !== undefined) return false;
  if (mask === undefined) return true;
  if (/^\d+$/.test(mask)) return Number(mask) <= (family === 4 ? 32 : 128);
  return family === 4 && isIP(mask) === 4;
}
