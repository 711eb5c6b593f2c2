import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readFreebase } from "./freebase.ts";
import { generateDataset } from "./generated.ts";
import { checkResponse, startServerChild } from "./http-client.ts";
import { loadQuads } from "./xid-loader.ts";

const which = process.argv[2] ?? "generated";
const limit = Number(process.argv[3] ?? 0);
const ds = which === "freebase" ? readFreebase({}) : generateDataset({});
const dir = mkdtempSync(join(tmpdir(), "h8-http-"));
const s = await startServerChild(dir);
await s.post("/alter", "application/dql", ds.schema);
const q = ds.quads;
void limit;
const t0 = performance.now();
let last = t0; let lastN = 0;
const xids = await loadQuads(q, async (nq) => checkResponse(await s.post("/mutate?commitNow=true", "application/rdf", `{ set {\n${nq}\n} }`), "mutate"),
  async (n) => { const r = checkResponse(await s.get(`/assign?what=uids&num=${n}`), "assign") as { startId?: string; endId?: string }; return { startId: Number(r.startId), endId: Number(r.endId) }; },
  { batchSize: 1000, concurrency: 4, onProgress: (d) => { const t = performance.now(); if (t - last > 5000) { console.log(`  ${d}: ${Math.round((d - lastN) / (t - last) * 1000)}/s recent`); last = t; lastN = d; } } });
const ms = performance.now() - t0;
console.log(`${which} http: ${q.length} quads in ${(ms / 1000).toFixed(1)} s = ${Math.round(q.length / ms * 1000)}/s; leases ${xids.leases}`);
await s.stop();
rmSync(dir, { recursive: true, force: true });
