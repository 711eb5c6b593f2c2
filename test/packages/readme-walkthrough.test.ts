/**
 * The README's ten-line walkthrough, read from the README (so it cannot drift) and run in bash: a new app
 * beside the clone, `npm install` (no Trellis package on the registry: the app carries its own), `trellis
 * dev` answering, the platform started by `npm start`, a deploy token and an API key from its API, `trellis
 * build` and `trellis deploy`, and the deployed function answering the last line's curl with the key.
 *
 * What the test changes (test/support/readme-walkthrough.ts): the clone is this checkout, already installed
 * (the first line's `npm install` is the suite's own); the app and the platform's data go to a temporary
 * folder; every server gets a free port; `npx trellis dev`, which runs until Ctrl-C, is started in the
 * background, asked for sayHello, and stopped. bench/walkthrough.ts times the same from a fresh clone.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stripVTControlCharacters } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { walkthroughLines, walkthroughScript } from "../support/readme-walkthrough.ts";
import { type LocalRegistry, startLocalRegistry } from "./local-registry.ts";

const ROOT = join(import.meta.dirname, "../..");
const CACHE = join(ROOT, "node_modules/.cache/trellis-packages-test");
const TIMEOUT = 6 * 60_000;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as { port: number };
  await new Promise((r) => server.close(r));
  return port;
}

describe("the README's walkthrough, line by line", () => {
  let registry: LocalRegistry;
  let work: string;
  let script: string;
  let child: ChildProcess | undefined;
  let output = "";
  let code: number | null = null;
  let lines: string[];

  beforeAll(async () => {
    registry = await startLocalRegistry(CACHE);
    work = await mkdtemp(join(tmpdir(), "trellis-walkthrough-"));
    lines = await walkthroughLines(ROOT);
    const [platform, graphHttp, graphGrpc, dev, devGraphHttp, devGraphGrpc] = await Promise.all(
      Array.from({ length: 6 }, freePort),
    );
    const ports = { platform, graphHttp, graphGrpc, dev, devGraphHttp, devGraphGrpc };
    script = walkthroughScript(lines, { ports, inPlace: { work } });
    child = spawn("bash", ["-c", script], {
      cwd: ROOT,
      detached: true,
      env: {
        ...Object.fromEntries(
          Object.entries(process.env).filter(
            ([k]) => !/^npm_/i.test(k) && k !== "INIT_CWD" && !k.startsWith("VITEST"),
          ),
        ),
        ...registry.npmEnv,
        CI: "1",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout?.on("data", (d) => {
      output += d;
    });
    child.stderr?.on("data", (d) => {
      output += d;
    });
    code = await new Promise<number | null>((resolve) => child?.once("exit", resolve));
  }, TIMEOUT);

  afterAll(async () => {
    // The platform `npm start` left in the background is in the script's process group.
    if (child?.pid) {
      try {
        process.kill(-child.pid, "SIGTERM");
      } catch {
        // already gone
      }
    }
    await new Promise((r) => setTimeout(r, 1000));
    await registry?.close();
    if (work) await rm(work, { recursive: true, force: true });
  }, 30_000);

  it("is ten lines or so, each a command", () => {
    expect(lines.length).toBeLessThanOrEqual(10);
    expect(lines.some((l) => l.includes("npx trellis deploy"))).toBe(true);
  });

  it("runs to the end", () => {
    expect(code, `the walkthrough failed:\n${output.slice(-6000)}`).toBe(0);
  });

  it("answers in trellis dev, then deployed, with the API key", () => {
    const text = stripVTControlCharacters(output);
    expect(text).toMatch(/DEV ANSWER: \{"data":\{"sayHello":"Hello, dev!"\}/);
    expect(text, text.slice(-3000)).toMatch(/Site: +http:\/\/my-app\.localhost:\d+/);
    expect(text).toMatch(/\{"data":\{"sayHello":"Hello, you!"\}/);
  });
});
