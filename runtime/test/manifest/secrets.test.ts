import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseManifest } from "../../src/manifest/parse-manifest.ts";
import { loadEnvFiles } from "../../src/secrets/env-files.ts";
import { envVarName } from "../../src/secrets/env-var-name.ts";
import { MissingSecretsError } from "../../src/secrets/missing-secrets-error.ts";
import { requiredVariables } from "../../src/secrets/required-variables.ts";
import { resolveConnections } from "../../src/secrets/resolve-connections.ts";

const manifest = parseManifest(
  JSON.stringify({
    connections: {
      "openai-like": {
        type: "http",
        baseUrl: "https://api.example.com/",
        headers: { Authorization: "Bearer {{API_KEY}}", "X-Basic": "Basic {{base64(USER:PASS)}}" },
        queryParameters: { org: "{{ ORG }}" },
      },
      db: { type: "relationaldb", connStr: "postgres://app:{{PASSWORD}}@db.internal:5432/app" },
      graph: { type: "graphdb", grpcTarget: "{{HOST}}:9080", key: "{{KEY}}" },
    },
  }),
);

describe("secret variables", () => {
  it("names variables TRELLIS_<CONNECTION>_<PLACEHOLDER>", () => {
    expect(envVarName("openai-like", "API_KEY")).toBe("TRELLIS_OPENAI_LIKE_API_KEY");
    expect(envVarName("my-api", "authToken")).toBe("TRELLIS_MY_API_authToken");
  });

  it("lists every variable the manifest needs, with where it is used", () => {
    expect(requiredVariables(manifest)).toEqual([
      {
        connection: "openai-like",
        field: "headers.Authorization",
        placeholder: "API_KEY",
        variable: "TRELLIS_OPENAI_LIKE_API_KEY",
      },
      {
        connection: "openai-like",
        field: "headers.X-Basic",
        placeholder: "USER",
        variable: "TRELLIS_OPENAI_LIKE_USER",
      },
      {
        connection: "openai-like",
        field: "headers.X-Basic",
        placeholder: "PASS",
        variable: "TRELLIS_OPENAI_LIKE_PASS",
      },
      {
        connection: "openai-like",
        field: "queryParameters.org",
        placeholder: "ORG",
        variable: "TRELLIS_OPENAI_LIKE_ORG",
      },
      { connection: "db", field: "connStr", placeholder: "PASSWORD", variable: "TRELLIS_DB_PASSWORD" },
      { connection: "graph", field: "grpcTarget", placeholder: "HOST", variable: "TRELLIS_GRAPH_HOST" },
      { connection: "graph", field: "key", placeholder: "KEY", variable: "TRELLIS_GRAPH_KEY" },
    ]);
  });

  it("fills placeholders, including base64 pairs, without touching URLs", () => {
    const resolved = resolveConnections(manifest, {
      TRELLIS_OPENAI_LIKE_API_KEY: "sk-1",
      TRELLIS_OPENAI_LIKE_USER: "ann",
      TRELLIS_OPENAI_LIKE_PASS: "pw",
      TRELLIS_OPENAI_LIKE_ORG: "acme",
      TRELLIS_DB_PASSWORD: "",
      TRELLIS_GRAPH_HOST: "127.0.0.1",
      TRELLIS_GRAPH_KEY: "k",
    });
    expect(resolved["openai-like"]).toEqual({
      type: "http",
      baseUrl: "https://api.example.com/",
      headers: {
        Authorization: "Bearer sk-1",
        "X-Basic": `Basic ${Buffer.from("ann:pw").toString("base64")}`,
      },
      queryParameters: { org: "acme" },
    });
    expect(resolved.db).toEqual({ type: "relationaldb", connStr: "postgres://app:@db.internal:5432/app" });
    expect(resolved.graph).toEqual({ type: "graphdb", grpcTarget: "127.0.0.1:9080", key: "k" });
    // the manifest keeps its placeholders
    expect((manifest.connections.graph as { key: string }).key).toBe("{{KEY}}");
  });

  it("names every missing variable exactly and says where to set it", () => {
    let error: unknown;
    try {
      resolveConnections(manifest, {
        TRELLIS_OPENAI_LIKE_USER: "ann",
        TRELLIS_OPENAI_LIKE_ORG: "o",
        TRELLIS_GRAPH_HOST: "h",
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(MissingSecretsError);
    const err = error as MissingSecretsError;
    expect(err.variables).toEqual([
      "TRELLIS_OPENAI_LIKE_API_KEY",
      "TRELLIS_OPENAI_LIKE_PASS",
      "TRELLIS_DB_PASSWORD",
      "TRELLIS_GRAPH_KEY",
    ]);
    expect(err.message.split("\n").slice(0, 4)).toEqual([
      'missing environment variable TRELLIS_OPENAI_LIKE_API_KEY (connection "openai-like", headers.Authorization)',
      'missing environment variable TRELLIS_OPENAI_LIKE_PASS (connection "openai-like", headers.X-Basic)',
      'missing environment variable TRELLIS_DB_PASSWORD (connection "db", connStr)',
      'missing environment variable TRELLIS_GRAPH_KEY (connection "graph", key)',
    ]);
    expect(err.message).toContain(".env.dev.local");
    expect(err.message).toContain("platform's environment variables");
  });

  it("rejects a filled address that is not valid, without showing the secret", () => {
    const m = parseManifest(
      JSON.stringify({ connections: { g: { type: "graphdb", grpcTarget: "{{TARGET}}" } } }),
    );
    expect(() => resolveConnections(m, { TRELLIS_G_TARGET: "s3cret-no-port" })).toThrow(
      'connections.g.grpcTarget: "{{TARGET}}" is not valid once its placeholders are filled: Invalid gRPC target: {{TARGET}}',
    );
  });
});

describe("loadEnvFiles", () => {
  const dir = mkdtempSync(join(tmpdir(), "trellis-env-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("merges .env files in Modus's precedence, with the real environment winning, leaving process.env alone", () => {
    const files: Record<string, string> = {
      ".env": "A=env\nB=env\nC=env\nD=env\nE=env\nF=env\nG=env",
      ".env.local": "A=local\nB=local\nC=local\nD=local\nE=local\nF=local",
      ".env.development": "A=development\nB=development\nC=development\nD=development\nE=development",
      ".env.development.local":
        "A=development.local\nB=development.local\nC=development.local\nD=development.local",
      ".env.dev": 'A=dev\nB=dev\nC="dev quoted"',
      ".env.dev.local": "A=dev.local\nB=dev.local # comment",
      ".env.prod": "A=prod\nG=prod",
    };
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    const before = { ...process.env };
    const env = loadEnvFiles(dir, "dev", { A: "real", PATH: "/bin" });
    expect(env).toEqual({
      A: "real",
      B: "dev.local",
      C: "dev quoted",
      D: "development.local",
      E: "development",
      F: "local",
      G: "env",
      PATH: "/bin",
    });
    expect(loadEnvFiles(dir, "development", {}).A).toBe("dev.local");
    expect(loadEnvFiles(dir, "production", {})).toMatchObject({ A: "prod", G: "prod", F: "local" });
    expect(process.env).toEqual(before);
  });

  it("uses process.env as the real environment by default", () => {
    const name = `TRELLIS_TEST_${process.pid}`;
    writeFileSync(join(dir, ".env.dev.local"), `${name}=file`);
    process.env[name] = "real";
    try {
      expect(loadEnvFiles(dir)[name]).toBe("real");
    } finally {
      delete process.env[name];
    }
    expect(loadEnvFiles(dir)[name]).toBe("file");
  });
});
