/**
 * One namespace's heavy work against another's small queries (issue 20): how long each heavy operation
 * takes, the process's peak RSS while it runs, and the latency of a light namespace's small queries, sent
 * one after another meanwhile. A benchmark, not a test: it prints figures and never fails.
 *
 *   node --max-semi-space-size=64 --import tsx bench/graphdb/tenant-isolation.ts [--values 1000000]
 *
 * Heavy operations, each in namespace A over `--values` string values:
 *   - an index build (`name: string @index(term)`, then `@index(exact)` on another predicate);
 *   - `orderdesc` over every value with `first: 10`;
 *   - two mutations of 200,000 N-Quads each, committed.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { GraphDB } from "../../graphdb/src/engine/graph-db.ts";
import { percentile } from "./latency.ts";

const WORDS = ["red", "green", "blue", "cyan", "amber", "violet", "olive", "teal", "ochre", "slate"];

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  return i < 0 ? fallback : Number(process.argv[i + 1]);
}

interface Figures {
  seconds: number;
  peakRssMb: number;
  queries: number;
  p50: number;
  p99: number;
  max: number;
  error?: string;
}

/** Runs `heavy` while namespace B sends small queries one after another; samples RSS every 20 ms. */
async function measure(db: GraphDB, b: number, heavy: () => Promise<unknown>): Promise<Figures> {
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  let done = false;
  const latencies: number[] = [];
  const light = (async () => {
    while (!done) {
      const t = performance.now();
      await db.query({ namespace: b, query: '{ q(func: eq(tag, "t7")) { tag } }' });
      latencies.push(performance.now() - t);
      // Another client's next request arrives as I/O, not as a microtask.
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
  })();
  const started = performance.now();
  let error: string | undefined;
  try {
    await heavy();
  } catch (e) {
    error = (e as Error).message;
  }
  const seconds = (performance.now() - started) / 1000;
  done = true;
  await light;
  clearInterval(sampler);
  const sorted = Float64Array.from(latencies).sort();
  return {
    seconds,
    peakRssMb: peak / 2 ** 20,
    queries: sorted.length,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted[sorted.length - 1],
    error,
  };
}

function print(label: string, f: Figures): void {
  const ms = (n: number) => `${n.toFixed(1)} ms`;
  console.log(
    `${label.padEnd(44)} ${f.seconds.toFixed(2).padStart(7)} s  peak RSS ${f.peakRssMb.toFixed(0).padStart(5)} MB` +
      `  B: ${String(f.queries).padStart(5)} queries, p50 ${ms(f.p50)}, p99 ${ms(f.p99)}, max ${ms(f.max)}` +
      (f.error ? `  (stopped: ${f.error.slice(0, 80)})` : ""),
  );
}

async function main(): Promise<void> {
  const values = arg("--values", 1_000_000);
  const dir = mkdtempSync(join(tmpdir(), "trellis-tenant-bench-"));
  const db = new GraphDB({ dir });
  console.log(`tenant isolation: ${values} values in namespace A; load average ${loadavg()[0].toFixed(2)}`);
  try {
    const a = await db.createNamespace();
    const b = await db.createNamespace();
    await db.alter({ namespace: b, schema: "tag: string @index(exact) ." });
    await db.mutate({
      namespace: b,
      commitNow: true,
      mutations: [{ setNquads: Array.from({ length: 100 }, (_, i) => `_:t${i} <tag> "t${i}" .`).join("\n") }],
    });
    await db.alter({ namespace: a, schema: "name: string .\ncode: string ." });
    const chunk = 100_000;
    for (let from = 0; from < values; from += chunk) {
      const lines: string[] = [];
      for (let i = from; i < Math.min(values, from + chunk); i++) {
        lines.push(
          `_:n${i} <name> "${WORDS[i % 10]} ${WORDS[Math.floor(i / 10) % 10]} n${i}" .`,
          `_:n${i} <code> "c${(i * 7919) % values}" .`,
        );
      }
      await db.bulkLoad(lines.join("\n"), { namespace: a });
    }
    global.gc?.();
    console.log(`loaded; RSS ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MB`);

    print("idle (B alone, 2 s)", await measure(db, b, () => new Promise((r) => setTimeout(r, 2000))));
    print(
      "A: alter name @index(term)",
      await measure(db, b, () => db.alter({ namespace: a, schema: "name: string @index(term) ." })),
    );
    print(
      "A: alter code @index(exact)",
      await measure(db, b, () => db.alter({ namespace: a, schema: "code: string @index(exact) ." })),
    );
    print(
      "A: orderdesc code, first 10",
      await measure(db, b, () =>
        db.query({ namespace: a, query: "{ q(func: has(code), orderdesc: code, first: 10) { code } }" }),
      ),
    );
    print(
      "A: orderdesc name (no index), first 10",
      await measure(db, b, () =>
        db.query({ namespace: a, query: "{ q(func: has(name), orderdesc: name, first: 10) { name } }" }),
      ),
    );
    const nquads = (tag: string) =>
      Array.from({ length: 200_000 }, (_, i) => `_:${tag}${i} <name> "${tag} ${i}" .`).join("\n");
    print(
      "A: 2 x 200k N-Quads mutations, commitNow",
      await measure(db, b, () =>
        Promise.all(
          ["x", "y"].map((tag) =>
            db.mutate({ namespace: a, commitNow: true, mutations: [{ setNquads: nquads(tag) }] }),
          ),
        ),
      ),
    );
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
