/**
 * The throttle of failed logins (server/login-throttle.ts) over both transports, with the real clients:
 * dgraph-js-http's `loginIntoNamespace` over HTTP `/login`, dgraph-js's over gRPC `Login`.
 */
import { status } from "@grpc/grpc-js";
import * as dgraph from "dgraph-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LoginThrottle } from "../../src/index.ts";
import {
  grpcFailure,
  type NamespaceHarness,
  startNamespaceHarness,
} from "../namespaces/namespace-harness.ts";

const INVALID = "invalid username or password";

/** A clock the test moves by hand, so that no wait depends on how fast the machine is. */
function handClock() {
  let now = 1_000_000;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

/** The message of a failed dgraph-js-http login (the client throws the server's `errors[0]`). */
async function httpLoginError(h: NamespaceHarness, userid: string, password: string): Promise<string> {
  try {
    await h.httpClient(userid, password, 0);
  } catch (e) {
    return (e as { errors?: { message: string }[] }).errors?.[0]?.message ?? (e as Error).message;
  }
  throw new Error("expected the login to fail");
}

async function grpcLogin(h: NamespaceHarness, userid: string, password: string) {
  const stub = new dgraph.DgraphClientStub(h.grpc);
  try {
    return await grpcFailure(stub.loginIntoNamespace(userid, password, 0));
  } finally {
    stub.close();
  }
}

describe("login throttle per user (loopback, where the platform logs its apps in, is never locked)", () => {
  let h: NamespaceHarness;

  beforeAll(async () => {
    const loginThrottle = new LoginThrottle({ now: handClock().now }); // one for both transports
    h = await startNamespaceHarness({ http: { loginThrottle }, grpc: { loginThrottle } });
  });
  afterAll(() => h?.close());

  it("refuses wrong passwords for a user past 10 failures, over HTTP and gRPC, and always takes the right one", async () => {
    for (let i = 0; i < 10; i++) expect(await httpLoginError(h, "groot", `guess-${i}`)).toBe(INVALID);
    const throttled =
      /^too many failed logins for user "groot" \(from all addresses\): wrong passwords for it are refused for 1 s; the right password is always accepted$/;
    expect(await httpLoginError(h, "groot", "guess-10")).toMatch(throttled);
    expect(await grpcLogin(h, "groot", "guess-11")).toEqual({
      code: status.RESOURCE_EXHAUSTED,
      details: expect.stringMatching(throttled),
    });
    // 30 more from loopback: the address is never locked, the right password always works.
    for (let i = 0; i < 30; i++) await httpLoginError(h, "groot", `more-${i}`);
    await expect(h.httpClient("groot", "password", 0)).resolves.toBeDefined();
    await expect(h.grpcClient("groot", "password", 0)).resolves.toBeDefined();
    // Another user is not affected.
    expect(await httpLoginError(h, "nobody", "x")).toBe(INVALID);
  });
});

describe("login throttle per address", () => {
  let h: NamespaceHarness;
  const clock = handClock();

  beforeAll(async () => {
    // Loopback stands for an outside client here.
    const loginThrottle = new LoginThrottle({ isExempt: () => false, now: clock.now });
    h = await startNamespaceHarness({ http: { loginThrottle }, grpc: { loginThrottle } });
  });
  afterAll(() => h?.close());

  it("makes an address wait after 5 failures, before any password is checked, on both transports", async () => {
    for (let i = 0; i < 5; i++) expect(await httpLoginError(h, `user-${i}`, "guess")).toBe(INVALID);
    const waiting =
      /^too many failed logins from your address: try again in 1 s \(each further failure doubles the wait; a successful login clears it\)$/;
    expect(await httpLoginError(h, "groot", "password")).toMatch(waiting);
    expect(await grpcLogin(h, "groot", "password")).toEqual({
      code: status.RESOURCE_EXHAUSTED,
      details: expect.stringMatching(waiting),
    });
    clock.advance(1000);
    await expect(h.httpClient("groot", "password", 0)).resolves.toBeDefined();
    // The success cleared the address.
    expect(await httpLoginError(h, "user-x", "guess")).toBe(INVALID);
  });
});

describe("login throttle turned off", () => {
  it("lets every wrong password be checked", async () => {
    const h = await startNamespaceHarness({ http: { loginThrottle: false } });
    try {
      for (let i = 0; i < 15; i++) expect(await httpLoginError(h, "groot", `guess-${i}`)).toBe(INVALID);
    } finally {
      await h.close();
    }
  });
});
