import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, exportSPKI, generateKeyPair, type JWTPayload, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolvers, SCHEMA } from "./support/builds.ts";
import { type Json, startTestPlatform, type TestPlatform } from "./support/test-platform.ts";

type KeyPair = Awaited<ReturnType<typeof generateKeyPair>>;

/** `/graphql` takes the users' JWTs; `/internal` API keys only. */
const MANIFEST = JSON.stringify({
  endpoints: {
    default: { type: "graphql", path: "/graphql", auth: "jwt" },
    internal: { type: "graphql", path: "/internal", auth: "bearer-token" },
  },
});

describe("endpoints with auth: jwt", () => {
  let t: TestPlatform;
  let apiKey: string;
  let signer: KeyPair;
  let stranger: KeyPair;
  let jwks: Server;
  let jwksUrl: string;

  const token = (key: KeyPair, claims: JWTPayload = {}, exp: string | number = "5m") =>
    new SignJWT({ sub: "user-1", aud: "shop-web", ...claims })
      .setProtectedHeader({ alg: "RS256" })
      .setIssuedAt()
      .setExpirationTime(exp)
      .sign(key.privateKey);
  const call = async (
    path: string,
    bearer?: string,
    app = "shop",
  ): Promise<{ status: number; body: Json }> => {
    const res = await fetch(`${t.platform.url}/apps/${app}${path}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
      },
      body: JSON.stringify({ query: "{ version }" }),
    });
    return { status: res.status, body: await res.json() };
  };
  const refused = (message: string) => ({
    status: 401,
    body: { errors: [{ message, extensions: { code: "UNAUTHENTICATED" } }] },
  });

  beforeAll(async () => {
    signer = await generateKeyPair("RS256");
    stranger = await generateKeyPair("RS256");
    // The identity provider's key set, on loopback (the one place plain http is allowed), which the
    // operator opens exactly.
    const jwk = { ...(await exportJWK(signer.publicKey)), kid: "idp-1", alg: "RS256" };
    jwks = createServer((_req, res) => res.writeHead(200).end(JSON.stringify({ keys: [jwk] })));
    await new Promise<void>((r) => jwks.listen(0, "127.0.0.1", r));
    const jwksHost = `127.0.0.1:${(jwks.address() as AddressInfo).port}`;
    jwksUrl = `http://${jwksHost}/.well-known/jwks.json`;
    t = await startTestPlatform({ egress: { allow: [jwksHost] } });
    for (const name of ["shop", "keyless", "idp"]) {
      const created = await t.api("POST", "/api/apps", { name });
      const archive = await t.archive({ manifest: MANIFEST, schema: SCHEMA, resolvers: resolvers("v1") });
      expect((await t.deploy(name, archive, created.body.deployToken)).status).toBe(201);
    }
    apiKey = (await t.api("POST", "/api/apps/shop/keys", { name: "test" })).body.secret;
    const pems = JSON.stringify({ main: await exportSPKI(signer.publicKey) });
    expect((await t.api("PUT", "/api/apps/shop/env/TRELLIS_JWT_PEMS", { value: pems })).status).toBe(200);
    await t.api("PUT", "/api/apps/shop/env/TRELLIS_JWT_AUDIENCE", { value: "shop-web" });
  });
  afterAll(async () => {
    await t?.close();
    await new Promise((r) => jwks?.close(r));
  });

  it("accepts a valid user JWT, and an API key still", async () => {
    expect(await call("/graphql", await token(signer))).toEqual({
      status: 200,
      body: { data: { version: "v1" } },
    });
    expect(await call("/graphql", apiKey)).toEqual({ status: 200, body: { data: { version: "v1" } } });
  });

  it("refuses expired, foreign-signed and wrong-audience tokens like a bad API key", async () => {
    const expired = await token(signer, {}, Math.floor(Date.now() / 1000) - 120);
    expect(await call("/graphql", expired)).toEqual(refused("invalid API key or token: token expired"));
    expect(await call("/graphql", await token(stranger))).toEqual(
      refused("invalid API key or token: invalid token signature (signed by none of the app's keys)"),
    );
    expect(await call("/graphql", await token(signer, { aud: "blog" }))).toEqual(
      refused('invalid API key or token: token not accepted: wrong or missing "aud"'),
    );
    expect(await call("/graphql", `${apiKey}x`)).toEqual(refused("invalid or revoked API key"));
    const missing = await call("/graphql");
    expect(missing.status).toBe(401);
    expect(missing.body.errors[0].message).toContain("API key or user JWT");
  });

  it("refuses user JWTs on a bearer-token endpoint, which keeps taking API keys", async () => {
    expect(await call("/internal", await token(signer))).toEqual(refused("invalid or revoked API key"));
    expect((await call("/internal", apiKey)).status).toBe(200);
  });

  it("refuses every JWT of an app that configured no keys, saying what to set", async () => {
    const res = await call("/graphql", await token(signer), "keyless");
    expect(res.status).toBe(401);
    expect(res.body.errors[0].message).toContain("set TRELLIS_JWT_PEMS or TRELLIS_JWT_JWKS_ENDPOINTS");
  });

  it("verifies tokens against the app's JWKS endpoint", async () => {
    const endpoints = JSON.stringify({ idp: jwksUrl });
    await t.api("PUT", "/api/apps/idp/env/TRELLIS_JWT_JWKS_ENDPOINTS", { value: endpoints });
    const signed = (key: KeyPair) =>
      new SignJWT({ sub: "user-2" })
        .setProtectedHeader({ alg: "RS256", kid: "idp-1" })
        .setExpirationTime("5m")
        .sign(key.privateKey);
    expect(await call("/graphql", await signed(signer), "idp")).toEqual({
      status: 200,
      body: { data: { version: "v1" } },
    });
    expect((await call("/graphql", await signed(stranger), "idp")).status).toBe(401);
  });
});
