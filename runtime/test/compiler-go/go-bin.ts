import { execFileSync } from "node:child_process";
import path from "node:path";

/**
 * The directory of the `go` on PATH (Go >= 1.24 comes with every machine of this project; the test
 * preparation step checks it). Missing is a failure with the fix, never a skip.
 */
export function goBinDir(): string {
  try {
    const goroot = execFileSync("go", ["env", "GOROOT"], { encoding: "utf8" }).trim();
    return path.join(goroot, "bin");
  } catch {
    throw new Error(
      "`go` is not on PATH: install Go 1.24 or newer from https://go.dev/dl/ (see scripts/test-services.mjs)",
    );
  }
}
