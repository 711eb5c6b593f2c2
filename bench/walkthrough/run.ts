/**
 * A stranger's first hour, timed: a fresh `git clone` of this repository, then the README's walkthrough
 * as a reader copies it (test/support/readme-walkthrough.ts reads it from the clone's README; only the
 * ports are free ones, and `trellis dev` is stopped once it answers), printing the time of each line and
 * the minutes from the clone to the deployed function's first answer. Not a test: it downloads the
 * dependency tree (npm's cache makes later runs faster) and takes minutes.
 *
 *   npm run bench:walkthrough [-- --keep]      (--keep leaves the clone and the app for a look)
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs, stripVTControlCharacters } from "node:util";
import { freePort } from "../../test/support/loopback-apis.ts";
import { walkthroughLines, walkthroughScript } from "../../test/support/readme-walkthrough.ts";

const { values: args } = parseArgs({ options: { keep: { type: "boolean", default: false } } });
const ROOT = join(import.meta.dirname, "../..");

const work = await mkdtemp(join(tmpdir(), "trellis-walkthrough-bench-"));
const clone = join(work, "trellis");
const started = Date.now();
process.stdout.write(`git clone → ${clone}\n`);
execFileSync("git", ["clone", "--quiet", ROOT, clone]);
const cloned = Date.now();

const lines = await walkthroughLines(clone);
const [platform, graphHttp, graphGrpc, dev, devGraphHttp, devGraphGrpc] = await Promise.all(
  Array.from({ length: 6 }, freePort),
);
const script = walkthroughScript(lines, {
  ports: { platform, graphHttp, graphGrpc, dev, devGraphHttp, devGraphGrpc },
  mark: true,
});
const env = Object.fromEntries(
  Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k) && k !== "INIT_CWD"),
) as Record<string, string>;
const child = spawn("bash", ["-c", script], {
  cwd: clone,
  detached: true,
  env,
  stdio: ["ignore", "pipe", "pipe"],
});
let output = "";
const marks: number[] = [];
const onData = (d: Buffer) => {
  const text = d.toString();
  output += text;
  for (const m of text.matchAll(/^@@ (\d+) (\d+)$/gm)) {
    marks[Number(m[1])] = Number(m[2]);
    const i = Number(m[1]);
    if (i > 0) {
      const took = ((marks[i]! - marks[i - 1]!) / 1000).toFixed(1);
      process.stdout.write(`${took.padStart(7)} s  ${lines[i - 1]!.slice(0, 100)}\n`);
    }
  }
};
child.stdout.on("data", onData);
child.stderr.on("data", (d: Buffer) => {
  output += d.toString();
});
const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
try {
  process.kill(-(child.pid as number), "SIGTERM");
} catch {
  // the group is gone
}
const text = stripVTControlCharacters(output);
const answered = /\{"data":\{"sayHello":"Hello, you!"\}/.test(text);
const minutes = (Date.now() - started) / 60_000;
process.stdout.write(
  `\nNode ${process.version}, ${(await import("node:os")).cpus().length} CPUs; clone ${((cloned - started) / 1000).toFixed(1)} s\n` +
    (code === 0 && answered
      ? `from a fresh clone to the deployed function's first answer: ${minutes.toFixed(1)} minutes (target: under 3)\n`
      : `the walkthrough failed (exit ${code}):\n${text.slice(-4000)}\n`),
);
if (!args.keep) await rm(work, { recursive: true, force: true });
else process.stdout.write(`kept: ${work}\n`);
process.exit(code === 0 && answered ? 0 : 1);
