/**
 * `@lambda` fields are resolved outside the database, by Dgraph's lambda protocol: one POST per resolver
 * and batch, body `{resolver: "Type.field", parents, args, authHeader}`, answered by the field's value, or
 * for a type's field by an array with one value per parent. A caller is an HTTP lambda server
 * (`--lambda-url`) or any function speaking the same shape in-process.
 */
import { TickBatcher } from "./tick-batcher.ts";

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

/** Calls a lambda caller, batching a type's field per level (all its parents in one request). */
export class LambdaBatcher {
  private readonly batches: TickBatcher<Record<string, unknown>, unknown>;
  private readonly requests = new Map<string, { resolver: string; args: Record<string, unknown> }>();

  constructor(private readonly caller: LambdaCaller) {
    this.batches = new TickBatcher(async (key, parents) => {
      const { resolver, args } = this.requests.get(key) as {
        resolver: string;
        args: Record<string, unknown>;
      };
      this.requests.delete(key);
      const answer = await this.caller({ resolver, parents, args });
      if (!Array.isArray(answer))
        throw new Error(`lambda ${resolver} must answer an array, one value per parent`);
      return answer;
    });
  }

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
    this.requests.set(key, { resolver, args });
    return this.batches.add(key, parent);
  }
}
