import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, exportSPKI, generateKeyPair, type JWTPayload, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JwksSource } from "../../src/auth/jwks-source.ts";
import { JwtSettingsError, readJwtSettings } from "../../src/auth/jwt-settings.ts";
import { createJwtVerifier, JwtRejected } from "../../src/auth/jwt-verifier.ts";
import { createGuardedFetch } from "../../src/egress/guarded-fetch.ts";

type KeyPair = Awaited<ReturnType<typeof generateKeyPair>>;

let signer: KeyPair;
let stranger: KeyPair;
let jwksKey: KeyPair;
let jwksServer: Server;
let jwksUrl: string;
let jwksFetches = 0;
let jwksBody = "";

const sign = (
  key: KeyPair,
  claims: JWTPayload,
  options: { alg?: string; kid?: string; exp?: string | number } = {},
) => {
  const jwt = new SignJWT(claims)
    .setProtectedHeader({ alg: options.alg ?? "RS256", ...(options.kid ? { kid: options.kid } : {}) })
    .setIssuedAt();
  if (options.exp !== undefined) jwt.setExpirationTime(options.exp);
  return jwt.sign(key.privateKey);
};

beforeAll(async () => {
  signer = await generateKeyPair("RS256");
  stranger = await generateKeyPair("RS256");
  jwksKey = await generateKeyPair("ES256");
  jwksBody = JSON.stringify({ keys: [{ ...(await exportJWK(jwksKey.publicKey)), kid: "k1", alg: "ES256" }] });
  jwksServer = createServer((req, res) => {
    jwksFetches++;
    if (req.url === "/big") return res.writeHead(200).end(`{"keys":[],"x":"${"a".repeat(300 * 1024)}"}`);
    if (req.url === "/slow") return; // never answers
    if (req.url === "/moved") return res.writeHead(302, { location: "/jwks" }).end();
    res.writeHead(200, { "content-type": "application/json" }).end(jwksBody);
  });
  await new Promise<void>((r) => jwksServer.listen(0, "127.0.0.1", r));
  jwksUrl = `http://127.0.0.1:${(jwksServer.address() as AddressInfo).port}`;
});

afterAll(() => new Promise((r) => jwksServer.close(r)));

async function rejection(promise: Promise<unknown>): Promise<string> {
  const e = await promise.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(JwtRejected);
  return (e as Error).message;
}

describe("JWT verifier over PEM keys", () => {
  const env = async (extra: Record<string, string> = {}) => ({
    TRELLIS_JWT_PEMS: JSON.stringify({ main: await exportSPKI(signer.publicKey) }),
    ...extra,
  });

  it("refuses exp, nbf or iat that is no whole second between 1970 and the year 9999 (exp 1e308 never expired)", async () => {
    const verifier = createJwtVerifier(await env());
    const signed = (claims: JWTPayload) =>
      new SignJWT(claims).setProtectedHeader({ alg: "RS256" }).sign(signer.privateKey);
    const now = Math.floor(Date.now() / 1000);
    for (const [claims, claim] of [
      [{ exp: 1e308 }, "exp"],
      [{ exp: 253_402_300_800 }, "exp"],
      [{ exp: now + 60.5 }, "exp"],
      [{ exp: now + 60, nbf: -1 }, "nbf"],
      [{ exp: now + 60, iat: 1e300 }, "iat"],
    ] as const) {
      expect(await rejection(verifier.verify(await signed(claims)))).toBe(
        `token not accepted: "${claim}" is not a valid date (whole seconds since 1970, up to the year 9999)`,
      );
    }
    expect(
      await verifier.verify(await signed({ exp: 253_402_300_799, nbf: now - 5, iat: now })),
    ).toMatchObject({
      exp: 253_402_300_799,
    });
  });

  it("accepts a token signed by a configured key and returns its claims", async () => {
    const verifier = createJwtVerifier(await env());
    expect(verifier.configured).toBe(true);
    const claims = await verifier.verify(await sign(signer, { sub: "user-1", role: "admin" }, { exp: "5m" }));
    expect(claims).toMatchObject({ sub: "user-1", role: "admin" });
  });

  it("refuses expired, foreign-signed, exp-less, wrong-audience and HMAC tokens", async () => {
    const verifier = createJwtVerifier(
      await env({ TRELLIS_JWT_AUDIENCE: "shop, shop-admin", TRELLIS_JWT_ISSUER: "https://id.example" }),
    );
    const good = { sub: "u", aud: "shop", iss: "https://id.example" };
    expect((await verifier.verify(await sign(signer, good, { exp: "5m" }))).sub).toBe("u");
    expect(
      await rejection(
        verifier.verify(await sign(signer, good, { exp: Math.floor(Date.now() / 1000) - 120 })),
      ),
    ).toBe("token expired");
    expect(await rejection(verifier.verify(await sign(stranger, good, { exp: "5m" })))).toContain(
      "signature",
    );
    expect(await rejection(verifier.verify(await sign(signer, good)))).toContain('"exp"');
    expect(
      await rejection(verifier.verify(await sign(signer, { ...good, aud: "blog" }, { exp: "5m" }))),
    ).toContain('"aud"');
    expect(
      await rejection(verifier.verify(await sign(signer, { ...good, iss: "https://evil" }, { exp: "5m" }))),
    ).toContain('"iss"');
    const hmac = await new SignJWT(good)
      .setProtectedHeader({ alg: "HS256" })
      .setExpirationTime("5m")
      .sign(new TextEncoder().encode("a shared secret of at least 32 bytes!!"));
    expect(await rejection(verifier.verify(hmac))).toContain("algorithm");
    expect(await rejection(verifier.verify("not.a.jwt"))).toBe("malformed token");
  });

  it("accepts nothing without keys, and says which env var to set", async () => {
    const verifier = createJwtVerifier({});
    expect(verifier.configured).toBe(false);
    expect(await rejection(verifier.verify(await sign(signer, {}, { exp: "5m" })))).toContain(
      "TRELLIS_JWT_PEMS",
    );
    const broken = createJwtVerifier({ TRELLIS_JWT_PEMS: '{"main": "not a key"}' });
    expect(broken.problem).toContain('TRELLIS_JWT_PEMS: "main" is not a PEM public key');
  });
});

