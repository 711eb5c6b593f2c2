/**
 * The workload shared by the runtime and platform benchmarks: a one-function TypeScript app
 * (`sayHello(name)`), the GraphQL body that calls it, and the common command-line options.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { buildApp } from "../../runtime/src/index.ts";

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

/** Writes the app into `dir`, builds it with `trellis build`'s code, returns the build directory. */
export async function buildHelloApp(dir: string): Promise<string> {
  await mkdir(join(dir, "src"), { recursive: true });
  await writeFile(join(dir, "trellis.json"), "{}");
  await writeFile(join(dir, "package.json"), '{ "name": "bench-app", "private": true }');
  await writeFile(
    join(dir, "src/index.ts"),
    'export function sayHello(name: string): string { return "Hello, " + name + "!"; }\n',
  );
  return (await buildApp(dir)).outDir;
}
