/**
 * The JSON Schema of trellis.json for editors, emitted from the zod schema so the two cannot drift.
 * `runtime/schema/trellis.schema.json` is this output; regenerate it with
 * `npx tsx runtime/src/manifest/manifest-json-schema.ts` (a test checks the committed file is current, as
 * JSON: the file is biome-formatted).
 * Cross-field rules (exactly one of baseUrl/endpoint, model → connection) are checked by parseManifest only.
 */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { manifestSchema } from "./manifest-schema.ts";

/** Where the committed schema lives. */
export const MANIFEST_JSON_SCHEMA_FILE = fileURLToPath(
  new URL("../../schema/trellis.schema.json", import.meta.url),
);

export function manifestJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(manifestSchema, { target: "draft-7", io: "input", unrepresentable: "any" });
  return {
    ...schema,
    title: "Trellis app manifest (trellis.json)",
    description:
      "Endpoints, models and connections of a Trellis app. Secrets are {{PLACEHOLDER}}s filled from TRELLIS_<CONNECTION>_<PLACEHOLDER>.",
  };
}

/** The text of runtime/schema/trellis.schema.json. */
export function manifestJsonSchemaText(): string {
  return `${JSON.stringify(manifestJsonSchema(), null, 2)}\n`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(MANIFEST_JSON_SCHEMA_FILE, manifestJsonSchemaText());
  // Formatted as the repository formats JSON, so `biome check` stays clean.
  execFileSync("npx", ["biome", "format", "--write", MANIFEST_JSON_SCHEMA_FILE], { stdio: "inherit" });
  console.log(`wrote ${MANIFEST_JSON_SCHEMA_FILE}`);
}
