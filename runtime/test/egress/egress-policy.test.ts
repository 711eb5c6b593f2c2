import type { LookupAddress } from "node:dns";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { networkInterfaces } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EgressAllowError, parseEgressAllow } from "../../src/egress/egress-allow.ts";
import { EgressPolicy, type HostResolver } from "../../src/egress/egress-policy.ts";
import { EgressRefusedError, egressRefusal } from "../../src/egress/egress-refused.ts";
import { createGuardedFetch } from "../../src/egress/guarded-fetch.ts";

const deployed = new EgressPolicy();

/** A resolver answering from a table; `calls` counts the lookups of each name. */
function tableResolver(table: Record<string, string[][]>): HostResolver & { calls: Record<string, number> } {
  const calls: Record<string, number> = {};
  const resolve = async (name: string): Promise<LookupAddress[]> => {
    const hostname = name.toLowerCase().replace(/\.$/, "");
    const n = (calls[hostname] = (calls[hostname] ?? 0) + 1);
    const answers = table[hostname];
    if (!answers) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
    const answer = answers[Math.min(n, answers.length) - 1];
    return answer.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };
  return Object.assign(resolve, { calls });
}

describe("the deployed egress policy", () => {
  it.each([
    ["127.0.0.1", "a loopback address"],
    ["127.255.0.9", "a loopback address"],
    ["::1", "a loopback address"],
    ["0.0.0.0", "an unspecified address (this machine)"],
    ["0.1.2.3", "an unspecified address (this machine)"],
    ["::", "an unspecified address (this machine)"],
    ["169.254.169.254", "the cloud metadata service's address"],
    ["fd00:ec2::254", "the cloud metadata service's address"],
    ["169.254.1.1", "a link-local address"],
    ["fe80::1", "a link-local address"],
    ["10.1.2.3", "a private address"],
    ["172.16.0.1", "a private address"],
    ["172.31.255.255", "a private address"],
    ["192.168.1.1", "a private address"],
    ["100.64.0.1", "a shared (carrier-grade NAT) address"],
    ["100.127.255.255", "a shared (carrier-grade NAT) address"],
    ["fc00::1", "a unique-local address"],
    ["fd12:3456::1", "a unique-local address"],
    ["224.0.0.1", "a multicast address"],
    ["ff02::1", "a multicast address"],
    ["255.255.255.255", "a broadcast address"],
    ["192.0.0.8", "a reserved address"],
    ["198.18.0.1", "a reserved address"],
    ["198.19.255.255", "a reserved address"],
    ["240.0.0.1", "a reserved address"],
    ["2001:db8::1", "a reserved address"],
    ["::ffff:127.0.0.1", "an IPv4-mapped form of 127.0.0.1, a loopback address"],
    ["::ffff:7f00:1", "an IPv4-mapped form of 127.0.0.1, a loopback address"],
    [
      "::ffff:169.254.169.254",
      "an IPv4-mapped form of 169.254.169.254, the cloud metadata service's address",
    ],
    ["::127.0.0.1", "an IPv4-compatible form of 127.0.0.1, a loopback address"],
    ["64:ff9b::7f00:1", "a NAT64 form of 127.0.0.1, a loopback address"],
    ["64:ff9b::10.0.0.1", "a NAT64 form of 10.0.0.1, a private address"],
    ["2002:7f00:1::", "a 6to4 form of 127.0.0.1, a loopback address"],
    ["2002:a9fe:a9fe::1", "a 6to4 form of 169.254.169.254, the cloud metadata service's address"],
    // Teredo: the client's IPv4 address, bit-inverted, in the last 32 bits (server 65.54.227.120 here).
    ["2001:0:4136:e378:8000:63bf:80ff:fffe", "a Teredo form of 127.0.0.1, a loopback address"],
    ["2001:0:4136:e378:8000:63bf:f5ff:fffe", "a Teredo form of 10.0.0.1, a private address"],
  ])("refuses %s as %s", (address, why) => {
    const refused = deployed.refusal(address, 80);
    expect(refused).toBeInstanceOf(EgressRefusedError);
    expect(refused?.message).toBe(
      `${address} is ${why}, which deployed apps may not reach; the platform operator can allow it with ` +
        `--egress-allow / TRELLIS_EGRESS_ALLOW (e.g. ${address.includes(":") ? `[${address}]` : address}:80)`,
    );
  });

  it.each([
    "93.184.216.34",
    "8.8.8.8",
    "172.32.0.1",
    "100.128.0.1",
    "2606:4700::1111",
    "::ffff:8.8.8.8",
    "64:ff9b::808:808",
    "2002:808:808::1",
    "2001:0:4136:e378:8000:63bf:f7f7:f7f7",
  ])("lets the public address %s through", (address) => {
    expect(deployed.refusal(address, 443)).toBeUndefined();
  });

  it("refuses this machine's own interface addresses (a service on 0.0.0.0 answers on them)", () => {
    const own = Object.values(networkInterfaces())
      .flatMap((list) => list ?? [])
      .map((info) => info.address.replace(/%.*$/, ""));
    expect(own.length).toBeGreaterThan(0);
    for (const address of own)
      expect(deployed.refusal(address, 5432), address).toBeInstanceOf(EgressRefusedError);
  });

  it("names the host the app used beside the address it resolved to", async () => {
    const policy = new EgressPolicy({}, tableResolver({ "db.internal": [["10.0.0.5"]] }));
    await expect(policy.permitted("db.internal", 5432)).rejects.toThrow(
      "db.internal (10.0.0.5) is a private address, which deployed apps may not reach; the platform operator " +
        "can allow it with --egress-allow / TRELLIS_EGRESS_ALLOW (e.g. 10.0.0.5:5432)",
    );
  });

  it("refuses hostnames that resolve to refused addresses, and keeps only the permitted ones of a mixed answer", async () => {
    const resolver = tableResolver({
      "localhost.example": [["127.0.0.1", "::1"]],
      "mixed.example": [["10.0.0.1", "93.184.216.34", "::1"]],
    });
    const policy = new EgressPolicy({}, resolver);
    await expect(policy.permitted("localhost.example", 80)).rejects.toThrow(
      "localhost.example (127.0.0.1) is a loopback address",
    );
    expect(await policy.permitted("mixed.example", 80)).toEqual([{ address: "93.184.216.34", family: 4 }]);
  });

  it("checks IP literals without resolving them", async () => {
    const resolver = tableResolver({});
    const policy = new EgressPolicy({}, resolver);
    await expect(policy.permitted("[::1]", 80)).rejects.toThrow("::1 is a loopback address");
    await expect(policy.permitted("127.0.0.1", 80)).rejects.toThrow("127.0.0.1 is a loopback address");
    expect(await policy.permitted("8.8.8.8", 53)).toEqual([{ address: "8.8.8.8", family: 4 }]);
    expect(resolver.calls).toEqual({});
  });

  it("answers only permitted addresses to net's lookup, in both of its shapes", async () => {
    const policy = new EgressPolicy({}, tableResolver({ "mixed.example": [["127.0.0.1", "93.184.216.34"]] }));
    const lookup = policy.lookupFor(80);
    const all = await new Promise((resolve, reject) =>
      lookup("mixed.example", { all: true }, (err, addresses) => (err ? reject(err) : resolve(addresses))),
    );
    expect(all).toEqual([{ address: "93.184.216.34", family: 4 }]);
    const one = await new Promise((resolve, reject) =>
      lookup("mixed.example", {}, (err, address, family) => (err ? reject(err) : resolve([address, family]))),
    );
    expect(one).toEqual(["93.184.216.34", 4]);
  });
});

