/**
 * The README's walkthrough (the ```sh block after `<!-- walkthrough:`), as a bash script to run: read from
 * the README so that the test and the timed bench run what a reader copies. What it changes, and only that:
 * every server gets the ports given (the README's are the defaults, which may be taken); `npx trellis dev`,
 * which runs until Ctrl-C, is started in the background, asked for sayHello (its answer printed as
 * `DEV ANSWER: …`) and to add and list a person in its graph database (`DEV GRAPH: …`), and stopped; optionally (`inPlace`) the clone is one already installed, and the app and
 * the platform's data go to a given folder instead of beside the clone and into it.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";

const MARKER = "<!-- walkthrough:";

/** The walkthrough's command lines, as the README in `root` has them. */
export async function walkthroughLines(root: string): Promise<string[]> {
  const readme = await readFile(join(root, "README.md"), "utf8");
  const at = readme.indexOf(MARKER);
  if (at < 0) throw new Error(`README.md has no ${MARKER} block`);
  const block = /```sh\n([\s\S]*?)```/.exec(readme.slice(at));
  if (!block) throw new Error("README.md: no ```sh block after the walkthrough marker");
  return block[1]!.split("\n").filter((line) => line.trim() !== "");
}

export interface WalkthroughPorts {
  platform: number;
  graphHttp: number;
  graphGrpc: number;
  dev: number;
  devGraphHttp: number;
  devGraphGrpc: number;
}

export interface WalkthroughOptions {
  ports: WalkthroughPorts;
  /** Run in an installed checkout: skip the first line's `npm install`; the app and data go to `work`. */
  inPlace?: { work: string };
  /** Print `@@ <line index> <epoch ms>` before each line (for timing). */
  mark?: boolean;
}

/** Replaces `from` in `line`, failing if it is not there (a README change fails here, not later). */
function swap(line: string, from: string, to: string): string {
  if (!line.includes(from)) throw new Error(`the walkthrough line no longer contains ${from}: ${line}`);
  return line.split(from).join(to);
}

/** The bash script: a prelude (`set -euo pipefail`, `dev_answers`), then the walkthrough's lines. */
export function walkthroughScript(lines: readonly string[], options: WalkthroughOptions): string {
  const { ports, inPlace } = options;
  const data = inPlace ? join(inPlace.work, "data/platform") : undefined;
  const adapted = lines.map((line) => {
    let l = line;
    if (inPlace && l.startsWith("npm install && ")) l = swap(l, "npm install && ", "");
    if (inPlace && l.includes("../my-app")) l = swap(l, "../my-app", join(inPlace.work, "my-app"));
    if (/^npx trellis dev\b/.test(l)) {
      l = swap(
        l,
        "npx trellis dev",
        `dev_answers npx trellis dev --port ${ports.dev} --graphdb-port ${ports.devGraphHttp} --graphdb-grpc-port ${ports.devGraphGrpc}`,
      );
    }
    if (l.includes("npm start")) {
      const flags = `--host 127.0.0.1 --port ${ports.platform} --graphdb-port ${ports.graphHttp} --graphdb-grpc-port ${ports.graphGrpc}`;
      l = swap(l, "npm start", `npm start -- ${flags}${data ? ` --data ${data}` : ""}`);
    }
    if (data && l.includes("$TRELLIS/data/platform")) l = swap(l, "$TRELLIS/data/platform", data);
    return l.split("localhost:8787").join(`localhost:${ports.platform}`);
  });
  const prelude = [
    "set -euo pipefail",
    "dev_answers() {",
    '  "$@" > dev.log 2>&1 &',
    "  local pid=$!",
    "  for i in $(seq 1 180); do",
    `    if curl -sf -H content-type:application/json -d '{"query":"{ sayHello(name: \\"dev\\") }"}' localhost:${ports.dev}/graphql > dev-answer.json; then break; fi`,
    "    sleep 1",
    "  done",
    // The app's graph connection reaches the dev server's own database: a person added, then listed.
    `  curl -sf -H content-type:application/json -d '{"query":"mutation { addPerson(name: \\"Ada\\") }"}' localhost:${ports.dev}/graphql > /dev/null`,
    `  curl -sf -H content-type:application/json -d '{"query":"{ people { name } }"}' localhost:${ports.dev}/graphql > dev-graph.json`,
    "  kill $pid; wait $pid || true",
    '  echo "DEV ANSWER: $(cat dev-answer.json)"',
    '  echo "DEV GRAPH: $(cat dev-graph.json)"',
    "}",
  ];
  const body = options.mark ? adapted.flatMap((l, i) => [`echo "@@ ${i} $(date +%s%3N)"`, l]) : adapted;
  return [...prelude, ...body, ...(options.mark ? [`echo "@@ ${adapted.length} $(date +%s%3N)"`] : [])].join(
    "\n",
  );
}
