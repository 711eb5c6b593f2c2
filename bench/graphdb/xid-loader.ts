/**
 * Loads a QuadSet into Trellis in N-Quad batches the way Dgraph's live loader does: nodes not yet created are
 * sent as request-scoped blank labels (`_:n<index>`), the uids in the response are remembered (the xidmap),
 * and later batches refer to those nodes as `<0x…>`. With concurrent batches, a batch that mentions a node
 * another in-flight batch is creating waits for that batch first, so every node is created exactly once.
 */
import { nquadLiteral, type QuadSet } from "./quads.ts";

/** Sends one batch of N-Quads (a `set`, committed now); resolves to the response's blank label → uid map. */
export type SendBatch = (nquads: string, quadCount: number) => Promise<Record<string, string>>;

export class XidMap {
  /** node index → uid (0 = not created yet). */
  readonly uid: Float64Array;
  /** node index → id of the in-flight batch creating it (-1 = none). */
  private readonly creator: Int32Array;
  private readonly inflight = new Map<number, Promise<void>>();
  /** Batches that had to wait for another in-flight batch before they could be sent. */
  waitedBatches = 0;
  batches = 0;

  constructor(nodeCount: number) {
    this.uid = new Float64Array(nodeCount);
    this.creator = new Int32Array(nodeCount).fill(-1);
  }

  /** In-flight batches (other than `self`) creating nodes the quads in [start, end) mention. */
  dependencies(q: QuadSet, start: number, end: number, self: number): Promise<void>[] {
    const deps = new Set<number>();
    const check = (n: number) => {
      if (this.uid[n] === 0 && this.creator[n] >= 0 && this.creator[n] !== self) deps.add(this.creator[n]);
    };
    for (let i = start; i < end; i++) {
      check(q.s[i]);
      if (q.o[i] >= 0) check(q.o[i]);
    }
    return [...deps].map((d) => this.inflight.get(d)!);
  }

  /** N-Quad text for quads [start, end); nodes without a uid become blank labels this batch creates. */
  serialize(q: QuadSet, start: number, end: number, batch: number, created: number[]): string {
    const predTok = q.preds.map((p) => `<${p}>`);
    const ref = (n: number): string => {
      const u = this.uid[n];
      if (u !== 0) return `<0x${u.toString(16)}>`;
      if (this.creator[n] !== batch) {
        this.creator[n] = batch;
        created.push(n);
      }
      return `_:n${n}`;
    };
    const lines: string[] = new Array(end - start);
    for (let i = start; i < end; i++) {
      const o = q.o[i];
      const obj = o >= 0 ? ref(o) : nquadLiteral(q.litValue[-o - 1], q.litLang[-o - 1]);
      lines[i - start] = `${ref(q.s[i])} ${predTok[q.p[i]]} ${obj} .`;
    }
    return lines.join("\n");
  }

  track(batch: number, done: Promise<void>): void {
    this.inflight.set(batch, done);
  }

  settle(batch: number, created: number[], uids: Record<string, string>): void {
    for (const n of created) {
      const hex = uids[`n${n}`];
      if (hex === undefined) throw new Error(`the response did not return a uid for blank node _:n${n}`);
      this.uid[n] = Number.parseInt(hex, 16);
      this.creator[n] = -1;
    }
    this.inflight.delete(batch);
  }
}

export interface LoadOptions {
  batchSize: number;
  concurrency: number;
  onProgress?: (done: number, total: number) => void;
}

/** Loads every quad; returns the xidmap (node index → uid). */
export async function loadQuads(q: QuadSet, send: SendBatch, o: LoadOptions): Promise<XidMap> {
  const xids = new XidMap(q.nodeCount);
  let next = 0;
  let batches = 0;
  let done = 0;
  const worker = async () => {
    while (next < q.length) {
      const start = next;
      const end = Math.min(q.length, start + o.batchSize);
      next = end;
      const id = batches++;
      let waited = false;
      // Re-check after every wait: batches claimed meanwhile may have started creating shared nodes.
      for (
        let deps = xids.dependencies(q, start, end, id);
        deps.length > 0;
        deps = xids.dependencies(q, start, end, id)
      ) {
        await Promise.all(deps);
        waited = true;
      }
      if (waited) xids.waitedBatches++;
      xids.batches++;
      const created: number[] = [];
      const text = xids.serialize(q, start, end, id, created);
      let finish!: () => void;
      let fail!: (e: unknown) => void;
      const settled = new Promise<void>((res, rej) => {
        finish = res;
        fail = rej;
      });
      settled.catch(() => {});
      xids.track(id, settled);
      try {
        const uids = await send(text, end - start);
        xids.settle(id, created, uids);
        finish();
      } catch (e) {
        fail(e);
        throw e;
      }
      done += end - start;
      o.onProgress?.(done, q.length);
    }
  };
  await Promise.all(Array.from({ length: o.concurrency }, worker));
  return xids;
}
