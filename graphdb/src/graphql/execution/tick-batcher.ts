/**
 * Gathers the calls made under one key in the same turn of the event loop — the parents of one level of a
 * result, which graphql-js resolves one by one — into one batch, and hands each caller its own answer.
 */
export class TickBatcher<I, O> {
  private readonly pending = new Map<
    string,
    { inputs: I[]; waiters: { resolve: (v: O) => void; reject: (e: unknown) => void }[] }
  >();

  /** `run` answers a batch: one output per input, in order. */
  constructor(private readonly run: (key: string, inputs: I[]) => Promise<O[]>) {}

  add(key: string, input: I): Promise<O> {
    return new Promise((resolve, reject) => {
      let batch = this.pending.get(key);
      if (batch === undefined) {
        batch = { inputs: [], waiters: [] };
        this.pending.set(key, batch);
        setImmediate(() => void this.flush(key));
      }
      batch.inputs.push(input);
      batch.waiters.push({ resolve, reject });
    });
  }

  private async flush(key: string): Promise<void> {
    const batch = this.pending.get(key);
    if (batch === undefined) return;
    this.pending.delete(key);
    try {
      const outputs = await this.run(key, batch.inputs);
      if (outputs.length !== batch.inputs.length) {
        throw new Error(`expected ${batch.inputs.length} answers, one per parent, got ${outputs.length}`);
      }
      for (const [i, w] of batch.waiters.entries()) w.resolve(outputs[i]);
    } catch (e) {
      for (const w of batch.waiters) w.reject(e);
    }
  }
}
