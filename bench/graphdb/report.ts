/** Result records of one run, their console table and the JSON written to .results/latest.json. */
import type { LatencyStats, RateResult } from "./latency.ts";
import { fmtInt, fmtMs, fmtRatio, renderTable } from "./table.ts";

export type Measurement =
  | { kind: "load"; rate: RateResult; note?: string }
  | { kind: "query"; stats: LatencyStats }
  | { kind: "error"; message: string }
  | { kind: "skipped"; reason: string };

export interface Target {
  text: string;
  pass: boolean;
}

export interface ResultRow {
  id: string;
  operation: string;
  trellis: Measurement;
  postgres: Measurement;
  /** Trellis speed / PostgreSQL speed (N-Quads/s or queries/s); > 1 = Trellis faster. */
  ratio?: number;
  target?: Target;
  /** Cross-check of the results of both engines on the first parameter sets. */
  check?: { compared: number; matched: number; example?: string; avgResultSize?: number; hint?: string };
}

export interface DatasetReport {
  id: string;
  title: string;
  quads: number;
  nodes: number;
  predicates: Record<string, number>;
  notes: string[];
  rows: ResultRow[];
}

const speed = (m: Measurement): number | undefined =>
  m.kind === "load" ? m.rate.perSec : m.kind === "query" ? m.stats.opsPerSec : undefined;

export function ratioOf(trellis: Measurement, postgres: Measurement): number | undefined {
  const t = speed(trellis);
  const p = speed(postgres);
  return t !== undefined && p !== undefined && p > 0 ? t / p : undefined;
}

function cell(m: Measurement): string {
  switch (m.kind) {
    case "load":
      return `${fmtInt(m.rate.perSec)} N-Quads/s (${m.rate.seconds.toFixed(1)} s)`;
    case "query":
      return `p50 ${fmtMs(m.stats.p50Ms)} · p99 ${fmtMs(m.stats.p99Ms)} · ${fmtInt(m.stats.opsPerSec)} q/s`;
    case "error":
      return `ERROR: ${m.message.length > 60 ? `${m.message.slice(0, 57)}...` : m.message}`;
    case "skipped":
      return `n/a (${m.reason})`;
  }
}

function checkCell(row: ResultRow): string {
  const c = row.check;
  if (!c) return "";
  return c.matched === c.compared ? `${c.matched}/${c.compared} same` : `${c.matched}/${c.compared} same (!)`;
}

export function renderDataset(r: DatasetReport): string {
  const header = ["operation", "Trellis", "PostgreSQL", "ratio", "target", "", "results"];
  const rows = r.rows.map((row) => [
    row.operation,
    cell(row.trellis),
    cell(row.postgres),
    fmtRatio(row.ratio),
    row.target?.text ?? "",
    row.target ? (row.target.pass ? "PASS" : "MISS") : "",
    checkCell(row),
  ]);
  const lines = [
    `${r.title}: ${fmtInt(r.quads)} N-Quads, ${fmtInt(r.nodes)} nodes`,
    renderTable(header, rows),
    ...r.notes.map((n) => `  note: ${n}`),
  ];
  for (const row of r.rows) {
    if (row.check && row.check.matched !== row.check.compared && row.check.example) {
      lines.push(`  (!) ${row.id}: results differ, e.g. ${row.check.example}`);
      if (row.check.hint) lines.push(`      likely cause: ${row.check.hint}`);
    }
    for (const [side, m] of [
      ["Trellis", row.trellis],
      ["PostgreSQL", row.postgres],
    ] as const) {
      if (m.kind === "error") lines.push(`  ERROR ${row.id} (${side}): ${m.message}`);
    }
  }
  return lines.join("\n");
}
