/**
 * `trellis dev` watch loop: a source edit rebuilds and swaps the app in place (new field served, same
 * port); a broken edit keeps the last good build serving and reports the error; an .env.dev.local edit
 * reloads the app's secrets without a rebuild. The embedded graph database's `@lambda` fields (mapped in
 * trellis.json's `lambdas`) are served by the app's functions, the new code after a rebuild.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DevSession, startDev } from "../src/dev-command.ts";
import type { Terminal } from "../src/terminal.ts";

const lines: string[] = [];
const term: Terminal = {
  step: async (label, work) => {
    lines.push(label);
    return work();
  },
  info: (l) => lines.push(l),
  success: (l) => lines.push(l),
  warn: (l) => lines.push(l),
  error: (l) => lines.push(`ERROR ${l}`),
};

/** Serves `Note.shout`: its parameter `text` is filled from the parent note's field. */
const SHOUT = "export function shout(text: string): string { return text.toUpperCase(); }\n";

describe("trellis dev watch loop", () => {
  let dir: string;
  let session: DevSession;

  const gql = async (query: string) =>
    (await (
      await fetch(`${session.url}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ query }),
      })
    ).json()) as { data?: Record<string, unknown>; errors?: { message: string }[] };

  const graphdbUrl = () => `http://127.0.0.1:${session.graphdb?.httpPort}`;
  const graphdb = async (query: string) =>
    (await (
      await fetch(`${graphdbUrl()}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ query }),
      })
    ).json()) as { data?: Record<string, unknown>; errors?: { message: string }[] };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "trellis-watch-"));
    await mkdir(join(dir, "src"));
    await writeFile(join(dir, "package.json"), '{ "name": "watch-app", "private": true }');
    await writeFile(
      join(dir, "trellis.json"),
      JSON.stringify({ lambdas: { "Query.version": "version", "Note.shout": "shout" } }),
    );
    await writeFile(
      join(dir, "src/index.ts"),
      `${SHOUT}export function version(): string { return "one"; }\n`,
    );
    session = await startDev(
      dir,
      {
        port: 0,
        host: "127.0.0.1",
        watch: true,
        delay: 100,
        build: true,
        graphdb: true,
        graphdbPort: 0,
        graphdbGrpcPort: 0,
        graphdbData: "data",
      },
      term,
    );
    // The developer gives the embedded database a schema with lambda fields, and data.
    const schema = await fetch(`${graphdbUrl()}/admin/schema`, {
      method: "POST",
      body: "type Note { id: ID!\n text: String! @search(by: [hash])\n shout: String @lambda }\ntype Query { version: String @lambda }",
    });
    expect(schema.status).toBe(200);
    expect(await graphdb('mutation { addNote(input: [{ text: "hi" }]) { numUids } }')).toEqual({
      data: { addNote: { numUids: 1 } },
    });
  }, 60_000);

  afterAll(async () => {
    await session?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("rebuilds on a source change and serves the new code on the same port", async () => {
    expect((await gql("{ version }")).data).toEqual({ version: "one" });
    expect(await graphdb("{ version queryNote { text shout } }")).toEqual({
      data: { version: "one", queryNote: [{ text: "hi", shout: "HI" }] },
    });
    await writeFile(
      join(dir, "src/index.ts"),
      `${SHOUT}export function version(): string { return "two"; }\nexport function extra(): boolean { return true; }\n`,
    );
    await new Promise((r) => setTimeout(r, 300));
    await session.reloaded();
    expect((await gql("{ version extra }")).data).toEqual({ version: "two", extra: true });
    // The database's lambda fields call the new build.
    expect((await graphdb("{ version }")).data).toEqual({ version: "two" });
  }, 60_000);

  it("keeps the last good build serving when an edit does not build", async () => {
    await writeFile(
      join(dir, "src/index.ts"),
      "export function broken(x: Map<string, number>): string { return ''; }\n",
    );
    await new Promise((r) => setTimeout(r, 300));
    await session.reloaded();
    expect(lines.some((l) => l.startsWith("ERROR") && l.includes("unsupported type"))).toBe(true);
    expect((await gql("{ version }")).data).toEqual({ version: "two" });
    expect((await graphdb("{ queryNote { shout } }")).data).toEqual({ queryNote: [{ shout: "HI" }] });
  }, 60_000);
});
