import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createGraphDB, type GraphDB, type GraphDBOptions } from "../../src/index.ts";

/** A real engine in a fresh temp directory; `cleanup` closes it and removes the files. */
export function openTestEngine(options: Partial<GraphDBOptions> = {}): {
  engine: GraphDB;
  dir: string;
  cleanup(): Promise<void>;
} {
  const dir = mkdtempSync(join(tmpdir(), "trellis-graphdb-"));
  const handle = createGraphDB({ dir, ...options });
  return {
    engine: handle.engine,
    dir,
    async cleanup() {
      await handle.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Runs a query and returns the parsed `data` object. */
export async function q(engine: GraphDB, query: string, startTs?: number): Promise<Record<string, unknown>> {
  const r = await engine.query({ query, startTs });
  return JSON.parse(r.json) as Record<string, unknown>;
}

/** Sets N-Quads in a new committed transaction and returns the blank-node uids. */
export async function setNow(engine: GraphDB, nquads: string): Promise<Record<string, string>> {
  const r = await engine.mutate({ mutations: [{ setNquads: nquads }], commitNow: true });
  return r.uids;
}
