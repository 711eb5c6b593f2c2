/**
 * One GraphQL operation's reads and writes against the engine: every query and mutation of a root field
 * runs at one start timestamp, and the writes commit together (or not at all).
 */
import type { GraphEngine, MutateResponse, MutationInput } from "../../engine/engine-api.ts";

export interface ReadOptions {
  /** Write nodes whose selection yields nothing as `{}` (the engine's QueryRequest option). */
  keepEmptyNodes?: boolean;
}

/** How a query written from a GraphQL selection is read. */
export const SELECTION_READ: ReadOptions = { keepEmptyNodes: true };

export class DqlTransaction {
  private startTs = 0;
  private wrote = false;

  constructor(
    private readonly engine: GraphEngine,
    readonly namespace: number,
    private readonly timeoutMs: number | undefined,
  ) {}

  /**
   * Runs a DQL query in the transaction; returns the parsed `data` object (`{"q": [...]}`). A query built
   * from a GraphQL selection (selectionDql) is read with `keepEmptyNodes`: a node none of whose asked
   * values exist is still an object of its list.
   */
  async query<T = Record<string, unknown>>(dql: string, options: ReadOptions = {}): Promise<T> {
    const res = await this.engine.query({
      namespace: this.namespace,
      query: dql,
      startTs: this.startTs,
      timeoutMs: this.timeoutMs,
      keepEmptyNodes: options.keepEmptyNodes,
    });
    if (this.startTs === 0) this.startTs = res.txn.start_ts;
    return JSON.parse(res.json) as T;
  }

  /** Applies mutations (with an optional upsert query) in the transaction, not yet committed. */
  async mutate(mutations: MutationInput[], query?: string): Promise<MutateResponse> {
    const res = await this.engine.mutate({
      namespace: this.namespace,
      startTs: this.startTs,
      mutations,
      query,
      commitNow: false,
      timeoutMs: this.timeoutMs,
    });
    if (this.startTs === 0) this.startTs = res.txn.start_ts;
    this.wrote = true;
    return res;
  }

  /** Commits the writes, if any: their commit timestamp; a read-only transaction just ends (undefined). */
  async commit(): Promise<number | undefined> {
    if (!this.wrote || this.startTs === 0) return undefined;
    const txn = await this.engine.commit({ namespace: this.namespace, startTs: this.startTs });
    return txn.commit_ts;
  }

  async discard(): Promise<void> {
    if (!this.wrote || this.startTs === 0) return;
    await this.engine.commit({ namespace: this.namespace, startTs: this.startTs, abort: true });
  }
}
