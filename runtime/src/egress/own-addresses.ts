/**
 * This machine's own addresses (every network interface's): a service listening on 0.0.0.0 is reached
 * through the host's public address too, so those are refused like loopback. Read again at most once a
 * second, as interfaces come and go.
 */
import { networkInterfaces } from "node:os";
import ipaddr from "ipaddr.js";

const TTL_MS = 1_000;

let cached: { at: number; addresses: Set<string> } | undefined;

/** The addresses of this machine's interfaces, in ipaddr.js's normalized form, without zone ids. */
export function ownAddresses(now = Date.now()): ReadonlySet<string> {
  if (cached === undefined || now - cached.at >= TTL_MS) {
    const addresses = new Set<string>();
    for (const list of Object.values(networkInterfaces())) {
      for (const info of list ?? []) {
        const bare = info.address.replace(/%.*$/, "");
        if (ipaddr.isValid(bare)) addresses.add(ipaddr.parse(bare).toNormalizedString());
      }
    }
    cached = { at: now, addresses };
  }
  return cached.addresses;
}
