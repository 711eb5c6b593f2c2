/** Minimal HTTP client for the Trellis server child: spawn it, POST to it, stop it. */
import { type ChildProcess, spawn } from "node:child_process";
import { Agent, request } from "node:http";
import { fileURLToPath } from "node:url";

export interface ServerChild {
  port: number;
  post(path: string, contentType: string, body: string): Promise<DgraphHttpResponse>;
  get(path: string): Promise<DgraphHttpResponse>;
  stop(): Promise<void>;
}

export interface DgraphHttpResponse {
  data?: Record<string, unknown> & { uids?: Record<string, string> };
  errors?: { message: string; extensions?: { code?: string } }[];
}

/** The Node flags `trellis-graphdb` runs with (its shebang): the server child is measured as deployed. */
export const SERVER_FLAGS = ["--max-semi-space-size=64"];

/** A TypeScript server script run as a child process, and the port it printed (`{"port":N}`) once listening. */
export async function spawnServerChild(
  script: string,
  args: string[],
  label: string,
): Promise<{ child: ChildProcess; port: number }> {
  const extra = (process.env.BENCH_SERVER_NODE_ARGS ?? "").split(" ").filter(Boolean);
  const child: ChildProcess = spawn(
    process.execPath,
    [...SERVER_FLAGS, ...extra, "--import", "tsx", script, ...args],
    {
      stdio: ["pipe", "pipe", "inherit"],
    },
  );
  const port = await new Promise<number>((resolve, reject) => {
    let buf = "";
    child.once("exit", (code) => reject(new Error(`${label} child exited with code ${code}`)));
    child.stdout!.on("data", (chunk: Buffer) => {
      buf += chunk.toString("utf8");
      const m = /\{"port":(\d+)\}\n/.exec(buf);
      if (m) resolve(Number(m[1]));
    });
  });
  return { child, port };
}

/** One request to a loopback server over a keep-alive agent; the answer parsed as JSON. */
export function requestJson<T>(
  agent: Agent,
  port: number,
  method: "GET" | "POST",
  path: string,
  contentType: string,
  body: string,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const payload = Buffer.from(body, "utf8");
    const req = request(
      {
        host: "127.0.0.1",
        port,
        path,
        method,
        agent,
        headers: method === "POST" ? { "content-type": contentType, "content-length": payload.length } : {},
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          try {
            resolve(JSON.parse(text) as T);
          } catch {
            reject(new Error(`HTTP ${res.statusCode} from ${path}: ${text.slice(0, 300)}`));
          }
        });
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(method === "POST" ? payload : undefined);
  });
}

export async function startServerChild(dir: string): Promise<ServerChild> {
  const script = fileURLToPath(new URL("./http-server-child.ts", import.meta.url));
  const { child, port } = await spawnServerChild(script, [dir], "server");
  const agent = new Agent({ keepAlive: true, maxSockets: 16 });
  const post = (path: string, contentType: string, body: string) =>
    requestJson<DgraphHttpResponse>(agent, port, "POST", path, contentType, body);
  const get = (path: string) => requestJson<DgraphHttpResponse>(agent, port, "GET", path, "", "");
  const stop = async () => {
    agent.destroy();
    await stopChild(child);
  };
  return { port, post, get, stop };
}

/** Asks a server child to stop by closing its stdin; kills it if it has not exited after 10 s. */
export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.stdin!.end();
  const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
  await exited;
  clearTimeout(timer);
}

/** Throws the first Dgraph error of a response. */
export function checkResponse(res: DgraphHttpResponse, what: string): DgraphHttpResponse {
  if (res.errors && res.errors.length > 0) throw new Error(`${what}: ${res.errors[0].message}`);
  return res;
}
