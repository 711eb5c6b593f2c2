import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createGraphDB } from "../../graphdb/src/index.ts";
import { LmdbStore } from "../../graphdb/src/store/lmdb-store.ts";
import { generateDataset } from "./generated.ts";
import { readFreebase } from "./freebase.ts";
import { loadQuads } from "./xid-loader.ts";

const which = process.argv[2] ?? "generated";
const stats = process.argv[3] === "stats";
const bytes = new Map<string, { n: number; b: number; max: number }>();
if (stats) {
  const orig = LmdbStore.prototype.write;
  LmdbStore.prototype.write = function (fn, o) {
    return orig.call(this, (w) => fn({ ...w, put: (k: Uint8Array, v: Uint8Array) => {
      const len = (k[1] << 8) | k[2];
      const name = k[0] === 0 ? Buffer.from(k.subarray(3, 3 + len)).toString() + "/" + k[3 + len] : "meta" + k[0];
      const e = bytes.get(name) ?? { n: 0, b: 0, max: 0 };
      e.n++; e.b += v.length; e.max = Math.max(e.max, v.length);
      bytes.set(name, e);
      w.put(k, v);
    } }), o);
  } as typeof orig;
}
const ds = which === "freebase" ? readFreebase({}) : generateDataset({});
const dir = mkdtempSync(join(tmpdir(), "h8-txn-"));
const db = createGraphDB({ dir });
await db.engine.alter({ schema: ds.schema });
const t0 = performance.now();
let last = t0; let lastN = 0;
const c0 = process.cpuUsage();
await loadQuads(ds.quads, (nq) => db.engine.mutate({ mutations: [{ setNquads: nq }], commitNow: true }), async (n) => db.engine.assignUids(n),
  { batchSize: Number(process.argv[4] ?? 1000), concurrency: 4, onProgress: (d) => { const t = performance.now(); if (t - last > 5000) { console.log(`  ${d}: ${Math.round((d - lastN) / (t - last) * 1000)}/s recent`); last = t; lastN = d; } } });
const ms = performance.now() - t0;
const cpu = process.cpuUsage(c0);
console.log(`${which} in-proc txn: ${Math.round(ds.quads.length / ms * 1000)}/s wall, ${Math.round(ds.quads.length / ((cpu.user + cpu.system) / 1e6))}/cpu-s`);
if (stats) for (const [k, e] of [...bytes].sort((a, b) => b[1].b - a[1].b).slice(0, 25)) console.log(`${k}: puts ${e.n} MB ${(e.b / 1e6).toFixed(1)} max ${e.max}`);
await db.close();
rmSync(dir, { recursive: true, force: true });
