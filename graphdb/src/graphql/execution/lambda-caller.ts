/**
 * `@lambda` fields are resolved outside the database, by Dgraph's lambda protocol: one POST per resolver
 * and batch, body `{resolver: "Type.field", parents, args, authHeader}`, answered by the field's value, or
 * for a type's field by an array with one value per parent. A caller is an HTTP lambda server
 * (`--lambda-url`) or any function speaking the same shape in-process.
 */

export interface LambdaRequest {
  /** `Type.field`, `Query.field` or `Mutation.field`. */
  resolver: string;
  /** The parent objects (a type's field), or null (Query and Mutation fields). */
  parents: Record<string, unknown>[] | null;
  args: Record<string, unknown>;
  authHeader?: { key: string; value: string };
}

export type LambdaCaller = (request: LambdaRequest) => Promise<unknown>;

export interface HttpLambdaOptions {
  /** Time allowed for one call (default 60 s). */
  timeoutMs?: number;
  /** Largest answer accepted (default 32 MiB). */
  maxResponseBytes?: number;
}

/** A caller that POSTs to a lambda server URL. */
export function httpLambdaCaller(url: string, options: HttpLambdaOptions = {}): LambdaCaller {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const maxBytes = options.maxResponseBytes ?? 32 * 1024 * 1024;
  return async (request) => {
    const res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(request),
      signal: AbortSignal.timeout(timeoutMs),
      redirect: "error",
    });
    const declared = Number(res.headers.get("content-length"));
    if (Number.isFinite(declared) && declared > maxBytes) {
      await res.body?.cancel();
      throw new Error(`lambda answer for ${request.resolver} is larger than ${maxBytes} bytes`);
    }
    const text = await res.text();
    if (text.length > maxBytes)
      throw new Error(`lambda answer for ${request.resolver} is larger than ${maxBytes} bytes`);
    if (!res.ok)
      throw new Error(`lambda ${request.resolver} answered HTTP ${res.status}: ${text.slice(0, 200)}`);
    return text === "" ? null : JSON.parse(text);
  };
}

/**
 * Batches the calls of one resolver made in the same tick (the parents of one level) into one request,
 * and hands each parent its value back.
 */
export class LambdaBatcher {
  private readonly pending = new Map<
    string,
    { request: LambdaRequest; waiters: { resolve: (v: unknown) => void; reject: (e: unknown) => void }[] }
  >();

  constructor(private readonly caller: LambdaCaller) {}

  /** The value of a Query or Mutation lambda field. */
  call(resolver: string, args: Record<string, unknown>): Promise<unknown> {
    return this.caller({ resolver, parents: null, args });
  }

  /** The value of a type's lambda field for one parent, batched with its siblings. */
  callFor(
    resolver: string,
    parent: Record<string, unknown>,
    args: Record<string, unknown>,
  ): Promise<unknown> {
    const key = `${resolver}\u0000${JSON.stringify(args)}`;
    return new Promise((resolve, reject) => {
      let batch = this.pending.get(key);
      if (batch === undefined) {
        batch = { request: { resolver, parents: [], args }, waiters: [] };
        this.pending.set(key, batch);
        setImmediate(() => this.flush(key));
      }
      batch.request.parents?.push(parent);
      batch.waiters.push({ resolve, reject });
    });
  }

  private async flush(key: string): Promise<void> {
    const batch = this.pending.get(key);
    if (batch === undefined) return;
    this.pending.delete(key);
    try {
      const answer = await this.caller(batch.request);
      if (!Array.isArray(answer) || answer.length !== batch.waiters.length) {
        throw new Error(
          `lambda ${batch.request.resolver} must answer an array of ${batch.waiters.length} values, one per parent`,
        );
      }
      for (const [i, w] of batch.waiters.entries()) w.resolve(answer[i]);
    } catch (e) {
      for (const w of batch.waiters) w.reject(e);
    }
  }
}