describe("the operator's allow entries", () => {
  it("parses CIDRs, addresses and hostnames, each with an optional port", () => {
    const entries = parseEgressAllow(
      "10.0.0.0/8, db.internal:5432,127.0.0.1:11434 [::1]:5432 fd00::/8 Host.Example.",
    );
    expect(entries.map((e) => [e.text, e.port])).toEqual([
      ["10.0.0.0/8", undefined],
      ["db.internal:5432", 5432],
      ["127.0.0.1:11434", 11434],
      ["[::1]:5432", 5432],
      ["fd00::/8", undefined],
      ["Host.Example.", undefined],
    ]);
    expect(entries[5].target).toEqual({ hostname: "host.example" });
  });

  it.each(["10.0.0.0/33", "127.0.0.1:0", "127.0.0.1:70000", "db internal:x", "[::1]:", "::1:5432:", "1.2.3"])(
    "refuses the malformed entry %s with what entries look like",
    (text) => {
      expect(() => parseEgressAllow(text)).toThrow(EgressAllowError);
      expect(() => parseEgressAllow(text)).toThrow(
        /e\.g\. 10\.0\.0\.0\/8, 127\.0\.0\.1:11434, db\.internal:5432/,
      );
    },
  );

  it("opens exactly the address and port an entry names", () => {
    const policy = new EgressPolicy({ allow: "127.0.0.1:11434,[::1]:5432,10.0.0.0/8" });
    expect(policy.refusal("127.0.0.1", 11434)).toBeUndefined();
    expect(policy.refusal("127.0.0.1", 11435)).toBeInstanceOf(EgressRefusedError);
    expect(policy.refusal("127.0.0.2", 11434)).toBeInstanceOf(EgressRefusedError);
    expect(policy.refusal("::1", 5432)).toBeUndefined();
    expect(policy.refusal("::1", 5433)).toBeInstanceOf(EgressRefusedError);
    expect(policy.refusal("::ffff:127.0.0.1", 11434)).toBeUndefined();
    expect(policy.refusal("10.200.3.4", 1)).toBeUndefined();
    expect(policy.refusal("11.0.0.1", 1)).toBeUndefined();
    expect(policy.refusal("192.168.0.1", 1)).toBeInstanceOf(EgressRefusedError);
  });

  it("opens a hostname entry for what that name resolves to, on its port only", async () => {
    const resolver = tableResolver({ "db.internal": [["10.0.0.5"]], "other.internal": [["10.0.0.5"]] });
    const policy = new EgressPolicy({ allow: ["db.internal:5432"] }, resolver);
    expect(await policy.permitted("db.internal", 5432)).toEqual([{ address: "10.0.0.5", family: 4 }]);
    expect(await policy.permitted("DB.Internal.", 5432)).toEqual([{ address: "10.0.0.5", family: 4 }]);
    await expect(policy.permitted("db.internal", 5433)).rejects.toThrow(EgressRefusedError);
    await expect(policy.permitted("other.internal", 5432)).rejects.toThrow(EgressRefusedError);
  });

  it("lets everything through when permissive", async () => {
    const policy = new EgressPolicy({ mode: "permissive" });
    expect(policy.refusal("127.0.0.1", 1)).toBeUndefined();
    expect(policy.refusal("169.254.169.254", 80)).toBeUndefined();
    expect(await policy.permitted("::1", 80)).toEqual([{ address: "::1", family: 6 }]);
  });
});

