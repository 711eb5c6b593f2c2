/**
 * Where a deployed app's connections may go. The `deployed` policy (the default) refuses this machine and
 * the networks around it (refused-ranges.ts, embedded-ipv4.ts, own-addresses.ts) unless the operator's
 * allow entries open them (egress-allow.ts); `permissive` (`trellis dev`, on the developer's own machine)
 * lets everything through. The check is made on the address a connection is about to use, at connect
 * time: `lookupFor` is the resolver handed to net/tls connect, so no answer of a rebinding DNS server gets
 * past it, and IP literals (which Node connects to without a lookup) are checked by `permitted` directly.
 */
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { isIP, type LookupFunction } from "node:net";
import type ipaddr from "ipaddr.js";
import { type AllowEntry, allows, parseEgressAllow } from "./egress-allow.ts";
import { EgressRefusedError } from "./egress-refused.ts";
import { embeddedIPv4 } from "./embedded-ipv4.ts";
import { type IpAddress, parseIp } from "./ip-address.ts";
import { ownAddresses } from "./own-addresses.ts";
import { type RefusedKind, refusedRange } from "./refused-ranges.ts";

export type EgressMode = "deployed" | "permissive";

/** The policy as plain data (it crosses to worker threads): the mode and the operator's allow entries. */
export interface EgressOptions {
  /** Default `deployed`. */
  mode?: EgressMode;
  /** Entries opened in `deployed` mode: a list, or one comma-separated text (`TRELLIS_EGRESS_ALLOW`). */
  allow?: string | readonly string[];
}

export const PERMISSIVE_EGRESS: EgressOptions = { mode: "permissive" };

/** Resolves a hostname to every address it has (the system resolver by default). */
export type HostResolver = (hostname: string) => Promise<LookupAddress[]>;

const systemResolver: HostResolver = (hostname) =>
  new Promise((resolve, reject) =>
    dnsLookup(hostname, { all: true, verbatim: true }, (err, addresses) =>
      err ? reject(err) : resolve(addresses),
    ),
  );

export class EgressPolicy {
  readonly permissive: boolean;
  readonly allow: readonly AllowEntry[];

  /** Throws EgressAllowError on an allow entry it cannot read. */
  constructor(
    options: EgressOptions = {},
    private readonly resolver: HostResolver = systemResolver,
  ) {
    this.permissive = options.mode === "permissive";
    this.allow = parseEgressAllow(options.allow ?? []);
  }

  /**
   * Why connecting to `address` on `port` is refused, or undefined when it is not; `host` is the name the
   * app used (the address itself for an IP literal), which hostname allow entries match.
   */
  refusal(address: string, port: number, host: string = address): EgressRefusedError | undefined {
    if (this.permissive) return undefined;
    const parsed = parseAddress(address);
    const embedded = parsed.kind() === "ipv6" ? embeddedIPv4(parsed as ipaddr.IPv6) : undefined;
    const hostname = bareHost(host).toLowerCase().replace(/\.$/, "");
    const opened = (a: IpAddress) => this.allow.some((entry) => allows(entry, a, port, hostname));
    if (opened(parsed) || (embedded !== undefined && opened(embedded.ipv4))) return undefined;
    let why = whyRefused(parsed);
    if (why === undefined && embedded !== undefined) {
      const inner = whyRefused(embedded.ipv4);
      if (inner !== undefined) why = `${embedded.form} form of ${embedded.ipv4}, ${inner}`;
    }
    if (why === undefined) return undefined;
    const bare = bareHost(address);
    const shown = hostname === bare.toLowerCase() ? bare : `${host} (${bare})`;
    const entry = `${bare.includes(":") ? `[${bare}]` : bare}:${port}`;
    return EgressRefusedError.address(shown, why, entry);
  }

  /**
   * The addresses of `host` a connection to `port` may use, in the resolver's order (an IP literal is its
   * own one address). Throws the first refusal when every address is refused.
   */
  async permitted(host: string, port: number): Promise<LookupAddress[]> {
    const bare = bareHost(host);
    const family = isIP(bare);
    if (family !== 0) {
      const refused = this.refusal(bare, port, bare);
      if (refused) throw refused;
      return [{ address: bare, family }];
    }
    const all = await this.resolver(bare);
    if (this.permissive) return all;
    const allowed = all.filter((a) => this.refusal(a.address, port, bare) === undefined);
    if (allowed.length > 0) return allowed;
    if (all.length === 0)
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${bare}`), { code: "ENOTFOUND" });
    throw this.refusal(all[0].address, port, bare);
  }

  /**
   * The `lookup` for net/tls connect to `port`: it answers only permitted addresses (of the family asked
   * for), so the socket connects to an address this policy checked.
   */
  lookupFor(port: number): LookupFunction {
    return (hostname, options, callback) => {
      const wanted = options.family === 4 || options.family === 6 ? options.family : undefined;
      this.permitted(hostname, port).then(
        (addresses) => {
          const usable = addresses.filter((a) => wanted === undefined || a.family === wanted);
          if (usable.length === 0) {
            const err = Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
            callback(err, options.all ? [] : "", 0);
          } else if (options.all) callback(null, usable);
          else callback(null, usable[0].address, usable[0].family);
        },
        (err: NodeJS.ErrnoException) => callback(err, options.all ? [] : "", 0),
      );
    };
  }
}

/** `[::1]` → `::1`; a zone id (`fe80::1%eth0`) is dropped. */
function bareHost(host: string): string {
  const unbracketed = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
  return unbracketed.replace(/%.*$/, "");
}

function parseAddress(address: string): IpAddress {
  const parsed = parseIp(bareHost(address));
  if (parsed === undefined) throw new Error(`not an IP address: ${address}`);
  return parsed;
}

const PHRASES: Partial<Record<RefusedKind, string>> = {
  unspecified: "an unspecified address (this machine)",
  "cloud metadata": "the cloud metadata service's address",
};

/** The rest of "X is …" for a refused address, or undefined. */
function whyRefused(address: IpAddress): string | undefined {
  const kind = refusedRange(address);
  if (kind !== undefined) return PHRASES[kind] ?? `a ${kind} address`;
  if (ownAddresses().has(address.toNormalizedString())) {
    return "an address of this machine (one of its network interfaces)";
  }
  return undefined;
}
