import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { startPlatform } from "../src/platform.ts";
import { loadAdminToken, MIN_ADMIN_TOKEN_LENGTH } from "../src/secrets/admin-token.ts";
import { YogaAppRuntime } from "./support/yoga-app-runtime.ts";

/** The admin token must be long and random enough to be out of reach of guessing. */
describe("admin token strength", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "trellis-admin-token-"));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));
  afterEach(() => vi.unstubAllEnvs());

  it("refuses to start with a short admin token, saying how to make a good one", async () => {
    await expect(
      startPlatform({ port: 0, dataDir: join(dir, "short"), adminToken: "x", runtime: new YogaAppRuntime() }),
    ).rejects.toThrow(
      "the admin token (TRELLIS_ADMIN_TOKEN) is 1 character long; it must be at least 32: generate one with " +
        "`openssl rand -base64 32`",
    );
  });

  it("refuses a short or repetitive TRELLIS_ADMIN_TOKEN", async () => {
    vi.stubEnv("TRELLIS_ADMIN_TOKEN", "s3cret-but-only-31-characters!!");
    await expect(loadAdminToken(dir)).rejects.toThrow(/is 31 characters long; it must be at least 32/);
    vi.stubEnv("TRELLIS_ADMIN_TOKEN", "ab".repeat(20));
    await expect(loadAdminToken(dir)).rejects.toThrow(/uses only 2 different characters; it must be random/);
    const good = "Zq3v1yq8WJm0r6Hc2u5Kx7Pb9Ne4Ts+fAdLgYhRo0Vw=";
    vi.stubEnv("TRELLIS_ADMIN_TOKEN", good);
    expect(await loadAdminToken(dir)).toEqual({ token: good, file: "" });
  });

  it("generates a long token into the data directory, and refuses a short one found there", async () => {
    const generated = await loadAdminToken(join(dir), "");
    expect(generated.token.length).toBeGreaterThanOrEqual(MIN_ADMIN_TOKEN_LENGTH);
    expect((await readFile(generated.file, "utf8")).trim()).toBe(generated.token);
    await writeFile(generated.file, "hunter2\n");
    await expect(loadAdminToken(dir, "")).rejects.toThrow(
      `the admin token in ${generated.file} is 7 characters long; it must be at least 32: delete the file`,
    );
  });
});
