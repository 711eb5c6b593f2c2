/**
 * How the GraphQL layer reaches other servers for a tenant's schema (`@custom(http:)` fields, the JWKS
 * URLs of `# Dgraph.Authorization`): plain `fetch` by default (a standalone server reaches anywhere, as
 * Dgraph does), or one the host hands in (`GraphQLServiceOptions.fetch`: the platform's, under its egress
 * policy). Answers are read as they stream in and cut off at a limit.
 */

/** A `fetch`: the global one, or a host's (it may refuse a connection by rejecting). */
export type OutboundFetch = (input: string | URL, init?: RequestInit) => Promise<Response>;

/** Largest answer read from an outside server (default of `GraphQLServiceOptions.maxRemoteAnswerBytes`). */
export const DEFAULT_MAX_REMOTE_ANSWER_BYTES = 32 * 1024 * 1024;

/** An answer past its limit; the connection was cancelled. */
export class AnswerTooLargeError extends Error {
  override name = "AnswerTooLargeError";
}

/**
 * The body as text, read chunk by chunk: past `maxBytes` (declared or received) the body is cancelled,
 * which closes the connection, and AnswerTooLargeError says whose answer it was (`what`).
 */
export async function readBoundedText(res: Response, maxBytes: number, what: string): Promise<string> {
  const tooLarge = () => new AnswerTooLargeError(`${what} is larger than the limit of ${maxBytes} bytes`);
  const declared = Number(res.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await res.body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  if (!res.body) return "";
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** Why a fetch failed, as its cause says it (fetch rejects with "fetch failed" and the reason beneath). */
export function fetchFailure(e: unknown): string {
  const cause = (e as { cause?: { message?: unknown } }).cause;
  return typeof cause?.message === "string" && cause.message !== "" ? cause.message : (e as Error).message;
}
