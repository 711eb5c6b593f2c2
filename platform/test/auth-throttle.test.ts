import { networkInterfaces } from "node:os";
import { describe, expect, it } from "vitest";
import { AuthThrottle, type Credential, clientKey } from "../src/api/auth-throttle.ts";

const admin: Credential = { kind: "admin" };
const deployOf = (app: string): Credential => ({ kind: "deploy", app });

/** The throttle on its own, with a hand-driven clock. */
describe("AuthThrottle", () => {
  const clock = () => {
    let now = 1_000_000;
    return { now: () => now, advance: (ms: number) => (now += ms) };
  };

  it("lets an address fail 5 times, then makes it wait 1 s, 2 s, 4 s … up to 15 min", () => {
    const c = clock();
    const throttle = new AuthThrottle({ now: c.now });
    for (let i = 1; i <= 4; i++) {
      expect(throttle.retryAfterSeconds("198.51.100.1")).toBe(0);
      expect(throttle.failed("198.51.100.1", admin).address).toEqual({ failures: i, lockedForSeconds: 0 });
    }
    const waits: number[] = [];
    for (let i = 0; i < 13; i++) {
      expect(throttle.retryAfterSeconds("198.51.100.1")).toBe(0);
      // A different credential each time: the address alone is what waits here.
      const { address } = throttle.failed("198.51.100.1", deployOf(`app-${i}`));
      expect(throttle.retryAfterSeconds("198.51.100.1")).toBe(address?.lockedForSeconds);
      waits.push(address?.lockedForSeconds ?? -1);
      c.advance((address?.lockedForSeconds ?? 0) * 1000);
    }
    expect(waits).toEqual([1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 900, 900, 900]);
  });

  it("counts each address on its own, and forgets one that presents the admin token", () => {
    const c = clock();
    const throttle = new AuthThrottle({ now: c.now });
    for (let i = 0; i < 5; i++) throttle.failed("198.51.100.1", admin);
    expect(throttle.retryAfterSeconds("198.51.100.1")).toBe(1);
    expect(throttle.retryAfterSeconds("198.51.100.2")).toBe(0);
    c.advance(1000);
    throttle.succeeded("198.51.100.1");
    expect(throttle.size).toBe(0);
    expect(throttle.failed("198.51.100.1", admin).address).toEqual({ failures: 1, lockedForSeconds: 0 });
  });

  it("never throttles the platform's own addresses: loopback and the machine's interfaces", () => {
    const throttle = new AuthThrottle();
    const own = ["127.0.0.1", "127.3.4.5", "::1", "::ffff:127.0.0.1"];
    for (const list of Object.values(networkInterfaces()))
      for (const info of list ?? []) own.push(info.address);
    for (const address of own) {
      for (let i = 0; i < 60; i++) expect(throttle.failed(address, deployOf("x")).address).toBeUndefined();
      expect(throttle.retryAfterSeconds(address)).toBe(0);
    }
    expect(throttle.size).toBe(0);
    expect(throttle.isOwn("198.51.100.1")).toBe(false);
  });

  it("counts a credential's failures from every address; past 10 a wrong token waits, without lengthening it", () => {
    const c = clock();
    const throttle = new AuthThrottle({ now: c.now });
    for (let i = 1; i <= 9; i++) {
      const outcome = throttle.failed(`198.51.100.${i}`, admin);
      expect(outcome.credential).toEqual({ failures: i, lockedForSeconds: 0 });
      expect(outcome.refusedForSeconds).toBe(0);
    }
    expect(throttle.failed("198.51.100.10", admin)).toMatchObject({
      credential: { failures: 10, lockedForSeconds: 1 },
      refusedForSeconds: 0,
    });
    // While it waits, wrong tokens are refused and not counted; other credentials are not affected.
    const refused = throttle.failed("127.0.0.1", admin);
    expect(refused).toEqual({ credential: { failures: 10, lockedForSeconds: 1 }, refusedForSeconds: 1 });
    expect(throttle.failed("127.0.0.1", deployOf("shop")).refusedForSeconds).toBe(0);
    c.advance(1000);
    expect(throttle.failed("127.0.0.1", admin)).toEqual({
      credential: { failures: 11, lockedForSeconds: 2 },
      refusedForSeconds: 0,
    });
    // A success clears an address, never a credential: a scanner's count survives its holder's CI.
    throttle.succeeded("127.0.0.1");
    expect(throttle.failed("127.0.0.1", admin).refusedForSeconds).toBe(2);
  });

  it("forgets an address and a credential an hour after their last failure", () => {
    const c = clock();
    const throttle = new AuthThrottle({ now: c.now });
    for (let i = 0; i < 12; i++) {
      throttle.failed("198.51.100.1", admin);
      c.advance(60_000);
    }
    c.advance(60 * 60_000);
    expect(throttle.retryAfterSeconds("198.51.100.1")).toBe(0);
    expect(throttle.failed("198.51.100.1", admin)).toEqual({
      address: { failures: 1, lockedForSeconds: 0 },
      credential: { failures: 1, lockedForSeconds: 0 },
      refusedForSeconds: 0,
    });
  });

  it("remembers at most maxKeys addresses and credentials, dropping the stalest", () => {
    const c = clock();
    const throttle = new AuthThrottle({
      now: c.now,
      address: { maxKeys: 1000 },
      credential: { maxKeys: 10 },
    });
    for (let i = 0; i < 200_000; i++) {
      throttle.failed(`10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`, deployOf(`app-${i}`));
      c.advance(1);
    }
    expect(throttle.size).toBe(1000);
    expect(throttle.retryAfterSeconds("10.0.0.0")).toBe(0); // long evicted
    expect(throttle.failed("198.51.100.1", deployOf("app-0")).credential.failures).toBe(1);
  });

  it("counts guesses still being checked, so a parallel burst cannot slip past the allowance", async () => {
    const throttle = new AuthThrottle();
    let release = () => {};
    const gate = new Promise<void>((r) => (release = r));
    const admitted: Promise<void>[] = [];
    let refused = 0;
    for (let i = 0; i < 20; i++) {
      if (throttle.retryAfterSeconds("198.51.100.9") > 0) refused++;
      else admitted.push(throttle.checking("198.51.100.9", () => gate));
    }
    expect(admitted).toHaveLength(5);
    expect(refused).toBe(15);
    release();
    await Promise.all(admitted);
    expect(throttle.size).toBe(0); // none of them failed: nothing to remember
  });

  it("counts an IPv6 client by its /64, and an IPv4-mapped address as IPv4", () => {
    expect(clientKey("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2::/64");
    expect(clientKey("2001:db8:1:2:bbbb:cccc:dddd:eeee")).toBe("2001:db8:1:2::/64");
    expect(clientKey("2001:0db8::1")).toBe("2001:db8:0:0::/64");
    expect(clientKey("::1")).toBe("0:0:0:0::/64");
    expect(clientKey("::ffff:192.0.2.7")).toBe("192.0.2.7");
    expect(clientKey("192.0.2.7")).toBe("192.0.2.7");
    const throttle = new AuthThrottle();
    for (let i = 0; i < 5; i++) throttle.failed(`2001:db8:1:2::${i + 1}`, admin);
    expect(throttle.retryAfterSeconds("2001:db8:1:2::ffff")).toBe(1);
    expect(throttle.retryAfterSeconds("2001:db8:1:3::1")).toBe(0);
  });
});
