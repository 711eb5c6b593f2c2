/**
 * The IPv4 address an IPv6 address carries, where the network delivers it to that IPv4 host: IPv4-mapped
 * (`::ffff:127.0.0.1`), IPv4-compatible (`::127.0.0.1`), SIIT-translated (`::ffff:0:a.b.c.d`), NAT64
 * (`64:ff9b::a.b.c.d`), 6to4 (`2002:AABB:CCDD::`) and Teredo (`2001:0::…`, the client's address in the last
 * 32 bits, inverted). Such a form of a refused IPv4 address is refused too.
 */
import ipaddr from "ipaddr.js";

/** The form's name, with its article, as the refusal words it ("an IPv4-mapped form of 127.0.0.1"). */
export type EmbeddingForm =
  | "an IPv4-mapped"
  | "an IPv4-compatible"
  | "an IPv4-translated"
  | "a NAT64"
  | "a 6to4"
  | "a Teredo";

/** Where each form keeps its IPv4 address: the first of its two 16-bit parts, and whether it is inverted. */
const FORMS: [cidr: string, form: EmbeddingForm, firstPart: number, inverted: boolean][] = [
  ["::ffff:0:0/96", "an IPv4-mapped", 6, false],
  ["::ffff:0:0:0/96", "an IPv4-translated", 6, false],
  ["64:ff9b::/96", "a NAT64", 6, false],
  ["2002::/16", "a 6to4", 1, false],
  ["2001::/32", "a Teredo", 6, true],
  // Last: it also holds `::` and `::1`, which are IPv6's own (refused-ranges.ts judges them first).
  ["::/96", "an IPv4-compatible", 6, false],
];

const PARSED = FORMS.map(([cidr, form, firstPart, inverted]) => ({
  range: ipaddr.parseCIDR(cidr),
  form,
  firstPart,
  mask: inverted ? 0xffff : 0,
}));

/** The IPv4 address inside `address`, and the form it is in; undefined when it carries none. */
export function embeddedIPv4(address: ipaddr.IPv6): { ipv4: ipaddr.IPv4; form: EmbeddingForm } | undefined {
  for (const { range, form, firstPart, mask } of PARSED) {
    if (!address.match(range)) continue;
    const high = address.parts[firstPart] ^ mask;
    const low = address.parts[firstPart + 1] ^ mask;
    return { ipv4: new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]), form };
  }
  return undefined;
}
