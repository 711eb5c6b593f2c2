/**
 * The workload shared by the runtime and platform benchmarks: a one-function app (`sayHello(name)`) in
 * TypeScript and in Go, the GraphQL body that calls it, and the common command-line options.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { type BuildSummary, buildApp } from "../../runtime/src/index.ts";

const GO_SDK_DIR = join(import.meta.dirname, "../../runtime/sdk/go");

export const HELLO_BODY = JSON.stringify({ query: 'query { sayHello(name: "bench") }' });
export const HELLO_EXPECT = "Hello, bench!";

/** `--seconds S --concurrency C --rounds R` (defaults 5, 8, 2). */
export function parseLoadArgs(): { seconds: number; concurrency: number; rounds: number } {
  const { values } = parseArgs({
    options: {
      seconds: { type: "string", default: "5" },
      concurrency: { type: "string", default: "8" },
      rounds: { type: "string", default: "2" },
    },
  });
  return {
    seconds: Number(values.seconds),
    concurrency: Number(values.concurrency),
    rounds: Number(values.rounds),
  };
}

/** Writes the TypeScript app into `dir`, builds it with `trellis build`'s code, returns the build directory. */
export async function buildHelloApp(dir: string): Promise<string> {
  return (await buildHello(dir, "typescript")).outDir;
}

/** The same function in TypeScript or Go, built by `trellis build`'s code (Go: with the local Go). */
export async function buildHello(dir: string, language: "typescript" | "go"): Promise<BuildSummary> {
  await mkdir(join(dir, "src"), { recursive: true });
  await writeFile(join(dir, "trellis.json"), "{}");
  if (language === "typescript") {
    await writeFile(join(dir, "package.json"), '{ "name": "bench-app", "private": true }');
    await writeFile(
      join(dir, "src/index.ts"),
      'export function sayHello(name: string): string { return "Hello, " + name + "!"; }\n',
    );
  } else {
    await writeFile(
      join(dir, "go.mod"),
      `module bench-app\n\ngo 1.24\n\nrequire github.com/trellis-dev/trellis/runtime/sdk/go v0.1.0\n\nreplace github.com/trellis-dev/trellis/runtime/sdk/go => ${GO_SDK_DIR}\n`,
    );
    await writeFile(
      join(dir, "main.go"),
      'package main\n\n// SayHello greets.\nfunc SayHello(name string) string { return "Hello, " + name + "!" }\n\nfunc main() {}\n',
    );
  }
  return buildApp(dir);
}