describe("JWT verifier over a JWKS endpoint", () => {
  /** The key set server is on loopback: open exactly it. */
  const opened = () => ({ fetch: createGuardedFetch({ allow: [new URL(jwksUrl).host] }) });

  it("fetches the key set once and verifies tokens by kid", async () => {
    const verifier = createJwtVerifier(
      { TRELLIS_JWT_JWKS_ENDPOINTS: JSON.stringify({ idp: `${jwksUrl}/jwks` }) },
      opened(),
    );
    const before = jwksFetches;
    const token = await sign(jwksKey, { sub: "jwks-user" }, { alg: "ES256", kid: "k1", exp: "5m" });
    expect((await verifier.verify(token)).sub).toBe("jwks-user");
    expect((await verifier.verify(token)).sub).toBe("jwks-user");
    expect(jwksFetches - before).toBe(1);
    // A kid the set lacks asks for a refetch, but not more than once per cooldown.
    const unknown = await sign(stranger, { sub: "x" }, { kid: "k2", exp: "5m" });
    expect(await rejection(verifier.verify(unknown))).toContain("signature");
    expect(jwksFetches - before).toBe(1);
  });

  it("refuses a key set larger than its bound", async () => {
    const verifier = createJwtVerifier({ TRELLIS_JWT_JWKS_ENDPOINTS: `${jwksUrl}/big` }, opened());
    const token = await sign(jwksKey, { sub: "u" }, { alg: "ES256", kid: "k1", exp: "5m" });
    expect(await rejection(verifier.verify(token))).toContain("larger than 262144 bytes");
  });

  it("fetches no key set from loopback under the default (deployed) egress policy", async () => {
    const verifier = createJwtVerifier({ TRELLIS_JWT_JWKS_ENDPOINTS: `${jwksUrl}/jwks` });
    const before = jwksFetches;
    const token = await sign(jwksKey, { sub: "u" }, { alg: "ES256", kid: "k1", exp: "5m" });
    expect(await rejection(verifier.verify(token))).toBe(
      `token not verified: fetching the key set at ${jwksUrl}/jwks failed: 127.0.0.1 is a loopback address, ` +
        "which deployed apps may not reach; the platform operator can allow it with --egress-allow / " +
        `TRELLIS_EGRESS_ALLOW (e.g. ${new URL(jwksUrl).host})`,
    );
    expect(jwksFetches).toBe(before);
  });

  it("takes JWKS URLs over https only, except on loopback", () => {
    expect(() => readJwtSettings({ TRELLIS_JWT_JWKS_ENDPOINTS: "http://id.example/jwks" })).toThrow(
      JwtSettingsError,
    );
    expect(() => readJwtSettings({ TRELLIS_JWT_JWKS_ENDPOINTS: '{"a": "ftp://id.example/"}' })).toThrow(
      /must be a JSON object|https/,
    );
    expect(
      readJwtSettings({ TRELLIS_JWT_JWKS_ENDPOINTS: "https://id.example/jwks" })?.jwksEndpoints[0].url.host,
    ).toBe("id.example");
    expect(
      readJwtSettings({ TRELLIS_JWT_JWKS_ENDPOINTS: "http://localhost:9/jwks" })?.jwksEndpoints,
    ).toHaveLength(1);
    expect(readJwtSettings({})).toBeUndefined();
  });

  it("gives up on a slow or redirecting key set, and keeps serving the last good one", async () => {
    const slow = new JwksSource(new URL(`${jwksUrl}/slow`), { maxAgeMs: 60_000, timeoutMs: 200 });
    await expect(slow.keySet()).rejects.toThrow("no answer within 200 ms");
    const moved = new JwksSource(new URL(`${jwksUrl}/moved`), { maxAgeMs: 60_000 });
    await expect(moved.keySet()).rejects.toThrow(/failed/);

    const source = new JwksSource(new URL(`${jwksUrl}/jwks`), { maxAgeMs: 50, cooldownMs: 0 });
    const first = await source.keySet();
    await new Promise((r) => setTimeout(r, 60));
    const before = jwksFetches;
    // Stale: the current set answers at once while a fetch runs in the background.
    expect(await source.keySet()).toBe(first);
    await expect.poll(() => jwksFetches).toBe(before + 1);
    await expect.poll(async () => (await source.keySet()) !== first).toBe(true);
  });
});
