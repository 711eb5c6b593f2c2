/**
 * `trellis build` of a scaffolded app (the template's front end in web/): the component as before, and the
 * front end in build/static as build-layout.ts describes it — index.html, hashed assets, Vite's manifest,
 * `.br`/`.gz` siblings that decompress to the file. The same app without "web" builds as it always did.
 * Prints the front end's first-build time.
 */
import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { createApp, STATIC_DIR, STATIC_ENCODINGS, STATIC_VITE_MANIFEST } from "@trellis/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runBuild } from "../src/build-command.ts";
import type { Terminal } from "../src/terminal.ts";

const lines: string[] = [];
const term: Terminal = {
  step: async (label, work) => {
    lines.push(label);
    return work();
  },
  info: (l) => lines.push(l),
  success: (l) => lines.push(l),
  warn: (l) => lines.push(`WARN ${l}`),
  error: (l) => lines.push(`ERROR ${l}`),
};

describe("trellis build of an app with a front end", () => {
  let parent: string;
  let app: string;
  let staticDir: string;
  let files: string[];

  beforeAll(async () => {
    parent = await mkdtemp(join(tmpdir(), "trellis-build-web-"));
    app = await createApp({ name: "web-app", language: "typescript", dir: join(parent, "web-app") });
    await runBuild(app, term);
    staticDir = join(app, "build", STATIC_DIR);
    files = (await readdir(staticDir, { recursive: true })).map(String).sort();
    const site = lines.find((l) => l.startsWith("Front end:"));
    process.stdout.write(`\nfirst build of the template's front end: ${site}\n`);
  }, 180_000);

  afterAll(async () => {
    await rm(parent, { recursive: true, force: true });
  });

  it("shows the front end's steps with the other build steps, and what it wrote", () => {
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.stringContaining("Generating the front end's GraphQL types"),
        expect.stringContaining("Building the front end with Vite"),
        expect.stringContaining("Precompressing the front end (brotli, gzip)"),
        expect.stringMatching(
          /^Front end: .*build\/static .*5 files, .* KiB; 4 precompressed \(\.br, \.gz\); \d+ ms/,
        ),
      ]),
    );
    expect(lines.filter((l) => l.startsWith("WARN") || l.startsWith("ERROR"))).toEqual([]);
  });

  it("generates the page's typed documents from the app's schema", async () => {
    const types = await readFile(join(app, "web/src/generated/graphql.ts"), "utf8");
    expect(types).toContain("export type SayHelloQuery = { sayHello: string | null };");
  });

  it("writes index.html, hashed assets and Vite's manifest to build/static", async () => {
    const manifest = JSON.parse(await readFile(join(staticDir, STATIC_VITE_MANIFEST), "utf8"));
    const entry = manifest["index.html"] as { file: string; css: string[]; isEntry: boolean };
    expect(entry.isEntry).toBe(true);
    expect(entry.file).toMatch(/^assets\/index-[\w-]{8}\.js$/);
    expect(entry.css).toEqual([expect.stringMatching(/^assets\/index-[\w-]{8}\.css$/)]);
    const html = await readFile(join(staticDir, "index.html"), "utf8");
    expect(html).toContain(`src="/${entry.file}"`);
    expect(html).toContain(`href="/${entry.css[0]}"`);
    expect(files).toEqual(expect.arrayContaining(["index.html", "favicon.svg", entry.file, ...entry.css]));
    // The bundle calls the app's own public endpoint, relative, with the operation from hello.graphql.
    const js = await readFile(join(staticDir, entry.file), "utf8");
    expect(js).toMatch(/[`"']\/public\/graphql[`"']/);
    expect(js).toContain("sayHello(name: $name)");
  });

  it("precompresses every text file to .br and .gz that decompress to the file", async () => {
    const originals = files.filter((f) => !/\.(br|gz)$/.test(f) && !f.startsWith(".vite"));
    const text = originals.filter((f) => /\.(html|js|css|svg)$/.test(f));
    expect(text).toHaveLength(4);
    for (const file of text) {
      const original = await readFile(join(staticDir, file));
      for (const { suffix } of STATIC_ENCODINGS) {
        const variant = await readFile(join(staticDir, file + suffix));
        expect(variant.length, file + suffix).toBeLessThan(original.length);
        const decoded = suffix === ".br" ? brotliDecompressSync(variant) : gunzipSync(variant);
        expect(decoded.equals(original), file + suffix).toBe(true);
      }
    }
  });

  it('builds the same app without "web" as before: no static folder, no front end step', async () => {
    const manifestFile = join(app, "trellis.json");
    const manifest = JSON.parse(await readFile(manifestFile, "utf8"));
    delete manifest.web;
    await writeFile(manifestFile, JSON.stringify(manifest, null, 2));
    await rm(join(app, "web/src/generated"), { recursive: true });
    lines.length = 0;
    await runBuild(app, term);
    expect(existsSync(join(app, "build", STATIC_DIR))).toBe(false);
    expect(existsSync(join(app, "web/src/generated"))).toBe(false);
    expect((await readdir(join(app, "build"))).sort()).toEqual([
      "app.wasm",
      "build-info.json",
      "schema.graphql",
      "transpiled",
      "trellis.json",
      "wit",
    ]);
    expect(lines.some((l) => /front end/i.test(l))).toBe(false);
  }, 180_000);
});
