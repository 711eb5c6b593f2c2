import { describe, expect, it } from "vitest";
import { AuthThrottle, clientKey } from "../src/api/auth-throttle.ts";

/** The per-address backoff on its own, with a hand-driven clock. */
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
      expect(throttle.failed("198.51.100.1")).toEqual({ failures: i, lockedForSeconds: 0 });
    }
    const waits: number[] = [];
    for (let i = 0; i < 13; i++) {
      expect(throttle.retryAfterSeconds("198.51.100.1")).toBe(0);
      const { lockedForSeconds } = throttle.failed("198.51.100.1");
      expect(throttle.retryAfterSeconds("198.51.100.1")).toBe(lockedForSeconds);
      waits.push(lockedForSeconds);
      c.advance(lockedForSeconds * 1000);
    }
    expect(waits).toEqual([1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 900, 900, 900]);
  });

  it("counts each address on its own, and forgets one that presents the admin token", () => {
    const c = clock();
    const throttle = new AuthThrottle({ now: c.now });
    for (let i = 0; i < 5; i++) throttle.failed("198.51.100.1");
    expect(throttle.retryAfterSeconds("198.51.100.1")).toBe(1);
    expect(throttle.retryAfterSeconds("198.51.100.2")).toBe(0);
    c.advance(1000);
    throttle.succeeded("198.51.100.1");
    expect(throttle.size).toBe(0);
    expect(throttle.failed("198.51.100.1")).toEqual({ failures: 1, lockedForSeconds: 0 });
  });

  it("forgets an address an hour after its last failure", () => {
    const c = clock();
    const throttle = new AuthThrottle({ now: c.now });
    for (let i = 0; i < 7; i++) {
      throttle.failed("198.51.100.1");
      c.advance(4000);
    }
    c.advance(60 * 60_000);
    expect(throttle.retryAfterSeconds("198.51.100.1")).toBe(0);
    expect(throttle.failed("198.51.100.1").failures).toBe(1);
  });

  it("remembers at most maxAddresses, dropping the stalest, in O(1) per failure", () => {
    const c = clock();
    const throttle = new AuthThrottle({ now: c.now, maxAddresses: 1000 });
    const started = performance.now();
    for (let i = 0; i < 200_000; i++) {
      throttle.failed(`10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`);
      c.advance(1);
    }
    expect(performance.now() - started).toBeLessThan(2000);
    expect(throttle.size).toBe(1000);
    expect(throttle.retryAfterSeconds("10.0.0.0")).toBe(0); // long evicted
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
    for (let i = 0; i < 5; i++) throttle.failed(`2001:db8:1:2::${i + 1}`);
    expect(throttle.retryAfterSeconds("2001:db8:1:2::ffff")).toBe(1);
    expect(throttle.retryAfterSeconds("2001:db8:1:3::1")).toBe(0);
  });
});
