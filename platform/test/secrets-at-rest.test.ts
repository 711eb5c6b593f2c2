import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { PG_URL, startTestPlatform, type TestPlatform } from "./support/test-platform.ts";

const APP = "vault-app-4c1d";
const VALUE = "sk-live-AtRestCanary-9f8e7d6c";

/** Every file under `dir`, recursively. */
async function files(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await files(path)));
    else if ((await stat(path)).isFile()) out.push(path);
  }
  return out;
}

/** Creates the secrets: an env var, an API key, a deploy token. */
async function storeSecrets(t: TestPlatform): Promise<string[]> {
  const created = await t.api("POST", "/api/apps", { name: APP });
  expect((await t.api("PUT", `/api/apps/${APP}/env/TRELLIS_API_API_KEY`, { value: VALUE })).status).toBe(200);
  const key = await t.api("POST", `/api/apps/${APP}/keys`, { name: "at-rest" });
  return [VALUE, key.body.secret, created.body.deployToken];
}

describe("secrets at rest", () => {
  it("leaves no env var value, API key or deploy token in clear in the PGlite files", async () => {
    const t = await startTestPlatform();
    try {
      const secrets = await storeSecrets(t);
      await t.platform.close(); // flushes PGlite to disk
      const all = await Promise.all((await files(join(t.dataDir, "metadata"))).map((f) => readFile(f)));
      const haystack = Buffer.concat(all);
      expect(haystack.length).toBeGreaterThan(1_000_000);
      // The check can find text: the (non-secret) app name is there.
      expect(haystack.includes(Buffer.from(APP))).toBe(true);
      for (const secret of secrets) expect(haystack.includes(Buffer.from(secret))).toBe(false);
    } finally {
      await t.close();
    }
  });

  it("leaves none in clear in the PostgreSQL table files or rows", async () => {
    const t = await startTestPlatform({ postgres: true });
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    try {
      const secrets = await storeSecrets(t);
      await client.query("CHECKPOINT"); // table pages reach their files
      const tables = ["apps", "api_keys", "env_vars"].map((table) => `${t.databaseSchema}.${table}`);
      const pages: Buffer[] = [];
      const rows: string[] = [];
      for (const table of tables) {
        const file = await client.query(
          "SELECT pg_read_binary_file(pg_relation_filepath($1::regclass)) AS bytes",
          [table],
        );
        pages.push(file.rows[0].bytes);
        const dump = await client.query(`SELECT t::text AS row FROM ${table} t`);
        rows.push(...dump.rows.map((r: { row: string }) => r.row));
      }
      const haystack = Buffer.concat(pages);
      expect(haystack.includes(Buffer.from(APP))).toBe(true);
      expect(rows.join("\n")).toContain(APP);
      for (const secret of secrets) {
        expect(haystack.includes(Buffer.from(secret))).toBe(false);
        expect(rows.join("\n")).not.toContain(secret);
      }
    } finally {
      await client.end();
      await t.close();
    }
  });
});
