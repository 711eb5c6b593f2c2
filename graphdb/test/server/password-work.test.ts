/**
 * Password hashing (scrypt, ~40 ms a value) happens off the event loop: a flood of wrong-password logins
 * and a mutation that sets many password values leave the server answering other requests meanwhile.
 * Done on the event loop, 40 logins or 50 values held it for seconds.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type NamespaceHarness, startNamespaceHarness } from "../namespaces/namespace-harness.ts";
import { request } from "./http-client.ts";

/** How the event loop fared while `work` ran: its longest stall, and how many stalls passed 30 ms (5 ms ticks). */
async function stalls(work: () => Promise<unknown>): Promise<{ longest: number; over30: number }> {
  let last = performance.now();
  let longest = 0;
  let over30 = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    const stall = now - last - 5;
    longest = Math.max(longest, stall);
    if (stall > 30) over30++;
    last = now;
  }, 5);
  try {
    await work();
  } finally {
    clearInterval(timer);
  }
  return { longest, over30 };
}

describe("password hashing off the event loop", () => {
  let h: NamespaceHarness;

  beforeAll(async () => {
    // Every password is checked here (the login throttle would refuse most of 40 wrong ones unchecked).
    h = await startNamespaceHarness({ http: { loginThrottle: false } });
  });
  afterAll(() => h?.close());

  it("checks 40 concurrent wrong-password logins without stalling the server", async () => {
    const started = performance.now();
    const stall = await stalls(() =>
      Promise.all(
        Array.from({ length: 40 }, () =>
          request(h.http, "/login", {
            body: JSON.stringify({ userid: "groot", password: "not-the-password", namespace: 0 }),
          }).then((res) => expect(res.text).toContain("invalid username or password")),
        ),
      ),
    );
    // 40 checks were really made (≈40 ms each, 4 threads): the work was not skipped.
    expect(performance.now() - started).toBeGreaterThan(200);
    // On the event loop, each check held it ~40 ms: 40 stalls over 30 ms.
    expect(stall.over30).toBeLessThan(8);
    expect(stall.longest).toBeLessThan(100);
    // The right password still works.
    await expect(h.login("groot", "password", 0)).resolves.toMatch(/^ey/);
  }, 60_000);

  it("hashes 50 password values of one mutation without stalling the server, and stores them right", async () => {
    const client = await h.grpcClient("groot", "password", 0);
    const token = await h.login("groot", "password", 0);
    const schema = await h.post(
      "/alter",
      "application/dql",
      "secret: password .\nlabel: string @index(exact) .",
      token,
    );
    expect(schema.text).toContain("Success");
    const nquads = Array.from(
      { length: 50 },
      (_, i) => `_:u${i} <label> "u${i}" .\n_:u${i} <secret> "pass-${i}" .`,
    );
    const stall = await stalls(() =>
      h.post("/mutate?commitNow=true", "application/rdf", `{ set { ${nquads.join("\n")} } }`, token),
    );
    expect(stall.longest).toBeLessThan(100);
    expect(stall.over30).toBeLessThan(8);
    const check = await client
      .newTxn({ readOnly: true })
      .query(
        '{ q(func: eq(label, ["u7", "u8"]), orderasc: label) { label ok: checkpwd(secret, "pass-7") } }',
      );
    expect(check.getJson()).toEqual({
      q: [
        { label: "u7", ok: true },
        { label: "u8", ok: false },
      ],
    });
  }, 60_000);
});
