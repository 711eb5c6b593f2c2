import { describe, expect, it } from "vitest";
import { parsePlatformArgs } from "../src/cli-args.ts";

describe("memory bound flags", () => {
  it("reads --max-request-memory, --max-app-memory and --max-total-memory in bytes", () => {
    expect(parsePlatformArgs([], {}).memoryLimits).toEqual({});
    const parsed = parsePlatformArgs(
      ["--max-request-memory", "1048576", "--max-app-memory", "4194304", "--max-total-memory", "67108864"],
      {},
    );
    expect(parsed.memoryLimits).toEqual({ requestBytes: 1048576, appBytes: 4194304, totalBytes: 67108864 });
  });

  it("reads --graphdb-max-remote-answer (or TRELLIS_GRAPHDB_MAX_REMOTE_ANSWER) in bytes", () => {
    expect(parsePlatformArgs([], {}).graphdb?.limits).toEqual({});
    expect(parsePlatformArgs(["--graphdb-max-remote-answer", "1048576"], {}).graphdb?.limits).toEqual({
      remoteAnswerBytes: 1048576,
    });
    expect(parsePlatformArgs([], { TRELLIS_GRAPHDB_MAX_REMOTE_ANSWER: "65536" }).graphdb?.limits).toEqual({
      remoteAnswerBytes: 65536,
    });
    expect(() => parsePlatformArgs(["--graphdb-max-remote-answer", "32MiB"], {})).toThrow(
      /--graphdb-max-remote-answer/,
    );
  });

  it("refuses what is no byte count greater than 0", () => {
    expect(() => parsePlatformArgs(["--max-app-memory", "64MB"], {})).toThrow(
      "--max-app-memory: not a number: 64MB",
    );
    expect(() => parsePlatformArgs(["--max-request-memory", "0"], {})).toThrow(
      "--max-request-memory: must be a number of bytes greater than 0",
    );
  });
});
