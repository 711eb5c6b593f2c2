/**
 * Fair share between namespaces: a namespace flooding heavy (sliced) queries runs only a few of them at
 * once, so another namespace's query of the same weight is not queued behind the whole flood; the flood's
 * own queue is bounded in length and waiting time, past which its operations are refused.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { GraphDB, type GraphDBOptions } from "../../src/engine/graph-db.ts";

let dir: string;
let db: GraphDB;

afterEach(async () => {
  await db?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A query of many slices over `fill`'s graph (tens of turns of the event loop). */
const HEAVY = "{ q(func: has(name)) { name friend { name friend { name } } } }";

async function open(options: Partial<GraphDBOptions>): Promise<{ a: number; b: number }> {
  dir = mkdtempSync(join(tmpdir(), "trellis-fair-share-"));
  db = new GraphDB({ dir, noSync: true, ...options });
  const a = await db.createNamespace();
  const b = await db.createNamespace();
  const lines: string[] = [];
  for (let i = 0; i < 10_000; i++)
    lines.push(`_:n${i} <name> "n ${i}" .`, `_:n${i} <friend> _:n${(i * 7) % 10_000} .`);
  for (const ns of [a, b]) await db.bulkLoad(lines.join("\n"), { namespace: ns });
  return { a, b };
}

describe("fair share between namespaces", () => {
  it("answers a light namespace's query before a flooding namespace's batch", async () => {
    const { a, b } = await open({ admission: { concurrent: 2 } });
    let finishedA = 0;
    const flood = Array.from({ length: 12 }, () =>
      db.query({ namespace: a, query: HEAVY }).then(() => {
        finishedA++;
      }),
    );
    // B's query, as heavy as each of A's, sent after all of A's.
    await db.query({ namespace: b, query: HEAVY });
    const whenBFinished = finishedA;
    await Promise.all(flood);
    expect(finishedA).toBe(12);
    // Round-robin over all 13 would finish B with (nearly) all of A; with A two at a time, B finishes
    // alongside A's first few.
    expect(whenBFinished).toBeLessThan(6);
  }, 120_000);

  it("refuses a namespace's operations past its queue length and waiting time, not another's", async () => {
    const { a, b } = await open({ admission: { concurrent: 1, queued: 2, waitMs: 60_000 } });
    const results = await Promise.allSettled(
      Array.from({ length: 4 }, () => db.query({ namespace: a, query: HEAVY })),
    );
    const refused = results.filter((r) => r.status === "rejected");
    expect(refused).toHaveLength(1);
    expect(String((refused[0] as PromiseRejectedResult).reason.message)).toBe(
      `too many concurrent operations in namespace ${a}: 1 run at once and 2 are waiting already. Retry later, or send fewer requests at a time.`,
    );
    await db.close();
    rmSync(dir, { recursive: true, force: true });

    const fresh = await open({ admission: { concurrent: 1, queued: 10, waitMs: 1 } });
    const [first, second, other] = await Promise.allSettled([
      db.query({ namespace: fresh.a, query: HEAVY }),
      db.query({ namespace: fresh.a, query: HEAVY }),
      db.query({ namespace: fresh.b, query: HEAVY }),
    ]);
    expect(first.status).toBe("fulfilled");
    expect(other.status).toBe("fulfilled");
    expect(second.status).toBe("rejected");
    expect(String((second as PromiseRejectedResult).reason.message)).toContain(
      `too many concurrent operations in namespace ${fresh.a}: 1 run at once and this one waited 1 ms for its turn`,
    );
    void b;
  }, 120_000);
});
