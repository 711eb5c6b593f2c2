import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createGraphDB } from "../../graphdb/src/index.ts";
import { readFreebase } from "./freebase.ts";
import { generateDataset } from "./generated.ts";
import { nquadLiteral, type QuadSet } from "./quads.ts";

function* nquadChunks(q: QuadSet): Generator<string> {
  const predTok = q.preds.map((p) => `<${p}>`);
  const lines: string[] = [];
  for (let i = 0; i < q.length; i++) {
    const o = q.o[i];
    const obj = o >= 0 ? `_:n${o}` : nquadLiteral(q.litValue[-o - 1], q.litLang[-o - 1]);
    lines.push(`_:n${q.s[i]} ${predTok[q.p[i]]} ${obj} .`);
    if (lines.length === 50_000) { yield `${lines.join("\n")}\n`; lines.length = 0; }
  }
  if (lines.length > 0) yield lines.join("\n");
}
const which = process.argv[2] ?? "generated";
const ds = which === "freebase" ? readFreebase({}) : generateDataset({});
const chunks = [...nquadChunks(ds.quads)];
for (let rep = 0; rep < Number(process.argv[3] ?? 1); rep++) {
  const dir = mkdtempSync(join(tmpdir(), "h8-bulk-"));
  const db = createGraphDB({ dir });
  await db.engine.alter({ schema: ds.schema });
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const r = await db.engine.bulkLoad(chunks, {});
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(c0);
  console.log(`${which} bulk: ${r.nquads} quads in ${(ms/1000).toFixed(2)} s = ${Math.round(r.nquads/ms*1000)}/s wall; cpu user ${(cpu.user/1e6).toFixed(2)} s sys ${(cpu.system/1e6).toFixed(2)} s → ${Math.round(r.nquads/((cpu.user+cpu.system)/1e6))}/cpu-s`);
  await db.close();
  rmSync(dir, { recursive: true, force: true });
}
