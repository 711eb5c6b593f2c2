/**
 * Request bodies: size limit, `Content-Encoding: gzip` decoding and `Content-Type` media-type parsing,
 * with Dgraph's error texts.
 */
import type { IncomingHttpHeaders, IncomingMessage } from "node:http";
import { gunzip } from "node:zlib";
import { RequestError } from "./envelope.ts";
import { headerValue } from "./header-value.ts";

export const DEFAULT_BODY_LIMIT = 32 * 1024 * 1024;

export function bodyTooLarge(limit: number): RequestError {
  return new RequestError(`Request body too large: the limit is ${limit} bytes`);
}

/**
 * Reads the whole body, failing once it exceeds `limit` bytes. The rest of an oversized upload is drained
 * and discarded (not destroyed) so the error response still reaches the client.
 */
export function readRawBody(raw: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(raw.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limit) {
    raw.resume();
    return Promise.reject(bodyTooLarge(limit));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = () => {
      raw.off("data", onData);
      raw.off("end", onEnd);
      raw.off("error", onError);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        cleanup();
        chunks.length = 0;
        raw.on("error", () => {});
        raw.resume();
        reject(bodyTooLarge(limit));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(Buffer.concat(chunks, size));
    };
    const onError = (err: Error) => {
      cleanup();
      reject(new RequestError(err.message));
    };
    raw.on("data", onData);
    raw.on("end", onEnd);
    raw.on("error", onError);
  });
}

/** Undoes `Content-Encoding` (gzip or identity) like Dgraph's `readRequest`. */
export async function decodeContent(
  body: Buffer,
  headers: IncomingHttpHeaders,
  limit: number,
): Promise<Buffer> {
  const encoding = headerValue(headers, "content-encoding") ?? "";
  if (encoding === "" || encoding === "identity") return body;
  if (encoding !== "gzip") throw new RequestError("Unsupported content encoding");
  if (body.length < 10 || body[0] !== 0x1f || body[1] !== 0x8b) {
    throw new RequestError("Unable to create decompressor", "Error");
  }
  return new Promise((resolve, reject) => {
    gunzip(body, { maxOutputLength: limit }, (err, out) => {
      if (!err) return resolve(out);
      const code = (err as NodeJS.ErrnoException).code;
      if (code === "ERR_BUFFER_TOO_LARGE" || err instanceof RangeError) return reject(bodyTooLarge(limit));
      if (code === "Z_BUF_ERROR") return reject(new RequestError("unexpected EOF"));
      if (/check/i.test(err.message)) return reject(new RequestError("gzip: invalid checksum"));
      reject(new RequestError(`flate: corrupt input: ${err.message}`));
    });
  });
}

export interface MediaType {
  /** Lower-cased `type/subtype`, "" when the header is absent. */
  type: string;
  params: Record<string, string>;
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** Go's `mime.ParseMediaType`, reduced to what the handlers need; malformed → `Invalid Content-Type`. */
export function parseMediaType(header: string | undefined): MediaType {
  if (header === undefined || header.trim() === "") return { type: "", params: {} };
  const [head, ...rest] = splitParams(header);
  const type = head.trim().toLowerCase();
  const slash = type.indexOf("/");
  if (slash <= 0 || !TOKEN.test(type.slice(0, slash)) || !TOKEN.test(type.slice(slash + 1))) {
    throw new RequestError("Invalid Content-Type");
  }
  const params: Record<string, string> = {};
  for (const part of rest) {
    if (part.trim() === "") continue;
    const eq = part.indexOf("=");
    const key = part.slice(0, eq).trim().toLowerCase();
    let value = part.slice(eq + 1).trim();
    if (eq < 0 || !TOKEN.test(key)) throw new RequestError("Invalid Content-Type");
    if (value.startsWith('"')) {
      if (value.length < 2 || !value.endsWith('"')) throw new RequestError("Invalid Content-Type");
      value = value.slice(1, -1).replace(/\\(.)/g, "$1");
    } else if (!TOKEN.test(value)) {
      throw new RequestError("Invalid Content-Type");
    }
    params[key] = value;
  }
  return { type, params };
}

/** Splits on `;` outside quoted strings. */
function splitParams(header: string): string[] {
  const parts: string[] = [];
  let current = "";
  let quoted = false;
  for (let i = 0; i < header.length; i++) {
    const c = header[i];
    if (quoted && c === "\\" && i + 1 < header.length) {
      current += c + header[++i];
      continue;
    }
    if (c === '"') quoted = !quoted;
    if (c === ";" && !quoted) {
      parts.push(current);
      current = "";
    } else {
      current += c;
    }
  }
  parts.push(current);
  return parts;
}

/** Rejects a `charset` other than UTF-8, as /query and /mutate do. */
export function checkCharset(media: MediaType): void {
  const charset = media.params.charset;
  if (charset !== undefined && charset.toLowerCase() !== "utf-8") {
    throw new RequestError("Unsupported charset. Supported charset is UTF-8");
  }
}
