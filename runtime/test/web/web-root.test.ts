import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildApp } from "../../src/compiler/build-app.ts";

let app: string;

beforeEach(async () => {
  app = await mkdtemp(join(tmpdir(), "trellis-web-root-"));
  await mkdir(join(app, "src"));
  await writeFile(join(app, "src/index.ts"), "export function hi(): string { return 'hi'; }\n");
});

afterEach(async () => {
  await rm(app, { recursive: true, force: true });
});

describe("an app whose trellis.json has web", () => {
  it("fails the build at once, saying what to do, when the front end has no index.html", async () => {
    await writeFile(join(app, "trellis.json"), JSON.stringify({ web: { root: "site" } }));
    const started = Date.now();
    await expect(buildApp(app)).rejects.toThrow(
      'trellis.json has "web" but site/index.html does not exist: create the front end there (`trellis new` ' +
        'scaffolds one), point "web.root" at its folder, or remove "web" from trellis.json',
    );
    expect(Date.now() - started).toBeLessThan(2_000); // before compiling anything
  });
});
