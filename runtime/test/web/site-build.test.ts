/**
 * The front end's build step on its own (no component): Vite into a static folder, the site limits of
 * build-layout.ts, and which files get precompressed variants.
 */
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { cp, mkdir, mkdtemp, readFile, rm, truncate, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { STATIC_MAX_BYTES, STATIC_MAX_FILES } from "../../src/app/build-layout.ts";
import { BuildError } from "../../src/compiler/ts-build-error.ts";
import { buildSite } from "../../src/web/site-build.ts";

let dir: string;
let webRoot: string;
let outDir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "trellis-site-"));
  webRoot = join(dir, "web");
  outDir = join(dir, "build", "static");
  await mkdir(join(webRoot, "public"), { recursive: true });
  await writeFile(
    join(webRoot, "index.html"),
    `<!doctype html><html><head><title>Site</title></head><body>${"<p>Hello, site.</p>".repeat(20)}</body></html>\n`,
  );
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("buildSite", () => {
  it("precompresses text that shrinks, and leaves incompressible files and Vite's manifest alone", async () => {
    await writeFile(join(webRoot, "public", "noise.txt"), randomBytes(4096));
    await writeFile(join(webRoot, "public", "photo.png"), randomBytes(2048));
    const summary = await buildSite({ webRoot, outDir });
    expect(summary.files).toBe(4); // index.html, noise.txt, photo.png, .vite/manifest.json
    expect(existsSync(join(outDir, "index.html.br"))).toBe(true);
    expect(existsSync(join(outDir, "index.html.gz"))).toBe(true);
    for (const skipped of ["noise.txt.br", "noise.txt.gz", "photo.png.gz", ".vite/manifest.json.gz"]) {
      expect(existsSync(join(outDir, skipped)), skipped).toBe(false);
    }
    expect(summary.precompressed).toEqual({ files: 1, variants: 2 });
  });

  it(`refuses a site of more than ${STATIC_MAX_FILES} files, saying what to do`, async () => {
    const files = join(webRoot, "public", "files");
    await mkdir(files);
    for (let i = 0; i < STATIC_MAX_FILES; i++) await writeFile(join(files, `${i}.txt`), "x");
    // index.html, .vite/manifest.json and the public files: STATIC_MAX_FILES + 2.
    const error = await buildSite({ webRoot, outDir }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BuildError);
    expect((error as Error).message).toMatch(
      /^The front end built to 10,002 files, more than the 10,000 a site may have: remove files the site does not use \(web\/public is copied whole\)/,
    );
  }, 120_000);

  it("refuses a site of more than 100 MiB, naming its largest files", async () => {
    await writeFile(join(webRoot, "public", "video.mp4"), "");
    await truncate(join(webRoot, "public", "video.mp4"), STATIC_MAX_BYTES); // sparse: no 100 MiB write
    const error = await buildSite({ webRoot, outDir }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BuildError);
    expect((error as Error).message).toMatch(/^The front end built to 100\.0 MiB, more than the 100\.0 MiB/);
    expect((error as BuildError).diagnostics[0]).toBe("  video.mp4 100.0 MiB");
  }, 120_000);

  it("holds a site to the limits it is given", async () => {
    await writeFile(join(webRoot, "public", "a.txt"), "a");
    await expect(buildSite({ webRoot, outDir, limits: { maxFiles: 2, maxBytes: 1 << 20 } })).rejects.toThrow(
      /3 files, more than the 2 a site may have/,
    );
  });

  it("reports what Vite cannot build as a BuildError naming the folder", async () => {
    await writeFile(join(webRoot, "index.html"), '<script type="module" src="/src/missing.ts"></script>');
    await expect(buildSite({ webRoot, outDir })).rejects.toThrow(
      /^Vite could not build the front end in web\//,
    );
  });

  it("keeps Vite's output as written: the page and its hashed script", async () => {
    await cp(join(webRoot, "index.html"), join(webRoot, "index.html.orig"));
    await mkdir(join(webRoot, "src"));
    await writeFile(join(webRoot, "src", "main.ts"), 'document.title = "hashed";\n');
    await writeFile(
      join(webRoot, "index.html"),
      '<!doctype html><html><body><script type="module" src="/src/main.ts"></script></body></html>\n',
    );
    await buildSite({ webRoot, outDir });
    const manifest = JSON.parse(await readFile(join(outDir, ".vite/manifest.json"), "utf8"));
    const script = manifest["index.html"].file as string;
    expect(script).toMatch(/^assets\/index-[\w-]{8}\.js$/);
    expect(await readFile(join(outDir, "index.html"), "utf8")).toContain(`src="/${script}"`);
  });
});
