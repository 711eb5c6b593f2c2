import { describe, expect, it } from "vitest";
import { parsePlatformArgs } from "../src/cli-args.ts";
import { startTestPlatform } from "./support/test-platform.ts";

describe("the egress settings", () => {
  it("reads --egress-allow over TRELLIS_EGRESS_ALLOW; none by default (the deployed policy as is)", () => {
    expect(parsePlatformArgs([], {}).egress).toEqual({ allow: [] });
    expect(
      parsePlatformArgs([], { TRELLIS_EGRESS_ALLOW: "10.0.0.0/8, db.internal:5432 127.0.0.1:11434" }).egress,
    ).toEqual({ allow: ["10.0.0.0/8", "db.internal:5432", "127.0.0.1:11434"] });
    expect(
      parsePlatformArgs(["--egress-allow", "[::1]:5432"], { TRELLIS_EGRESS_ALLOW: "10.0.0.0/8" }).egress,
    ).toEqual({ allow: ["[::1]:5432"] });
  });

  it("refuses to start on an allow entry it cannot read, saying what entries look like", async () => {
    await expect(startTestPlatform({ egress: { allow: ["10.0.0.0/33"] } })).rejects.toThrow(
      'egress allow entry "10.0.0.0/33" is not a CIDR range, IP address or hostname with an optional :port ' +
        "(e.g. 10.0.0.0/8, 127.0.0.1:11434, db.internal:5432, [::1]:5432)",
    );
  });
});
