/**
 * `trellis dev` hands the claims of a JWT it verified to the functions of a real built app (one
 * TypeScript build, shared), as the platform's gateway does: `auth.getJWTClaims()` answers them on an
 * `auth: "jwt"` endpoint, null without a token, with an API key, on another endpoint, or when the app has
 * no keys (a token is then not verified, so its claims are not trusted).
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { exportSPKI, generateKeyPair, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LoadedApp, loadApp } from "../../src/app/load-app.ts";
import { createJwtVerifier } from "../../src/auth/jwt-verifier.ts";
import { buildApp } from "../../src/compiler/build-app.ts";
import { type DevApp, type DevServer, startDevServer } from "../../src/dev/dev-server.ts";

const SOURCE = `import { auth } from "@trellis/sdk";

/** The caller's sub and email, or null without verified claims. */
export function whoAmI(): string | null {
  const claims = auth.getJWTClaims<{ sub: string; email?: string }>();
  return claims ? claims.sub + " " + (claims.email ?? "-") : null;
}
`;

const MANIFEST = {
  endpoints: {
    default: { type: "graphql", path: "/graphql", auth: "jwt" },
    internal: { type: "graphql", path: "/internal", auth: "bearer-token" },
  },
};

describe("trellis dev: a verified JWT's claims in the function", () => {
  let root: string;
  let app: LoadedApp;
  let dev: DevServer;
  let devApp: DevApp;
  let signer: Awaited<ReturnType<typeof generateKeyPair>>;

  const token = (claims: Record<string, unknown>) =>
    new SignJWT(claims).setProtectedHeader({ alg: "ES256" }).setExpirationTime("5m").sign(signer.privateKey);
  const whoAmI = async (bearer?: string, path = "/graphql") => {
    const res = await fetch(`${dev.url}${path}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
      },
      body: JSON.stringify({ query: "{ whoAmI }" }),
    });
    expect(res.status).toBe(200);
    return ((await res.json()) as { data: { whoAmI: string | null } }).data.whoAmI;
  };

  beforeAll(async () => {
    signer = await generateKeyPair("ES256");
    root = await mkdtemp(join(tmpdir(), "trellis-dev-claims-"));
    const dir = join(root, "claims-app");
    await mkdir(join(dir, "src"), { recursive: true });
    await writeFile(join(dir, "package.json"), '{ "name": "claims-app", "private": true }');
    await writeFile(join(dir, "trellis.json"), JSON.stringify(MANIFEST));
    await writeFile(join(dir, "src/index.ts"), SOURCE);
    app = await loadApp((await buildApp(dir)).outDir, { env: {} });
    devApp = {
      name: app.name,
      world: app.world,
      sdl: app.sdl,
      graphql: app,
      endpoints: app.endpoints,
      jwt: createJwtVerifier({ TRELLIS_JWT_PEMS: await exportSPKI(signer.publicKey) }),
      testConnections: async () => [],
    };
    dev = await startDevServer({ port: 0, getApp: () => devApp });
  }, 120_000);
  afterAll(async () => {
    await dev?.close();
    await app?.close();
    await rm(root, { recursive: true, force: true });
  });

  it("answers the claims of the token sent, each request its own", async () => {
    const [ada, bob] = await Promise.all([
      token({ sub: "ada", email: "ada@example.com" }).then((t) => whoAmI(t)),
      token({ sub: "bob" }).then((t) => whoAmI(t)),
    ]);
    expect([ada, bob]).toEqual(["ada ada@example.com", "bob -"]);
  });

  it("answers null without a verified token", async () => {
    expect(await whoAmI()).toBeNull();
    expect(await whoAmI("an-api-key")).toBeNull();
    // Another endpoint does not check JWTs, so it passes no claims.
    expect(await whoAmI(await token({ sub: "ada" }), "/internal")).toBeNull();
    // Without keys, a token is not verified: its claims are not the function's to trust.
    const keyless = { ...devApp, jwt: createJwtVerifier({}) };
    const withKeys = devApp;
    devApp = keyless;
    try {
      expect(await whoAmI(await token({ sub: "ada" }))).toBeNull();
    } finally {
      devApp = withKeys;
    }
  });
});
