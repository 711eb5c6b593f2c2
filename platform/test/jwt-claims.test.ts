/**
 * A user JWT's verified claims reach the functions of a real built app (one TypeScript build, shared)
 * through the platform's gateway: `auth.getJWTClaims()` answers the claims of the call being served,
 * null with an API key, and two calls at once with different tokens each see their own.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { buildApp, packBuild } from "@trellis/runtime";
import { exportSPKI, generateKeyPair, type JWTPayload, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWasmAppRuntime } from "../src/wasm-app-runtime.ts";
import { type Json, startTestPlatform, type TestPlatform } from "./support/test-platform.ts";

type KeyPair = Awaited<ReturnType<typeof generateKeyPair>>;

const SOURCE = `import { auth } from "@trellis/sdk";

interface Claims {
  sub: string;
  role?: string;
}

/** The caller's sub, or null without a user JWT. */
export function whoAmI(): string | null {
  const claims = auth.getJWTClaims<Claims>();
  return claims ? claims.sub : null;
}

/** Every claim, as JSON ("null" without a user JWT). */
export function claims(): string {
  return JSON.stringify(auth.getJWTClaims());
}

/** The claims read before and after some work (another call's never show up), and when it ran. */
export function slowWhoAmI(ms: number): string {
  const start = Date.now();
  const before = auth.getJWTClaims<Claims>();
  while (Date.now() < start + ms) {}
  const after = auth.getJWTClaims<Claims>();
  const subs = (before ? before.sub : "none") + "/" + (after ? after.sub : "none");
  return JSON.stringify({ subs, start, end: Date.now() });
}
`;

/** `/graphql` takes the users' JWTs (and API keys); `/public` needs nothing. */
const MANIFEST = {
  endpoints: {
    default: { type: "graphql", path: "/graphql", auth: "jwt" },
    public: { type: "graphql", path: "/public", auth: "none" },
  },
  limits: { timeoutMs: 10_000 },
};

describe("a user JWT's claims in the function (auth.getJWTClaims)", () => {
  let t: TestPlatform;
  let apiKey: string;
  let signer: KeyPair;

  const token = (claims: JWTPayload) =>
    new SignJWT(claims).setProtectedHeader({ alg: "ES256" }).setExpirationTime("5m").sign(signer.privateKey);
  const call = async (
    query: string,
    bearer?: string,
    path = "/graphql",
  ): Promise<{ status: number; body: Json }> => {
    const res = await fetch(`${t.platform.url}/apps/claims${path}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
      },
      body: JSON.stringify({ query }),
    });
    const { data, errors } = (await res.json()) as Json;
    return { status: res.status, body: errors ? { data, errors } : { data } };
  };

  beforeAll(async () => {
    signer = await generateKeyPair("ES256");
    t = await startTestPlatform({ runtime: createWasmAppRuntime() });
    const appDir = join(t.tmp, "claims-app");
    await mkdir(join(appDir, "src"), { recursive: true });
    await writeFile(join(appDir, "package.json"), '{ "name": "claims-app", "private": true }');
    await writeFile(join(appDir, "trellis.json"), JSON.stringify(MANIFEST));
    await writeFile(join(appDir, "src/index.ts"), SOURCE);
    const built = await buildApp(appDir);
    const created = await t.api("POST", "/api/apps", { name: "claims" });
    const pems = JSON.stringify({ main: await exportSPKI(signer.publicKey) });
    expect((await t.api("PUT", "/api/apps/claims/env/TRELLIS_JWT_PEMS", { value: pems })).status).toBe(200);
    const deployed = await t.deploy("claims", await packBuild(built.outDir), created.body.deployToken);
    expect(deployed.status).toBe(201);
    apiKey = (await t.api("POST", "/api/apps/claims/keys", { name: "test" })).body.secret;
  }, 180_000);
  afterAll(() => t?.close());

  it("answers the verified token's claims, and null with an API key or on a public endpoint", async () => {
    const bearer = await token({ sub: "user-1", role: "admin", org: { id: 7 } });
    expect(await call("{ whoAmI }", bearer)).toEqual({ status: 200, body: { data: { whoAmI: "user-1" } } });
    const all = await call("{ claims }", bearer);
    expect(all.status).toBe(200);
    expect(JSON.parse(all.body.data.claims)).toEqual({
      sub: "user-1",
      role: "admin",
      org: { id: 7 },
      exp: expect.any(Number),
    });
    expect(await call("{ whoAmI }", apiKey)).toEqual({ status: 200, body: { data: { whoAmI: null } } });
    expect(await call("{ claims }", apiKey)).toEqual({ status: 200, body: { data: { claims: "null" } } });
    // A token sent to a public endpoint is not verified, so its claims do not reach the function.
    expect(await call("{ whoAmI }", bearer, "/public")).toEqual({
      status: 200,
      body: { data: { whoAmI: null } },
    });
  });

  it("gives two calls at once, with different tokens, each its own claims", async () => {
    const [alice, bob] = await Promise.all([token({ sub: "alice" }), token({ sub: "bob" })]);
    // Warm both workers first, so the two calls below overlap rather than wait for a cold start.
    await Promise.all([call("{ whoAmI }", apiKey), call("{ whoAmI }", apiKey)]);
    const answers = await Promise.all([
      call("{ slowWhoAmI(ms: 500) }", alice),
      call("{ slowWhoAmI(ms: 500) }", bob),
      call("{ slowWhoAmI(ms: 500) }", apiKey),
    ]);
    const runs = answers.map((a) => {
      expect(a.status).toBe(200);
      return JSON.parse(a.body.data.slowWhoAmI) as { subs: string; start: number; end: number };
    });
    expect(runs.map((r) => r.subs)).toEqual(["alice/alice", "bob/bob", "none/none"]);
    // The pool's two workers ran calls at the same time: some two of them overlapped.
    const overlap = (a: (typeof runs)[0], b: (typeof runs)[0]) => a.start < b.end && b.start < a.end;
    expect(overlap(runs[0], runs[1]) || overlap(runs[0], runs[2]) || overlap(runs[1], runs[2])).toBe(true);
  });
});
