import { exportSPKI, generateKeyPair, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createJwtVerifier } from "../../src/auth/jwt-verifier.ts";
import { type DevApp, type DevServer, startDevServer } from "../../src/dev/dev-server.ts";
import { createGraphQLHandler } from "../../src/graphql/graphql-handler.ts";
import { newTestInvoker, testWorld } from "../graphql/app-functions.ts";

type KeyPair = Awaited<ReturnType<typeof generateKeyPair>>;

describe("trellis dev on an auth: jwt endpoint", () => {
  let dev: DevServer;
  let app: DevApp | undefined;
  let signer: KeyPair;
  let stranger: KeyPair;

  const token = (key: KeyPair, exp: string | number = "5m") =>
    new SignJWT({ sub: "user-1" })
      .setProtectedHeader({ alg: "ES256" })
      .setExpirationTime(exp)
      .sign(key.privateKey);
  const call = (path: string, bearer?: string) =>
    fetch(`${dev.url}${path}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
      },
      body: JSON.stringify({ query: "{ __typename }" }),
    });

  beforeAll(async () => {
    signer = await generateKeyPair("ES256");
    stranger = await generateKeyPair("ES256");
    const handler = createGraphQLHandler({ world: testWorld, invoker: newTestInvoker() });
    app = {
      name: "people-app",
      world: testWorld,
      sdl: handler.sdl,
      graphql: { fetch: (request, auth) => handler.fetch(request, auth) },
      endpoints: [
        { name: "default", path: "/graphql", auth: "jwt" },
        { name: "internal", path: "/internal", auth: "bearer-token" },
      ],
      jwt: createJwtVerifier({ TRELLIS_JWT_PEMS: await exportSPKI(signer.publicKey) }),
      testConnections: async () => [],
    };
    dev = await startDevServer({ port: 0, getApp: () => app });
  });
  afterAll(() => dev?.close());

  it("verifies a JWT that is sent, with the app's keys, and refuses a bad one as the platform does", async () => {
    expect((await call("/graphql", await token(signer))).status).toBe(200);
    const foreign = await call("/graphql", await token(stranger));
    expect(foreign.status).toBe(401);
    expect(await foreign.json()).toEqual({
      errors: [
        {
          message: expect.stringContaining("invalid API key or token"),
          extensions: { code: "UNAUTHENTICATED" },
        },
      ],
    });
    const expired = await call("/graphql", await token(signer, Math.floor(Date.now() / 1000) - 120));
    expect(((await expired.json()) as { errors: { message: string }[] }).errors[0].message).toContain(
      "expired",
    );
  });

  it("needs no credentials in dev, as for API keys, and leaves other endpoints alone", async () => {
    expect((await call("/graphql")).status).toBe(200);
    expect((await call("/graphql", "an-api-key")).status).toBe(200);
    expect((await call("/internal", await token(stranger))).status).toBe(200);
  });
});
