/**
 * Loads a QuadSet into Trellis in N-Quad batches the way Dgraph's live loader does: every node gets its uid
 * from a block leased up front (Zero's `/assign?what=uids&num=N`), remembered in the xidmap, and every
 * batch names its nodes `<0x…>`. Concurrent batches therefore never wait for one another: a node is
 * created by whichever batch first writes an edge of it.
 */
import { nquadLiteral, type QuadSet } from "./quads.ts";

/** Sends one batch of N-Quads (a `set`, committed now). */
export type SendBatch = (nquads: string, quadCount: number) => Promise<unknown>;
/** Leases `n` consecutive uids (`/assign?what=uids&num=n`, or `engine.assignUids` in-process). */
export type AssignUids = (n: number) => Promise<{ startId: number; endId: number }>;

/** Uids leased from the server and not yet given to a node. */
class UidLeases {
  private readonly ranges: { next: number; end: number }[] = [];
  private pending: Promise<void> | undefined;
  leases = 0;

  constructor(
    private readonly assign: AssignUids,
    private readonly blockSize: number,
  ) {}

  available(): number {
    let n = 0;
    for (const r of this.ranges) n += r.end - r.next + 1;
    return n;
  }

  /** Resolves once at least `n` uids are available (concurrent callers share one request). */
  async reserve(n: number): Promise<void> {
    while (this.available() < n) {
      this.pending ??= this.assign(Math.max(this.blockSize, n)).then(({ startId, endId }) => {
        this.ranges.push({ next: startId, end: endId });
        this.leases++;
        this.pending = undefined;
      });
      await this.pending;
    }
  }

  /** The next leased uid; reserve() first. */
  take(): number {
    const r = this.ranges[0];
    if (r === undefined) throw new Error("no leased uids left: reserve() first");
    const uid = r.next++;
    if (r.next > r.end) this.ranges.shift();
    return uid;
  }
}

export class XidMap {
  /** node index → uid (0 = none yet). */
  readonly uid: Float64Array;
  /** /assign requests made. */
  leases = 0;
  batches = 0;
  /** Batches sent again after their transaction was aborted by a concurrent one. */
  retries = 0;

  constructor(nodeCount: number) {
    this.uid = new Float64Array(nodeCount);
  }

  /** Nodes of quads [start, end) without a uid (an upper bound: repeats are counted). */
  missing(q: QuadSet, start: number, end: number): number {
    let n = 0;
    for (let i = start; i < end; i++) {
      if (this.uid[q.s[i]] === 0) n++;
      if (q.o[i] >= 0 && this.uid[q.o[i]] === 0) n++;
    }
    return n;
  }

  /** N-Quad text for quads [start, end), giving nodes without a uid the next leased ones. */
  serialize(q: QuadSet, start: number, end: number, leases: { take(): number }): string {
    const predTok = q.preds.map((p) => `<${p}>`);
    const ref = (n: number): string => {
      let u = this.uid[n];
      if (u === 0) u = this.uid[n] = leases.take();
      return `<0x${u.toString(16)}>`;
    };
    const lines: string[] = new Array(end - start);
    for (let i = start; i < end; i++) {
      const o = q.o[i];
      const obj = o >= 0 ? ref(o) : nquadLiteral(q.litValue[-o - 1], q.litLang[-o - 1]);
      lines[i - start] = `${ref(q.s[i])} ${predTok[q.p[i]]} ${obj} .`;
    }
    return lines.join("\n");
  }
}

const ABORTED = /Transaction has been aborted/;

export interface LoadOptions {
  batchSize: number;
  concurrency: number;
  /** Uids per /assign request (Dgraph's live loader leases in blocks too). Default 100,000. */
  leaseBlock?: number;
  onProgress?: (done: number, total: number) => void;
}

/** Loads every quad; returns the xidmap (node index → uid). */
export async function loadQuads(
  q: QuadSet,
  send: SendBatch,
  assign: AssignUids,
  o: LoadOptions,
): Promise<XidMap> {
  const xids = new XidMap(q.nodeCount);
  const leases = new UidLeases(assign, o.leaseBlock ?? 100_000);
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < q.length) {
      const start = next;
      const end = Math.min(q.length, start + o.batchSize);
      next = end;
      // Re-check after each wait (other batches may have taken uids meanwhile); from the last check to
      // serialize nothing awaits, so no other batch can take the uids this one counted on.
      for (let need = xids.missing(q, start, end); leases.available() < need; ) {
        await leases.reserve(need);
        need = xids.missing(q, start, end);
      }
      const text = xids.serialize(q, start, end, leases);
      xids.batches++;
      // Batches sharing a node (a film's edges split across two batches) are concurrent transactions:
      // one of them may be aborted, and is sent again, as Dgraph's live loader does.
      for (let attempt = 1; ; attempt++) {
        try {
          await send(text, end - start);
          break;
        } catch (e) {
          if (!ABORTED.test(e instanceof Error ? e.message : String(e)) || attempt >= 10) throw e;
          xids.retries++;
          // Let the commit it conflicted with land first.
          await new Promise((resolve) => setTimeout(resolve, attempt));
        }
      }
      done += end - start;
      o.onProgress?.(done, q.length);
    }
  };
  await Promise.all(Array.from({ length: o.concurrency }, worker));
  xids.leases = leases.leases;
  return xids;
}
