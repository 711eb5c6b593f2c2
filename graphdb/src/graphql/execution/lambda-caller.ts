/**
 * `@lambda` fields are resolved outside the database, by Dgraph's lambda protocol: one POST per resolver
 * and batch, body `{resolver: "Type.field", parents, args, authHeader}`, answered by the field's value, or
 * for a type's field by an array with one value per parent. A caller is an HTTP lambda server
 * (`--lambda-url`) or any function speaking the same shape in-process (a Trellis app's functions, see
 * `@trellis/runtime`'s `appLambdaCaller`).
 *
 * In-process callers get two things the wire protocol has no room for: the operation's `namespace` (so a
 * multi-tenant host can route to the namespace's owner), and per-parent failures: an `Error` in the
 * answer array fails that parent's field only, where a thrown error fails the field of every parent.
 */
import { DEFAULT_MAX_REMOTE_ANSWER_BYTES, readBoundedText } from "./outbound-fetch.ts";
import { TickBatcher } from "./tick-batcher.ts";

export interface LambdaRequest {
  /** `Type.field`, `Query.field` or `Mutation.field`. */
  resolver: string;
  /** The parent objects (a type's field), or null (Query and Mutation fields). */
  parents: Record<string, unknown>[] | null;
  args: Record<string, unknown>;
  authHeader?: { key: string; value: string };
  /** The namespace the operation runs in (in-process callers only: never sent to a lambda server). */
  namespace?: number;
}

/**
 * Answers a lambda request: the field's value, or for a type's field an array with one entry per parent,
 * where an `Error` entry fails that parent's field alone.
 */
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
  const maxBytes = options.maxResponseBytes ?? DEFAULT_MAX_REMOTE_ANSWER_BYTES;
  return async (request) => {
    const res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      // Dgraph's body exactly: the namespace stays in the process.
      body: JSON.stringify({
        resolver: request.resolver,
        parents: request.parents,
        args: request.args,
        authHeader: request.authHeader,
      }),
      signal: AbortSignal.timeout(timeoutMs),
      redirect: "error",
    });
    // Read as it streams in: an endless answer is cut off at the limit, its connection cancelled.
    const text = await readBoundedText(res, maxBytes, `lambda answer for ${request.resolver}`);
    if (!res.ok)
      throw new Error(`lambda ${request.resolver} answered HTTP ${res.status}: ${text.slice(0, 200)}`);
    return text === "" ? null : JSON.parse(text);
  };
}

/**
 * Calls a lambda caller for the operations of one namespace, batching a type's field per level (all its
 * parents in one request).
 */
export class LambdaBatcher {
  private readonly batches: TickBatcher<Record<string, unknown>, unknown>;
  private readonly requests = new Map<string, { resolver: string; args: Record<string, unknown> }>();

  constructor(
    private readonly caller: LambdaCaller,
    private readonly namespace?: number,
  ) {
    this.batches = new TickBatcher(async (key, parents) => {
      const { resolver, args } = this.requests.get(key) as {
        resolver: string;
        args: Record<string, unknown>;
      };
      this.requests.delete(key);
      const answer = await this.caller({ resolver, parents, args, namespace: this.namespace });
      if (!Array.isArray(answer))
        throw new Error(`lambda ${resolver} must answer an array, one value per parent`);
      return answer;
    });
  }

  /** The value of a Query or Mutation lambda field. */
  call(resolver: string, args: Record<string, unknown>): Promise<unknown> {
    return this.caller({ resolver, parents: null, args, namespace: this.namespace });
  }

  /** The value of a type's lambda field for one parent, batched with its siblings. */
  async callFor(
    resolver: string,
    parent: Record<string, unknown>,
    args: Record<string, unknown>,
  ): Promise<unknown> {
    const key = `${resolver}\u0000${JSON.stringify(args)}`;
    this.requests.set(key, { resolver, args });
    const value = await this.batches.add(key, parent);
    if (value instanceof Error) throw value;
    return value;
  }
}
