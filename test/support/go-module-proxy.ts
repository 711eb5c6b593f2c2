import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative, sep } from "node:path";
import { pathToFileURL } from "node:url";
import { zipSync } from "fflate";
import { GO_SDK_DIR, GO_SDK_MODULE } from "./go-app.ts";

/**
 * A Go module proxy on disk (GOPROXY=file://…) serving this checkout's SDK module as the version an app
 * requires, so a scaffolded Go app builds with its go.mod exactly as `trellis new` wrote it: the SDK comes
 * through the module proxy protocol (`@v/list`, `.info`, `.mod`, `.zip`) as it will from proxy.golang.org
 * once published. A private module cache keeps an earlier checkout's SDK under the same version out.
 */
export interface GoModuleProxy {
  /** Environment for `go` and `trellis build`: GOPROXY, GONOSUMDB, GOMODCACHE, GOFLAGS. */
  env: Record<string, string>;
  close(): Promise<void>;
}

export async function startGoModuleProxy(version = "v0.1.0"): Promise<GoModuleProxy> {
  const root = await mkdtemp(join(tmpdir(), "trellis-goproxy-"));
  const dir = join(root, "proxy", ...GO_SDK_MODULE.split("/"), "@v");
  await mkdir(dir, { recursive: true });
  const files: Record<string, Uint8Array> = {};
  for (const file of await listFiles(GO_SDK_DIR)) {
    const path = relative(GO_SDK_DIR, file).split(sep).join("/");
    files[`${GO_SDK_MODULE}@${version}/${path}`] = await readFile(file);
  }
  await writeFile(join(dir, "list"), `${version}\n`);
  await writeFile(
    join(dir, `${version}.info`),
    JSON.stringify({ Version: version, Time: new Date().toISOString() }),
  );
  await writeFile(join(dir, `${version}.mod`), await readFile(join(GO_SDK_DIR, "go.mod")));
  await writeFile(join(dir, `${version}.zip`), zipSync(files, { level: 0 }));
  return {
    env: {
      GOPROXY: pathToFileURL(join(root, "proxy")).href,
      // The SDK is not in the public checksum database (yet): go.sum records what this proxy served.
      GONOSUMDB: GO_SDK_MODULE,
      GOMODCACHE: join(root, "modcache"),
      GOFLAGS: `${process.env.GOFLAGS ?? ""} -modcacherw`.trim(),
    },
    close: () => rm(root, { recursive: true, force: true }),
  };
}

async function listFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await listFiles(path)));
    else if (entry.isFile()) out.push(path);
  }
  return out.sort();
}
