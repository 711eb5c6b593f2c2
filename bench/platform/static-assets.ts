/**
 * Static asset serving, same run, same files, same load generator: the platform (a child process)
 * serving an app's deployed front end on `<app>.localhost` against nginx (Debian's package, one worker, sendfile, as a
 * single Node process is one core) serving a copy of the same `static/` folder. Measures a hashed asset
 * (`assets/index-<hash>.js`, as Vite names it; the target is ≥ 0.7× nginx's requests/s), the same
 * asset gzip-encoded (nginx `gzip_static`), and `index.html` revalidated with `If-None-Match` (304).
 *
 *   npm run bench:platform:static -- [--seconds S] [--concurrency C] [--rounds R]
 *
 * nginx: used from PATH or /usr/sbin; when missing and running as root on Debian, installed with
 * `apt-get install --no-install-recommends nginx-light`; otherwise the bench stops and says so.
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { chmod, cp, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { Agent, request } from "node:http";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { deployBuild } from "../../runtime/src/index.ts";
import { spawnServerChild, stopChild } from "../graphdb/http-client.ts";
import { percentile } from "../graphdb/latency.ts";
import { fmtInt, fmtMs, fmtRatio, renderTable } from "../graphdb/table.ts";
import { bestRound, type LoadResult } from "../runtime/graphql-load.ts";
import { buildHelloApp, parseLoadArgs } from "../runtime/hello-app.ts";

const { seconds: SECONDS, concurrency: CONCURRENCY, rounds: ROUNDS } = parseLoadArgs();
const ASSET = "assets/index-3f2a1b9c.js";
const ADMIN_TOKEN = "bench-admin-token-0123456789abcdef";

interface Target {
  port: number;
  host: string;
  path: string;
  headers: Record<string, string>;
  /** Expected status and body length (a check that both servers answer the same). */
  status: number;
  length: number;
}

function get(agent: Agent, t: Target): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: "127.0.0.1", port: t.port, path: t.path, agent, headers: { host: t.host, ...t.headers } },
      (res) => {
        let length = 0;
        res.on("data", (d: Buffer) => {
          length += d.length;
        });
        res.on("end", () =>
          res.statusCode === t.status && length === t.length
            ? resolve()
            : reject(new Error(`${t.host}${t.path}: ${res.statusCode}, ${length} bytes`)),
        );
      },
    );
    req.on("error", reject);
    req.end();
  });
}

/** Closed loop: `CONCURRENCY` keep-alive clients GET back to back for `seconds`. */
async function load(t: Target, seconds: number): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const latencies: number[] = [];
  const started = performance.now();
  const end = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < end) {
        const at = performance.now();
        await get(agent, t);
        latencies.push(performance.now() - at);
      }
    }),
  );
  const wall = performance.now() - started;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return {
    rps: (latencies.length * 1000) / wall,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
  };
}

function findNginx(): string | undefined {
  for (const dir of [...(process.env.PATH ?? "").split(":"), "/usr/sbin"]) {
    if (dir && existsSync(join(dir, "nginx"))) return join(dir, "nginx");
  }
  return undefined;
}

function nginxBinary(): string | undefined {
  const found = findNginx();
  if (found) return found;
  if (process.getuid?.() !== 0 || !existsSync("/usr/bin/apt-get")) return undefined;
  console.log("installing nginx-light (apt-get) for the comparison…");
  try {
    execFileSync("apt-get", ["install", "-y", "--no-install-recommends", "nginx-light"], {
      stdio: "ignore",
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    });
  } catch {
    return undefined;
  }
  return findNginx();
}

/** `nginx/1.22.1`, which nginx prints on stderr. */
function nginxVersion(binary: string): string {
  const out = spawnSync(binary, ["-v"], { encoding: "utf8" });
  return (out.stderr || out.stdout).replace(/^nginx version: /, "").trim();
}

const nginx = nginxBinary();
if (!nginx) {
  console.log(
    "skipped: nginx is not installed and could not be installed here; install Debian's nginx-light (apt-get install --no-install-recommends nginx-light) and run again",
  );
  process.exit(0);
}

