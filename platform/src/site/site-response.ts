import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { readFile } from "node:fs/promises";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { STATIC_INDEX_FILE } from "@trellis/runtime";
import type { SiteFile, SiteIndex, SiteRepresentation } from "./site-index.ts";
import { looksLikeFile, sitePath } from "./site-path.ts";
import { WeightedLru } from "./weighted-lru.ts";

/** A static response: status, headers and body (a buffer, a file stream, or none for HEAD and 304). */
export interface SiteResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer | Readable | undefined;
}

export interface SiteRequest {
  method: string;
  url: string;
  acceptEncoding: string | undefined;
  ifNoneMatch: string | undefined;
}

export const IMMUTABLE = "public, max-age=31536000, immutable";
export const REVALIDATE = "no-cache";
const NOT_FOUND_PAGE = "404.html";

/**
 * Answers GET and HEAD for a site: the file the path names, else `index.html` for a path that does not
 * look like a file when the site falls back (client-side routes), else the site's own `404.html` with
 * status 404, else a plain 404. Chooses the precompressed variant the client accepts (brotli over gzip),
 * answers a matching `If-None-Match` with 304, and marks content-hashed files immutable.
 */
export class SiteResponder {
  private readonly bodies: WeightedLru<string, Buffer>;

  /**
   * @param maxCachedBytes bytes of small files kept in memory across all sites
   * @param maxCachedFileBytes files up to this size are kept in memory; larger ones are streamed
   */
  constructor(
    maxCachedBytes: number,
    private readonly maxCachedFileBytes: number,
  ) {
    this.bodies = new WeightedLru(maxCachedBytes);
  }

  async respond(site: SiteIndex, request: SiteRequest): Promise<SiteResponse> {
    const path = sitePath(request.url);
    const found = path === undefined ? undefined : this.find(site, path);
    if (found) return this.serve(found, 200, request);
    const notFound = site.files.get(NOT_FOUND_PAGE);
    if (notFound) return this.serve(notFound, 404, { ...request, ifNoneMatch: undefined });
    const body = Buffer.from("Not Found\n");
    return {
      status: 404,
      headers: {
        "content-type": "text/plain; charset=utf-8",
        "cache-control": REVALIDATE,
        "content-length": String(body.length),
      },
      body: request.method === "HEAD" ? undefined : body,
    };
  }

  private find(site: SiteIndex, path: string): SiteFile | undefined {
    const file = site.files.get(path);
    if (file) return file;
    if (looksLikeFile(path)) return undefined;
    return (
      site.files.get(path === "" ? STATIC_INDEX_FILE : `${path}/${STATIC_INDEX_FILE}`) ??
      (site.spaFallback ? site.files.get(STATIC_INDEX_FILE) : undefined)
    );
  }

  private async serve(file: SiteFile, status: number, request: SiteRequest): Promise<SiteResponse> {
    const representation = chooseRepresentation(file, request.acceptEncoding);
    const cached = await this.prepare(representation);
    const headers: Record<string, string> = {
      "content-type": file.contentType,
      "cache-control": file.immutable && status === 200 ? IMMUTABLE : REVALIDATE,
      etag: representation.etag as string,
    };
    if (file.encoded.length > 0) headers.vary = "Accept-Encoding";
    if (representation.encoding) headers["content-encoding"] = representation.encoding;
    if (status === 200 && matchesEtag(request.ifNoneMatch, headers.etag)) {
      return { status: 304, headers, body: undefined };
    }
    headers["content-length"] = String(representation.size);
    if (request.method === "HEAD") return { status, headers, body: undefined };
    return { status, headers, body: cached ?? createReadStream(representation.absolute) };
  }

  /** Computes the representation's ETag on first use, and returns its bytes when small enough to keep. */
  private async prepare(representation: SiteRepresentation): Promise<Buffer | undefined> {
    if (representation.size <= this.maxCachedFileBytes) {
      let bytes = this.bodies.get(representation.absolute);
      if (!bytes) {
        bytes = await readFile(representation.absolute);
        this.bodies.set(representation.absolute, bytes, bytes.length);
      }
      representation.etag ??= etagOf(createHash("sha256").update(bytes));
      return bytes;
    }
    if (representation.etag === undefined) {
      const hash = createHash("sha256");
      await pipeline(createReadStream(representation.absolute), hash);
      representation.etag = etagOf(hash);
    }
    return undefined;
  }
}

function etagOf(hash: ReturnType<typeof createHash>): string {
  return `"${hash.digest("base64url").slice(0, 27)}"`;
}

/** The most preferred precompressed variant the client accepts (a `q` above 0), else the file as written. */
export function chooseRepresentation(file: SiteFile, acceptEncoding: string | undefined): SiteRepresentation {
  if (!acceptEncoding || file.encoded.length === 0) return file.identity;
  const accepted = new Map<string, number>();
  for (const part of acceptEncoding.split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    if (name) accepted.set(name, Number.isFinite(weight) ? weight : 0);
  }
  for (const representation of file.encoded) {
    const encoding = representation.encoding as string;
    if ((accepted.get(encoding) ?? accepted.get("*") ?? 0) > 0) return representation;
  }
  return file.identity;
}

/** `If-None-Match` (a list, or `*`) names this ETag; compared weakly, as RFC 9110 asks for this header. */
function matchesEtag(header: string | undefined, etag: string | undefined): boolean {
  if (!header || !etag) return false;
  return header
    .split(",")
    .map((t) => t.trim().replace(/^W\//, ""))
    .some((t) => t === "*" || t === etag);
}
