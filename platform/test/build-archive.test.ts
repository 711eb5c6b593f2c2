import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gzipBomb } from "../../test/support/gzip-bomb.ts";
import { extractBuildArchive } from "../src/deploy/build-archive.ts";

describe("extractBuildArchive", () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), "trellis-archive-"));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it("stops inflating a gzip bomb at the limit: a 3 GiB claim costs the 256 MiB limit, not gigabytes", async () => {
    const bomb = gzipBomb(3 * 1024 ** 3);
    expect(bomb.length).toBeLessThan(4 * 1024 * 1024);
    const dir = join(root, "bomb");
    const rssBefore = process.memoryUsage().rss;
    let peakRss = rssBefore;
    const sampler = setInterval(() => {
      peakRss = Math.max(peakRss, process.memoryUsage().rss);
    }, 5);
    const started = performance.now();
    await expect(extractBuildArchive(bomb, dir)).rejects.toThrow(
      "the archive expands to more than 268435456 bytes",
    );
    clearInterval(sampler);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(peakRss - rssBefore).toBeLessThan(384 * 1024 * 1024);
    await expect(readdir(dir)).rejects.toThrow(); // nothing left behind
  });
});
