import { mkdir, rm, writeFile } from "node:fs/promises";
import { isAbsolute, join } from "node:path";
import * as tar from "tar";
import { PlatformError } from "../platform-error.ts";

export interface ArchiveLimits {
  /** Largest upload (gzip) in bytes. */
  maxCompressedBytes: number;
  /** Largest total size of the extracted files. */
  maxExtractedBytes: number;
  maxEntries: number;
}

export const DEFAULT_ARCHIVE_LIMITS: ArchiveLimits = {
  maxCompressedBytes: 64 * 1024 * 1024,
  maxExtractedBytes: 256 * 1024 * 1024,
  maxEntries: 10_000,
};

const reject = (message: string) => new PlatformError("DEPLOY_REJECTED", message);

/**
 * Unpacks an uploaded build (tar.gz of `build/`) into `dir`. Everything is checked before a byte is
 * written: only plain files and directories, no absolute paths, no `..`, no links, within the size limits.
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
  const file = join(dir, "..", `${dir.split(/[\\/]/).pop()}.upload.tgz`);
  await writeFile(file, archive);
  try {
    await inspect(file, limits);
    await tar.x({ file, cwd: dir, strict: true, preserveOwner: false, noChmod: true });
  } finally {
    await rm(file, { force: true });
  }
}

async function inspect(file: string, limits: ArchiveLimits): Promise<void> {
  let entries = 0;
  let bytes = 0;
  let problem: string | undefined;
  const check = (entry: tar.ReadEntry) => {
    if (problem) return;
    entries++;
    bytes += entry.size ?? 0;
    const path = entry.path;
    if (entry.type !== "File" && entry.type !== "OldFile" && entry.type !== "Directory") {
      problem = `the archive entry "${path}" is a ${entry.type}; only files and folders are accepted`;
    } else if (isAbsolute(path) || /^[a-zA-Z]:/.test(path)) {
      problem = `the archive entry "${path}" has an absolute path; archive the build folder's contents`;
    } else if (path.split(/[\\/]/).includes("..")) {
      problem = `the archive entry "${path}" points outside the build folder ("..")`;
    } else if (entries > limits.maxEntries) {
      problem = `the archive has more than ${limits.maxEntries} entries`;
    } else if (bytes > limits.maxExtractedBytes) {
      problem = `the archive expands to more than ${limits.maxExtractedBytes} bytes`;
    }
  };
  try {
    await tar.t({ file, strict: true, onReadEntry: check });
  } catch (e) {
    throw reject(`the archive is corrupt (${(e as Error).message}): send a tar.gz of your build/ folder`);
  }
  if (problem) throw reject(problem);
  if (entries === 0) throw reject("the archive is empty: did the build write anything to build/?");
}
