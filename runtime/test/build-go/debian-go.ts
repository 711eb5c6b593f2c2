import { existsSync } from "node:fs";
import path from "node:path";

/**
 * Debian's Go 1.19 (`golang-1.19-go`): enough to run trellis-sigs and gofmt (standard library only); the
 * app builds themselves need Go >= 1.23 + TinyGo. Missing is a failure with the fix, never a skip.
 */
export function debianGoBin(): string {
  const dir = ["/usr/lib/go-1.19/bin", "/usr/local/go/bin"].find((d) => existsSync(path.join(d, "go")));
  if (!dir) {
    throw new Error(
      "no Go toolchain at /usr/lib/go-1.19/bin: the Go build-path tests need Debian's golang-1.19-go " +
        "(`.ci/run` installs it: apt-get install -y golang-1.19-go)",
    );
  }
  return dir;
}
