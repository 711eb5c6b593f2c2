/**
 * Precompression of a built site: next to each text file, `<file>.br` and `<file>.gz` (build-layout.ts,
 * `STATIC_ENCODINGS`), made once at build time at the highest levels so the server never compresses per
 * request. A variant is written only when it saves at least `MIN_SAVING` of the file.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import { STATIC_ENCODINGS } from "../app/build-layout.ts";
import type { SiteFile } from "./site-files.ts";

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Extensions of files worth compressing: text, and formats that are text underneath or compress well. */
const COMPRESSIBLE = /\.(html?|m?js|cjs|css|svg|json|webmanifest|map|txt|xml|csv|md|wasm|ico)$/i;
/** Below this fraction of its size a variant is worth its disk and the server's lookup. */
const MIN_SAVING = 0.05;
const CONCURRENCY = 4;

export interface PrecompressResult {
  /** Files that got at least one variant. */
  files: number;
  /** Variants written (`.br` and `.gz`). */
  variants: number;
}

/** Writes the `.br`/`.gz` siblings of the compressible files among `files` (paths relative to `dir`). */
export async function precompressSite(dir: string, files: SiteFile[]): Promise<PrecompressResult> {
  const todo = files.filter((f) => COMPRESSIBLE.test(f.path) && !f.path.startsWith(".vite/"));
  const result: PrecompressResult = { files: 0, variants: 0 };
  let next = 0;
  const worker = async () => {
    while (next < todo.length) {
      const file = todo[next++] as SiteFile;
      const written = await precompressFile(join(dir, file.path));
      if (written > 0) result.files++;
      result.variants += written;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return result;
}

type Encoding = (typeof STATIC_ENCODINGS)[number]["encoding"];

const COMPRESSORS: Record<Encoding, (data: Buffer) => Promise<Buffer>> = {
  br: (data) =>
    brotli(data, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
      },
    }),
  gzip: (data) => gzipAsync(data, { level: constants.Z_BEST_COMPRESSION }),
};

async function precompressFile(path: string): Promise<number> {
  const original = await readFile(path);
  let written = 0;
  for (const { encoding, suffix } of STATIC_ENCODINGS) {
    const compressed = await COMPRESSORS[encoding](original);
    if (compressed.length > original.length * (1 - MIN_SAVING)) continue;
    await writeFile(path + suffix, compressed);
    written++;
  }
  return written;
}