const tmp = await mkdtemp(join(tmpdir(), "trellis-bench-static-"));
// nginx's worker runs as another user when started as root: it must read the copy it serves.
await chmod(tmp, 0o755);
try {
  console.log(
    `Node ${process.version}, ${cpus().length} CPUs, load ${loadavg()[0].toFixed(2)}; ${SECONDS}s × ${ROUNDS} rounds, ${CONCURRENCY} in flight; ${nginxVersion(nginx)}`.trim(),
  );
  const buildDir = await buildHelloApp(join(tmp, "app"));
  const staticDir = join(buildDir, "static");
  const script = `export const rows=${JSON.stringify(Array.from({ length: 400 }, (_, i) => ({ id: i, name: `row ${i}` })))};\n`;
  const html = `<!doctype html><html><head><script type="module" src="/${ASSET}"></script></head><body>${"<p>hello</p>".repeat(100)}</body></html>`;
  await mkdir(join(staticDir, "assets"), { recursive: true });
  await writeFile(join(staticDir, ASSET), script);
  await writeFile(join(staticDir, `${ASSET}.gz`), gzipSync(script, { level: 9 }));
  await writeFile(join(staticDir, "index.html"), html);
  const nginxRoot = join(tmp, "nginx-root");
  await cp(staticDir, nginxRoot, { recursive: true });

  // Both servers run in processes of their own, the load generator in this one.
  const { child: platformChild, port: platformPort } = await spawnServerChild(
    fileURLToPath(new URL("./static-site-child.ts", import.meta.url)),
    [join(tmp, "data"), ADMIN_TOKEN],
    "platform",
  );
  const platformUrl = `http://127.0.0.1:${platformPort}`;
  const nginxPort = 20_000 + Math.floor(Math.random() * 20_000);
  const conf = join(tmp, "nginx.conf");
  await writeFile(
    conf,
    `worker_processes 1;
error_log ${tmp}/nginx-error.log;
pid ${tmp}/nginx.pid;
events { worker_connections 1024; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 1000000;
  types { text/html html; text/javascript js; }
  client_body_temp_path ${tmp}/nginx-body;
  proxy_temp_path ${tmp}/nginx-proxy;
  fastcgi_temp_path ${tmp}/nginx-fastcgi;
  uwsgi_temp_path ${tmp}/nginx-uwsgi;
  scgi_temp_path ${tmp}/nginx-scgi;
  server {
    listen 127.0.0.1:${nginxPort};
    root ${nginxRoot};
    gzip_static on;
    location /assets/ { add_header Cache-Control "public, max-age=31536000, immutable"; }
    location / { add_header Cache-Control "no-cache"; }
  }
}
`,
  );
  const server = spawn(nginx, ["-c", conf, "-p", tmp, "-g", "daemon off;"], { stdio: "inherit" });
  try {
    const api = async (method: string, path: string, body?: unknown) =>
      (await (
        await fetch(platformUrl + path, {
          method,
          headers: {
            authorization: `Bearer ${ADMIN_TOKEN}`,
            "content-type": "application/json",
          },
          body: body === undefined ? undefined : JSON.stringify(body),
        })
      ).json()) as Record<string, never>;
    const { deployToken } = await api("POST", "/api/apps", { name: "bench" });
    await deployBuild({ url: platformUrl, app: "bench", token: deployToken, buildDir });
    for (let i = 0; i < 50 && !existsSync(join(tmp, "nginx.pid")); i++)
      await new Promise((r) => setTimeout(r, 100));

    const gzLength = gzipSync(script, { level: 9 }).length;
    const etagOf = (port: number, host: string) =>
      new Promise<string>((resolve, reject) =>
        request({ host: "127.0.0.1", port, path: "/", headers: { host } }, (res) => {
          res.resume();
          resolve(String(res.headers.etag ?? ""));
        })
          .on("error", reject)
          .end(),
      );
    const cases: { label: string; at: (port: number, host: string, etag: string) => Target }[] = [
      {
        label: "hashed asset (identity)",
        at: (port, host) => ({
          port,
          host,
          path: `/${ASSET}`,
          headers: {},
          status: 200,
          length: script.length,
        }),
      },
      {
        label: "hashed asset (gzip)",
        at: (port, host) => ({
          port,
          host,
          path: `/${ASSET}`,
          headers: { "accept-encoding": "gzip" },
          status: 200,
          length: gzLength,
        }),
      },
      {
        label: "index.html revalidated (304)",
        at: (port, host, etag) => ({
          port,
          host,
          path: "/",
          headers: { "if-none-match": etag },
          status: 304,
          length: 0,
        }),
      },
    ];
    const rows: string[][] = [];
    let hashedRatio = 0;
    for (const c of cases) {
      const p = c.at(platformPort, "bench.localhost", await etagOf(platformPort, "bench.localhost"));
      const n = c.at(nginxPort, "localhost", await etagOf(nginxPort, "localhost"));
      await load(p, 1);
      await load(n, 1);
      const results = { platform: [] as LoadResult[], nginx: [] as LoadResult[] };
      for (let r = 0; r < ROUNDS; r++) {
        results.nginx.push(await load(n, SECONDS));
        results.platform.push(await load(p, SECONDS));
      }
      const pb = bestRound(results.platform);
      const nb = bestRound(results.nginx);
      const ratio = pb.rps / nb.rps;
      if (c.label === "hashed asset (identity)") hashedRatio = ratio;
      rows.push([c.label, "nginx", fmtInt(nb.rps), fmtMs(nb.p50), fmtMs(nb.p99), ""]);
      rows.push(["", "platform", fmtInt(pb.rps), fmtMs(pb.p50), fmtMs(pb.p99), fmtRatio(ratio)]);
    }
    console.log(renderTable(["request", "server", "requests/s", "p50", "p99", "÷ nginx"], rows));
    console.log(
      `hashed assets: platform ÷ nginx = ${fmtRatio(hashedRatio)} (target ≥ 0.70×): ${hashedRatio >= 0.7 ? "met" : "NOT met"}`,
    );
  } finally {
    server.kill("SIGTERM");
    await stopChild(platformChild);
  }
} finally {
  await rm(tmp, { recursive: true, force: true });
}
