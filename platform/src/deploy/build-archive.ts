import { mkdir, rm } from "node:fs/promises";
import { isAbsolute } from "node:path";
import { Readable, Transform, type TransformCallback } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";
import * as tar from "tar";
import { PlatformError } from "../platform-error.ts";

export interface ArchiveLimits {
  /** Largest upload (gzip) in bytes. */
  maxCompressedBytes: number;
  /** Largest total size of the extracted files; decompression stops as soon as the tar stream passes it. */
  maxExtractedBytes: number;
  maxEntries: number;
}

/**
 * A build is the component and the manifest plus, for an app with a front end, its static site: at most
 * 10,000 files and 100 MiB as Vite wrote them (`DEFAULT_SITE_LIMITS`, checked after unpacking), each
 * text file with up to two precompressed siblings, smaller than itself. Room for that and the component.
 */
export const DEFAULT_ARCHIVE_LIMITS: ArchiveLimits = {
  maxCompressedBytes: 64 * 1024 * 1024,
  maxExtractedBytes: 256 * 1024 * 1024,
  maxEntries: 32_000,
};

/** tar headers and padding around the files: 512 bytes per entry plus the end blocks. */
const TAR_OVERHEAD_PER_ENTRY = 1024;

/** Backslashes (a Windows separator: `..\\x` would escape there) and control characters, NUL included. */
const UNSAFE_NAME = /[\u0000-\u001f\u007f\\]/;

const reject = (message: string) => new PlatformError("DEPLOY_REJECTED", message);

/**
 * Unpacks an uploaded build (tar.gz of `build/`) into `dir` in one streaming pass, never holding more
 * than a chunk of it in memory: the gzip stream is counted as it inflates and cut off the moment it
 * passes the limit (a gzip bomb costs the limit, not its claimed size), and every entry is checked before
 * it is written: only plain files and directories, no absolute paths, no `..`, no links, within the
 * entry count. A rejected upload leaves nothing in `dir`.
 */
export async function extractBuildArchive(
  archive: Uint8Array,
  dir: string,
  limits: ArchiveLimits = DEFAULT_ARCHIVE_LIMITS,
): Promise<void> {
  if (archive.length === 0) throw reject("the upload is empty: send a tar.gz of your build/ folder");
  if (archive.length > limits.maxCompressedBytes) {
    throw reject(`the archive is ${archive.length} bytes; the limit is ${limits.maxCompressedBytes}`);
  }
  if (archive[0] !== 0x1f || archive[1] !== 0x8b) {
    throw reject("the upload is not a gzip file: send a tar.gz of your build/ folder");
  }
  await mkdir(dir, { recursive: true });
  const checker = new EntryChecker(limits);
  const maxTarBytes = limits.maxExtractedBytes + (limits.maxEntries + 2) * TAR_OVERHEAD_PER_ENTRY;
  try {
    await pipeline(
      Readable.from([archive]),
      createGunzip(),
      new ByteLimit(maxTarBytes, () => `the archive expands to more than ${limits.maxExtractedBytes} bytes`),
      tar.x({
        cwd: dir,
        strict: true,
        preserveOwner: false,
        noChmod: true,
        filter: (_path, entry) => checker.accept(entry as tar.ReadEntry),
      }),
    );
  } catch (e) {
    await discard(dir);
    if (checker.problem) throw reject(checker.problem);
    if (e instanceof LimitExceeded) throw reject(e.message);
    throw reject(`the archive is corrupt (${(e as Error).message}): send a tar.gz of your build/ folder`);
  }
  if (checker.problem || checker.entries === 0) {
    await discard(dir);
    throw reject(checker.problem ?? "the archive is empty: did the build write anything to build/?");
  }
}

/**
 * Removes a rejected upload's files. The extractor may still be finishing writes it had started when the
 * stream failed (ENOTEMPTY while removing): retried, and never what the uploader is told.
 */
async function discard(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 20 }).catch(() => {});
}

/** Checks entries as the parser meets them; the first problem rejects the whole upload. */
class EntryChecker {
  entries = 0;
  bytes = 0;
  problem: string | undefined;

  constructor(private readonly limits: ArchiveLimits) {}

  accept(entry: tar.ReadEntry): boolean {
    if (this.problem) return false;
    this.entries++;
    this.bytes += entry.size ?? 0;
    const path = entry.path;
    if (entry.type !== "File" && entry.type !== "OldFile" && entry.type !== "Directory") {
      this.problem = `the archive entry "${path}" is a ${entry.type}; only files and folders are accepted`;
    } else if (isAbsolute(path) || /^[a-zA-Z]:/.test(path)) {
      this.problem = `the archive entry "${path}" has an absolute path; archive the build folder's contents`;
    } else if (UNSAFE_NAME.test(path)) {
      this.problem = `the archive entry ${JSON.stringify(path)} has a backslash or a control character in its name`;
    } else if (path.split(/[\\/]/).includes("..")) {
      this.problem = `the archive entry "${path}" points outside the build folder ("..")`;
    } else if (this.entries > this.limits.maxEntries) {
      this.problem = `the archive has more than ${this.limits.maxEntries} entries`;
    } else if (this.bytes > this.limits.maxExtractedBytes) {
      this.problem = `the archive expands to more than ${this.limits.maxExtractedBytes} bytes`;
    }
    return this.problem === undefined;
  }
}

class LimitExceeded extends Error {}

/** Passes bytes through until `max` have gone by, then fails the pipeline (which stops inflating). */
class ByteLimit extends Transform {
  private seen = 0;

  constructor(
    private readonly max: number,
    private readonly explain: () => string,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.seen += chunk.length;
    if (this.seen > this.max) done(new LimitExceeded(this.explain()));
    else done(null, chunk);
  }
}
