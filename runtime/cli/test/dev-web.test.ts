/**
 * `trellis dev` of a scaffolded app with its front end: the page comes from Vite on the dev server's port
 * and calls the app's /graphql on the same origin; editing a function rebuilds it, the page's next call
 * gets the new code, and the page's GraphQL types are regenerated from the new schema; editing the page
 * is Vite's business (no function rebuild).
 */

import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stripVTControlCharacters } from "node:util";
import { createApp } from "@trellis/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DevSession, startDev } from "../src/dev-command.ts";
import type { Terminal } from "../src/terminal.ts";

/** What the terminal printed, without colours (picocolors turns them on when CI is set). */
const lines: string[] = [];
const print = (line: string) => lines.push(stripVTControlCharacters(line));
const term: Terminal = {
  step: async (label, work) => {
    print(label);
    return work();
  },
  info: print,
  success: print,
  warn: (l) => print(`WARN ${l}`),
  error: (l) => print(`ERROR ${l}`),
};

describe("trellis dev of an app with a front end", () => {
  let parent: string;
  let app: string;
  let session: DevSession;

  /** What the template page sends (src/graphql-request.ts): a same-origin POST. */
  const pageCall = async (query: string, variables: Record<string, unknown>) =>
    (await (
      await fetch(`${session.url}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: session.url },
        body: JSON.stringify({ query, variables }),
      })
    ).json()) as { data?: Record<string, unknown>; errors?: { message: string }[] };

  beforeAll(async () => {
    parent = await mkdtemp(join(tmpdir(), "trellis-dev-web-"));
    app = await createApp({ name: "web-app", language: "typescript", dir: join(parent, "web-app") });
    // The template's connections need their secrets to load (none is called here).
    await writeFile(
      join(app, ".env.dev.local"),
      'TRELLIS_QUOTES_API_KEY="k"\nTRELLIS_DB_DATABASE_URL="postgres://127.0.0.1:1/none"\nTRELLIS_OPENAI_API_KEY="k"\n',
    );
    session = await startDev(
      app,
      {
        port: 0,
        host: "127.0.0.1",
        watch: true,
        delay: 100,
        build: true,
        graphdb: false,
        graphdbPort: 0,
        graphdbGrpcPort: 0,
        graphdbData: "data",
      },
      term,
    );
  }, 120_000);

  afterAll(async () => {
    await session?.close();
    await rm(parent, { recursive: true, force: true });
  });

  it("serves the page through Vite at / and says where", async () => {
    const res = await fetch(`${session.url}/`, { headers: { accept: "text/html" } });
    const html = await res.text();
    expect(html).toContain("/@vite/client");
    expect(html).toContain("<title>My Trellis app</title>");
    expect(lines).toContain(`  • Front end: ${session.url}/ (Vite, from web/)`);
    const main = await fetch(`${session.url}/src/main.ts`);
    expect(await main.text()).toContain("SayHelloDocument");
  });

  it("answers the page's call, then the new code's after a function edit, with regenerated types", async () => {
    const query = "query SayHello($name: String!) { sayHello(name: $name) }";
    expect((await pageCall(query, { name: "Web" })).data).toEqual({ sayHello: "Hello, Web!" });
    const source = await readFile(join(app, "src/index.ts"), "utf8");
    await writeFile(
      join(app, "src/index.ts"),
      `${source.replace("`Hello, ", "`Howdy, ")}
/** Counts a name's letters. */
export function letters(name: string): i32 {
  return name.length;
}
`,
    );
    await writeFile(
      join(app, "web/src/letters.graphql"),
      "query Letters($name: String!) { letters(name: $name) }\n",
    );
    await new Promise((r) => setTimeout(r, 300));
    await session.reloaded();
    expect((await pageCall(query, { name: "Web" })).data).toEqual({ sayHello: "Howdy, Web!" });
    const types = await readFile(join(app, "web/src/generated/graphql.ts"), "utf8");
    expect(types).toContain("export type LettersQuery = { letters: number | null };");
    expect(lines.filter((l) => l.startsWith("ERROR") || l.startsWith("WARN"))).toEqual([]);
  }, 120_000);

  it("leaves page edits to Vite: no function rebuild", async () => {
    const builds = lines.filter((l) => l === "Building").length;
    const main = join(app, "web/src/main.ts");
    await writeFile(main, `${await readFile(main, "utf8")}\nconsole.log("edited");\n`);
    await new Promise((r) => setTimeout(r, 500));
    await session.reloaded();
    expect(lines.filter((l) => l === "Building").length).toBe(builds);
    expect(await (await fetch(`${session.url}/src/main.ts`)).text()).toContain('console.log("edited")');
  });

  it("warns, and keeps serving the new functions, when the page's operations stop matching", async () => {
    await writeFile(join(app, "web/src/gone.graphql"), "query Gone { gone }\n");
    const source = await readFile(join(app, "src/index.ts"), "utf8");
    await writeFile(join(app, "src/index.ts"), source.replace("Howdy", "Hey"));
    await new Promise((r) => setTimeout(r, 300));
    await session.reloaded();
    expect(
      lines.some(
        (l) => l.startsWith("WARN") && l.includes('src/gone.graphql:1:14: Cannot query field "gone"'),
      ),
    ).toBe(true);
    const query = "query SayHello($name: String!) { sayHello(name: $name) }";
    expect((await pageCall(query, { name: "Web" })).data).toEqual({ sayHello: "Hey, Web!" });
  }, 120_000);
});
