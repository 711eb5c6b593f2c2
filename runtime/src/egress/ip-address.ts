/**
 * An IP address's text read as the system reads it. ipaddr.js reads `::127.0.0.1` as IPv4-mapped
 * (`::ffff:7f00:1`) where the socket layer connects to the IPv4-compatible `::7f00:1`, so IPv6 text is
 * first put in the URL standard's canonical form (hex groups only), which ipaddr.js reads exactly.
 */
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";

export type IpAddress = ipaddr.IPv4 | ipaddr.IPv6;

/** The address, or undefined when `text` is not an IP address (`net.isIP`); a zone id is dropped. */
export function parseIp(text: string): IpAddress | undefined {
  const bare = text.replace(/%.*$/, "");
  const family = isIP(bare);
  if (family === 4) return ipaddr.IPv4.parse(bare);
  if (family === 6) return ipaddr.IPv6.parse(new URL(`http://[${bare}]/`).hostname.slice(1, -1));
  return undefined;
}
