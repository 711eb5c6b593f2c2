import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildAppSchema } from "../../src/graphql/schema-builder.ts";
import { writeSchemaFile } from "../../src/graphql/schema-file.ts";
import { fixtureWorld } from "./fixture-world.ts";

describe("writeSchemaFile", () => {
  it("writes build/schema.graphql and reports whether the schema changed", async () => {
    const dir = await mkdtemp(join(tmpdir(), "trellis-schema-"));
    try {
      const build = join(dir, "build");
      const { sdl } = buildAppSchema(fixtureWorld);
      expect(await writeSchemaFile(build, sdl)).toEqual({
        path: join(build, "schema.graphql"),
        changed: true,
      });
      expect(await readFile(join(build, "schema.graphql"), "utf8")).toBe(sdl);
      expect((await writeSchemaFile(build, sdl)).changed).toBe(false);
      expect((await writeSchemaFile(build, `${sdl}\nscalar Extra\n`)).changed).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
