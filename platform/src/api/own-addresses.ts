import { BlockList, isIP, isIPv4 } from "node:net";
import { networkInterfaces } from "node:os";

/** How long the machine's interface addresses are cached before they are read again (DHCP, hotplug). */
const REFRESH_MS = 60_000;

/**
 * The platform's own addresses: loopback (127.0.0.0/8, ::1) and every address of the machine's network
 * interfaces (`os.networkInterfaces()`). Requests from them are the platform's own egress — the outbound
 * calls of every tenant's functions — so they are never throttled as one client.
 */
export function ownAddressCheck(now: () => number = Date.now): (address: string) => boolean {
  const loopback = new BlockList();
  loopback.addSubnet("127.0.0.0", 8, "ipv4");
  loopback.addAddress("::1", "ipv6");
  let interfaces = new Set<string>();
  let readAt = Number.NEGATIVE_INFINITY;
  return (address) => {
    const plain = unmapped(address);
    if (isIP(plain) === 0) return false;
    if (loopback.check(plain, isIPv4(plain) ? "ipv4" : "ipv6")) return true;
    if (now() - readAt >= REFRESH_MS) {
      interfaces = interfaceAddresses();
      readAt = now();
    }
    return interfaces.has(plain.toLowerCase());
  };
}

function interfaceAddresses(): Set<string> {
  const addresses = new Set<string>();
  for (const list of Object.values(networkInterfaces())) {
    for (const info of list ?? []) addresses.add(info.address.toLowerCase().replace(/%.*$/, ""));
  }
  return addresses;
}

/** `::ffff:192.0.2.7` → `192.0.2.7`; any other address as it is. */
export function unmapped(address: string): string {
  return /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1] ?? address;
}
