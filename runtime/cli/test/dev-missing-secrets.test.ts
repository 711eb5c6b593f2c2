/**
 * `trellis dev` with a connection whose secret is not set loads the app, as the platform does: functions
 * that do not use the connection answer; a call through it fails, saying which variable to set and where.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DevSession, startDev } from "../src/dev-command.ts";
import { DEV_OPTIONS, postGraphQL, recordingTerminal } from "./dev-fixture.ts";

const { term, lines } = recordingTerminal();

describe("trellis dev with a secret not set", () => {
  let dir: string;
  let session: DevSession;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "trellis-dev-secrets-"));
    await mkdir(join(dir, "src"));
    await writeFile(join(dir, "package.json"), '{ "name": "secrets-app", "private": true }');
    await writeFile(
      join(dir, "trellis.json"),
      JSON.stringify({
        connections: {
          api: {
            type: "http",
            baseUrl: "http://127.0.0.1:9/",
            headers: { Authorization: "Bearer {{TOKEN}}" },
          },
        },
      }),
    );
    await writeFile(
      join(dir, "src/index.ts"),
      `import { http } from "@trellis/sdk";
export function sayHello(name: string): string { return "Hello, " + name + "!"; }
export function callApi(): string { return http.fetch("http://127.0.0.1:9/x").text(); }
`,
    );
    session = await startDev(dir, DEV_OPTIONS, term);
  }, 180_000);

  afterAll(async () => {
    await session?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const gql = (query: string) => postGraphQL(session.url, query);

  it("loads the app and says once which variable is missing", async () => {
    expect((await gql('{ sayHello(name: "dev") }')).data).toEqual({ sayHello: "Hello, dev!" });
    expect(lines.filter((l) => l.startsWith("WARN TRELLIS_API_TOKEN is not set"))).toEqual([
      'WARN TRELLIS_API_TOKEN is not set: calls through connection "api" fail until it is (add TRELLIS_API_TOKEN="…" to .env.dev.local)',
    ]);
    expect(lines.some((l) => l.startsWith("ERROR"))).toBe(false);
  });

  it("fails only the call through that connection, naming the variable and .env.dev.local", async () => {
    const answer = await gql("{ callApi }");
    expect(answer.errors?.[0]?.message).toMatch(/missing environment variable TRELLIS_API_TOKEN/);
    expect(answer.errors?.[0]?.message).toMatch(/\.env\.dev\.local/);
  });
});
