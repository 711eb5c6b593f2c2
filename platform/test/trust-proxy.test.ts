import { describe, expect, it } from "vitest";
import { parsePlatformArgs } from "../src/cli-args.ts";

describe("--trust-proxy", () => {
  it("takes addresses, CIDRs and proxy-addr's named ranges", () => {
    const list = "127.0.0.1, 10.0.0.0/8,192.168.0.0/255.255.0.0,::1,fd00::/8,loopback,uniquelocal";
    expect(parsePlatformArgs(["--trust-proxy", list], {}).trustProxy).toBe(
      "127.0.0.1,10.0.0.0/8,192.168.0.0/255.255.0.0,::1,fd00::/8,loopback,uniquelocal",
    );
    expect(parsePlatformArgs([], { TRELLIS_TRUST_PROXY: "10.1.2.3" }).trustProxy).toBe("10.1.2.3");
  });

  it("refuses true, * and hop counts, which would believe the client-written left-most hop", () => {
    for (const value of ["true", "*", "2", "TRUE"]) {
      expect(() => parsePlatformArgs(["--trust-proxy", value], {})).toThrow(
        new RegExp(
          `^--trust-proxy: "${value.replace("*", "\\*")}" is refused: it would believe the client-written`,
        ),
      );
    }
    expect(() => parsePlatformArgs([], { TRELLIS_TRUST_PROXY: "true" })).toThrow(/is refused/);
  });

  it("refuses what is not an address, a CIDR or a named range", () => {
    expect(() => parsePlatformArgs(["--trust-proxy", "proxy.example"], {})).toThrow(
      '--trust-proxy: "proxy.example" is not an IP address, a CIDR (10.0.0.0/8) or one of loopback',
    );
    expect(() => parsePlatformArgs(["--trust-proxy", "10.0.0.0/33"], {})).toThrow(/is not an IP address/);
  });
});
