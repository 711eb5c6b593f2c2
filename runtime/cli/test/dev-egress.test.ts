/**
 * `trellis dev` runs on the developer's own machine: its apps' connections are under the permissive egress
 * policy (a database or API on localhost just works), and the terminal says so, and that deployed apps
 * may not, once at start.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEV_EGRESS_NOTICE, type DevSession, startDev } from "../src/dev-command.ts";
import type { Terminal } from "../src/terminal.ts";

const lines: string[] = [];
const term: Terminal = {
  step: async (_label, work) => work(),
  info: (l) => lines.push(l),
  success: (l) => lines.push(l),
  warn: (l) => lines.push(l),
  error: (l) => lines.push(`ERROR ${l}`),
};

describe("trellis dev and egress", () => {
  let dir: string;
  let api: Server;
  let session: DevSession;

  beforeAll(async () => {
    api = createServer((req, res) => res.end(`local ${req.url}`));
    await new Promise<void>((r) => api.listen(0, "127.0.0.1", r));
    const base = `http://127.0.0.1:${(api.address() as AddressInfo).port}/`;
    dir = await mkdtemp(join(tmpdir(), "trellis-dev-egress-"));
    await mkdir(join(dir, "src"));
    await writeFile(join(dir, "package.json"), '{ "name": "egress-app", "private": true }');
    await writeFile(
      join(dir, "trellis.json"),
      JSON.stringify({ connections: { local: { type: "http", baseUrl: base } } }),
    );
    await writeFile(
      join(dir, "src/index.ts"),
      `import { http } from "@trellis/sdk";\nexport function getLocal(): string { return http.fetch("${base}x").text(); }\n`,
    );
    const options = { port: 0, host: "127.0.0.1", watch: false, delay: 100, build: true, graphdb: false };
    session = await startDev(
      dir,
      { ...options, graphdbPort: 0, graphdbGrpcPort: 0, graphdbData: "data" },
      term,
    );
  }, 180_000);

  afterAll(async () => {
    await session?.close();
    api?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("reaches a service on loopback, and says once that deployed apps may not", async () => {
    const res = await fetch(`${session.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: "{ local }" }),
    });
    expect(((await res.json()) as { data: unknown }).data).toEqual({ local: "local /x" });
    expect(lines.filter((l) => l.includes(DEV_EGRESS_NOTICE))).toHaveLength(1);
    expect(DEV_EGRESS_NOTICE).toBe(
      "egress: permissive (trellis dev) — deployed apps may not reach loopback or private addresses unless the platform operator allows them",
    );
  });
});