describe("guarded fetch", () => {
  let server: Server;
  let port: number;
  let requests = 0;

  beforeAll(async () => {
    server = createServer((req, res) => {
      requests++;
      res.end(`secret ${req.url}`);
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((r) => server.close(r)));

  it("refuses loopback by literal and by name before any byte is sent, and allows exactly what is opened", async () => {
    const resolver = tableResolver({ "internal.example": [["127.0.0.1"]] });
    const guarded = createGuardedFetch({}, resolver);
    const before = requests;
    for (const url of [
      `http://127.0.0.1:${port}/a`,
      `http://internal.example:${port}/b`,
      `http://[::ffff:127.0.0.1]:${port}/c`,
    ]) {
      const error = await guarded(url).catch((e: unknown) => e);
      expect(egressRefusal(error)?.message, url).toMatch(
        /is a loopback address|IPv4-mapped form of 127\.0\.0\.1/,
      );
    }
    expect(requests).toBe(before);
    await guarded.close();

    const opened = createGuardedFetch({ allow: [`127.0.0.1:${port}`] }, resolver);
    expect(await (await opened(`http://127.0.0.1:${port}/a`)).text()).toBe("secret /a");
    expect(await (await opened(`http://internal.example:${port}/b`)).text()).toBe("secret /b");
    const otherPort = await opened(`http://127.0.0.1:${port + 1}/`).catch((e: unknown) => e);
    expect(egressRefusal(otherPort)?.message).toContain(`(e.g. 127.0.0.1:${port + 1})`);
    await opened.close();
  });

  it("never connects to loopback when the DNS answer changes between a check and the connection (rebinding)", async () => {
    // A public address first (what a check-then-connect guard would have approved), loopback after.
    const resolver = tableResolver({ "rebind.example": [["93.184.216.34"], ["127.0.0.1"]] });
    const policy = new EgressPolicy({}, resolver);
    expect(await policy.permitted("rebind.example", port)).toEqual([{ address: "93.184.216.34", family: 4 }]);
    const guarded = createGuardedFetch(policy);
    const before = requests;
    const error = await guarded(`http://rebind.example:${port}/steal`).catch((e: unknown) => e);
    expect(egressRefusal(error)?.message).toMatch(/^rebind\.example \(127\.0\.0\.1\) is a loopback address/);
    expect(resolver.calls["rebind.example"]).toBe(2);
    expect(requests).toBe(before);
    await guarded.close();
  });
});
