import { createLocalJWKSet, type JSONWebKeySet, type JWTVerifyGetKey } from "jose";
import { egressRefusal } from "../egress/egress-refused.ts";
import type { OutboundFetch } from "../egress/guarded-fetch.ts";

export interface JwksSourceOptions {
  /** How long a fetched key set is used before the next request fetches it again. */
  maxAgeMs: number;
  /** Minimum time between two fetches (an unknown `kid` asks for a refetch; default 30 s). */
  cooldownMs?: number;
  /** Per fetch, connecting and reading included (default 5 s). */
  timeoutMs?: number;
  /** Largest key set accepted (default 256 KiB). */
  maxBytes?: number;
  /** How the key set is fetched: under the egress policy (the platform's guarded fetch); default `fetch`. */
  fetch?: OutboundFetch;
}

const DEFAULT_COOLDOWN_MS = 30_000;
const DEFAULT_TIMEOUT_MS = 5_000;
const DEFAULT_MAX_BYTES = 256 * 1024;

/**
 * One JWKS URL's keys, fetched with bounds (time, size, no redirects) and cached: used for `maxAgeMs`,
 * then refetched in the background; fetched at most once per cooldown, one fetch at a time. A failed
 * refetch keeps the last good key set.
 * The URL was checked by jwt-settings.ts (https, or http on loopback); where it may connect is the
 * egress policy's call (`options.fetch`).
 */
export class JwksSource {
  private keys: JWTVerifyGetKey | undefined;
  private fetchedAt = 0;
  private attemptedAt = Number.NEGATIVE_INFINITY;
  private inFlight: Promise<JWTVerifyGetKey> | undefined;

  constructor(
    readonly url: URL,
    private readonly options: JwksSourceOptions,
  ) {}

  /**
   * The key set. Once past its age it is fetched again in the background (requests keep the current one
   * meanwhile); `refresh` (a token named a key the set lacks) waits for a fresh one, within the cooldown.
   */
  async keySet(refresh = false): Promise<JWTVerifyGetKey> {
    const now = Date.now();
    const stale = now - this.fetchedAt >= this.options.maxAgeMs;
    const cooledDown = now - this.attemptedAt >= (this.options.cooldownMs ?? DEFAULT_COOLDOWN_MS);
    const current = this.keys;
    if (current) {
      if (!cooledDown || !(stale || refresh)) return current;
      const fetching = this.fetch();
      if (!refresh) {
        fetching.catch(() => {}); // the current keys serve until a fetch succeeds
        return current;
      }
      return fetching.catch(() => current);
    }
    if (!cooledDown && !this.inFlight) {
      throw new Error(`the key set at ${this.url.origin} could not be fetched; retrying shortly`);
    }
    return this.fetch();
  }

  /** One fetch at a time: callers during a fetch share it. */
  private fetch(): Promise<JWTVerifyGetKey> {
    this.inFlight ??= this.fetchKeys().finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  private async fetchKeys(): Promise<JWTVerifyGetKey> {
    this.attemptedAt = Date.now();
    const timeoutMs = this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const maxBytes = this.options.maxBytes ?? DEFAULT_MAX_BYTES;
    let text: string;
    try {
      const response = await (this.options.fetch ?? fetch)(this.url, {
        headers: { accept: "application/json" },
        redirect: "error",
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      text = await readBounded(response, maxBytes);
    } catch (e) {
      const reason =
        (e as Error).name === "TimeoutError"
          ? `no answer within ${timeoutMs} ms`
          : (egressRefusal(e)?.message ?? (e as Error).message);
      throw new Error(`fetching the key set at ${this.url.origin}${this.url.pathname} failed: ${reason}`);
    }
    let jwks: JSONWebKeySet;
    try {
      jwks = JSON.parse(text) as JSONWebKeySet;
      const keys = createLocalJWKSet(jwks);
      this.keys = keys;
      this.fetchedAt = Date.now();
      return keys;
    } catch (e) {
      throw new Error(
        `the key set at ${this.url.origin}${this.url.pathname} is not a JWKS: ${(e as Error).message}`,
      );
    }
  }
}

/** The body as text, refusing more than `maxBytes` (declared or streamed). */
async function readBounded(response: Response, maxBytes: number): Promise<string> {
  const declared = Number(response.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw new Error(`larger than ${maxBytes} bytes`);
  const reader = response.body?.getReader();
  if (!reader) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw new Error(`larger than ${maxBytes} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}
