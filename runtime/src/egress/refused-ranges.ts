/**
 * The address ranges a deployed app may not reach unless the operator allows them: this machine
 * (loopback, unspecified), the networks around it (private, shared, link-local — the cloud metadata
 * service — unique-local), and addresses that are not one host (multicast, broadcast, reserved,
 * documentation, benchmarking). IPv6 forms that carry an IPv4 address (mapped, compatible, NAT64, 6to4)
 * are judged by the IPv4 address they carry (embedded-ipv4.ts).
 */
import ipaddr from "ipaddr.js";

/** Why an address is refused, as the error words it ("127.0.0.1 is a loopback address"). */
export type RefusedKind =
  | "loopback"
  | "unspecified"
  | "link-local"
  | "cloud metadata"
  | "private"
  | "shared (carrier-grade NAT)"
  | "unique-local"
  | "site-local"
  | "multicast"
  | "broadcast"
  | "reserved"
  | "local-use NAT64";

const RANGES: [cidr: string, kind: RefusedKind][] = [
  ["127.0.0.0/8", "loopback"],
  ["::1/128", "loopback"],
  ["0.0.0.0/8", "unspecified"],
  ["::/128", "unspecified"],
  ["169.254.169.254/32", "cloud metadata"],
  ["169.254.0.0/16", "link-local"],
  ["fe80::/10", "link-local"],
  ["fd00:ec2::254/128", "cloud metadata"],
  ["10.0.0.0/8", "private"],
  ["172.16.0.0/12", "private"],
  ["192.168.0.0/16", "private"],
  ["100.64.0.0/10", "shared (carrier-grade NAT)"],
  ["fc00::/7", "unique-local"],
  ["fec0::/10", "site-local"],
  ["224.0.0.0/4", "multicast"],
  ["ff00::/8", "multicast"],
  ["255.255.255.255/32", "broadcast"],
  ["192.0.0.0/24", "reserved"],
  ["192.0.2.0/24", "reserved"],
  ["198.18.0.0/15", "reserved"],
  ["198.51.100.0/24", "reserved"],
  ["203.0.113.0/24", "reserved"],
  ["240.0.0.0/4", "reserved"],
  ["100::/64", "reserved"],
  ["2001:2::/48", "reserved"],
  ["2001:db8::/32", "reserved"],
  ["64:ff9b:1::/48", "local-use NAT64"],
];

const PARSED = RANGES.map(([cidr, kind]) => ({ range: ipaddr.parseCIDR(cidr), kind }));

/** The kind of refused range `address` (a parsed IPv4 or IPv6 address) is in, if any; first match wins. */
export function refusedRange(address: ipaddr.IPv4 | ipaddr.IPv6): RefusedKind | undefined {
  for (const { range, kind } of PARSED) {
    if (range[0].kind() === address.kind() && address.match(range)) return kind;
  }
  return undefined;
}
