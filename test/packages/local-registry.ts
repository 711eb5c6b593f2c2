/**
 * A local npm registry (Verdaccio 5) on loopback for tests that publish the workspace packages and install
 * them the way a user would. `@trellis/*` packages are published to it without authentication and never
 * proxied (only what this run published can be installed); everything else is proxied to
 * https://registry.npmjs.org.
 *
 * To keep reruns fast, Verdaccio's storage of proxied packages and the npm cache live in `cacheDir`, which
 * survives between runs (it is under node_modules/.cache/). Packages published by a previous run are
 * removed before the registry starts, and npx's install folders are dropped, so a run never installs an
 * earlier run's @trellis tarballs.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { stringify } from "yaml";

export const UPSTREAM = "https://registry.npmjs.org/";
const SCOPE = "@trellis";

export interface LocalRegistry {
  url: string;
  /**
   * Environment for npm commands: the registry, a user config with a placeholder token (npm refuses to
   * publish without one; Verdaccio treats the request as anonymous), the persistent npm cache.
   */
  npmEnv: Record<string, string>;
  /** Verdaccio's output so far, for failure messages. */
  output(): string;
  close(): Promise<void>;
}

export async function startLocalRegistry(cacheDir: string): Promise<LocalRegistry> {
  const storage = join(cacheDir, "verdaccio-storage");
  const npmCache = join(cacheDir, "npm-cache");
  // Never reuse what an earlier run published: its @trellis packages and Verdaccio's list of local packages.
  await rm(join(storage, SCOPE), { recursive: true, force: true });
  await rm(join(storage, ".verdaccio-db.json"), { force: true });
  // npx keeps one install folder per package spec; @trellis/cli@0.1.0 must come from this run's registry.
  await rm(join(npmCache, "_npx"), { recursive: true, force: true });
  await mkdir(storage, { recursive: true });

  const dir = await mkdtemp(join(tmpdir(), "trellis-registry-"));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  const config = {
    storage,
    auth: { htpasswd: { file: join(dir, "htpasswd"), max_users: -1 } },
    uplinks: {
      // Proxied metadata is reused for a day before Verdaccio asks npmjs again (reruns stay offline-fast).
      npmjs: { url: UPSTREAM, maxage: "1d", timeout: "60s", max_fails: 5 },
    },
    packages: {
      [`${SCOPE}/*`]: { access: "$anonymous", publish: "$anonymous", unpublish: "$anonymous" },
      "**": { access: "$all", publish: "$authenticated", proxy: "npmjs" },
    },
    max_body_size: "50mb",
    server: { keepAliveTimeout: 60 },
    log: { type: "stdout", format: "pretty", level: "warn" },
  };
  const configFile = join(dir, "config.yaml");
  await writeFile(configFile, stringify(config));
  const userConfig = join(dir, "npmrc");
  await writeFile(
    userConfig,
    [`registry=${url}`, `//127.0.0.1:${port}/:_authToken=anonymous`, "update-notifier=false", ""].join("\n"),
  );

  const bin = join(
    dirname(createRequire(import.meta.url).resolve("verdaccio/package.json")),
    "bin/verdaccio",
  );
  const child: ChildProcess = spawn(
    process.execPath,
    [bin, "--config", configFile, "--listen", `127.0.0.1:${port}`],
    {
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  child.stdout?.on("data", (d) => (output += d));
  child.stderr?.on("data", (d) => (output += d));

  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`verdaccio exited with ${child.exitCode}:\n${output}`);
    const ok = await fetch(`${url}-/ping`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) {
      child.kill();
      throw new Error(`verdaccio did not answer on ${url} within 30 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }

  return {
    url,
    npmEnv: {
      npm_config_registry: url,
      npm_config_userconfig: userConfig,
      npm_config_cache: npmCache,
      // Always ask the registry for package metadata (it is local, and answers from its cache for proxied
      // packages), so a cached @trellis document of an earlier run can never pick an old tarball.
      npm_config_prefer_online: "true",
      npm_config_update_notifier: "false",
      npm_config_fund: "false",
      npm_config_audit: "false",
    },
    output: () => output,
    async close() {
      if (child.exitCode === null) {
        child.kill("SIGTERM");
        await new Promise((r) => child.once("exit", r));
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as { port: number };
  await new Promise((r) => server.close(r));
  return port;
}
