/**
 * The operator's openings in the egress policy (`--egress-allow`, `TRELLIS_EGRESS_ALLOW`): a CIDR range,
 * an IP address or a hostname, each optionally with `:port` (IPv6 in brackets when a port follows:
 * `[::1]:5432`, `[fd00::/8]:443`). `10.0.0.0/8,db.internal:5432,127.0.0.1:11434` opens a private network,
 * one database by name, and a local model server.
 */
import { type IpAddress, parseIp } from "./ip-address.ts";

export interface AllowEntry {
  /** As the operator wrote it. */
  text: string;
  /** A range (an IP address is a range of one), or a hostname (lower case, no trailing dot). */
  target: { range: [IpAddress, number] } | { hostname: string };
  /** Undefined: every port. */
  port?: number;
}

/** An allow entry that cannot be read; the message says what the entries look like. */
export class EgressAllowError extends Error {
  override name = "EgressAllowError";
}

const HOSTNAME =
  /^(?=.{1,253}$)([a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)(\.[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)*$/;

/** The entries of a comma- or space-separated list (empty text: none). Throws EgressAllowError. */
export function parseEgressAllow(text: string | readonly string[]): AllowEntry[] {
  const items = typeof text === "string" ? text.split(/[\s,]+/) : text.flatMap((t) => t.split(/[\s,]+/));
  return items.filter((item) => item !== "").map(parseEntry);
}

function parseEntry(text: string): AllowEntry {
  const { host, port } = splitPort(text);
  const bare = host.toLowerCase().replace(/\.$/, "");
  if (bare.includes("/")) {
    const [base, length] = bare.split("/");
    const address = parseIp(base);
    const bits = Number(length);
    if (address === undefined || !/^\d{1,3}$/.test(length) || bits > (address.kind() === "ipv4" ? 32 : 128)) {
      fail(text);
    }
    return { text, target: { range: [address, bits] }, port };
  }
  const address = parseIp(bare);
  if (address !== undefined) {
    return { text, target: { range: [address, address.kind() === "ipv4" ? 32 : 128] }, port };
  }
  if (!HOSTNAME.test(bare) || /^[\d.]+$/.test(bare)) fail(text);
  return { text, target: { hostname: bare }, port };
}

/** `host[:port]`, `[v6]:port`, or a bare IPv6 address or range (several colons, no port). */
function splitPort(text: string): { host: string; port?: number } {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(text);
  if (bracketed) return { host: bracketed[1], port: portOf(bracketed[2], text) };
  if ((text.match(/:/g) ?? []).length > 1) return { host: text };
  const colon = text.lastIndexOf(":");
  if (colon === -1) return { host: text };
  return { host: text.slice(0, colon), port: portOf(text.slice(colon + 1), text) };
}

function portOf(digits: string | undefined, text: string): number | undefined {
  if (digits === undefined) return undefined;
  const port = Number(digits);
  if (!/^\d{1,5}$/.test(digits) || port < 1 || port > 65535) fail(text);
  return port;
}

function fail(text: string): never {
  throw new EgressAllowError(
    `egress allow entry "${text}" is not a CIDR range, IP address or hostname with an optional :port ` +
      `(e.g. 10.0.0.0/8, 127.0.0.1:11434, db.internal:5432, [::1]:5432)`,
  );
}

/** Whether `entry` opens `port` on `address` (parsed) reached as `hostname` (lower case, as the app named it). */
export function allows(entry: AllowEntry, address: IpAddress, port: number, hostname: string): boolean {
  if (entry.port !== undefined && entry.port !== port) return false;
  if ("hostname" in entry.target) return entry.target.hostname === hostname;
  const [base] = entry.target.range;
  return base.kind() === address.kind() && address.match(entry.target.range);
}
