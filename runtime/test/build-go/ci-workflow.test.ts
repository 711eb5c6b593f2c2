import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const workflows = ["app-template/go", "app-template/typescript"].map((t) =>
  path.join(repo, t, ".github/workflows/ci-build.yml"),
);

interface Workflow {
  name: string;
  on: Yaml;
  jobs: Record<string, { "runs-on": string; steps: Record<string, Yaml>[] }>;
}

/** A GitHub expression as written in the workflow. */
const expr = (inner: string) => "$" + "{{ " + inner + " }}";

type Yaml = string | Yaml[] | { [key: string]: Yaml };

/**
 * The YAML subset GitHub workflows here use: block maps, block lists of maps, flow lists of scalars,
 * quoted or plain scalars and `|` block scalars; comments and blank lines ignored. No YAML parser is
 * installed, and this is enough to check structure rather than grep text.
 */
function parseYaml(text: string): Yaml {
  const lines = text
    .split("\n")
    .map((raw) => ({ indent: raw.length - raw.trimStart().length, text: raw.trim() }))
    .filter((l) => l.text !== "" && !l.text.startsWith("#"));
  let i = 0;
  const scalar = (s: string): Yaml => {
    if (s.startsWith("[") && s.endsWith("]"))
      return s
        .slice(1, -1)
        .split(",")
        .map((x) => scalar(x.trim()) as string);
    if (/^".*"$/.test(s) || /^'.*'$/.test(s)) return s.slice(1, -1);
    return s;
  };
  const block = (indent: number): Yaml => {
    if (lines[i]!.text.startsWith("- ")) {
      const list: Yaml[] = [];
      while (i < lines.length && lines[i]!.indent === indent && lines[i]!.text.startsWith("- ")) {
        // A list item is a map whose first key sits on the dash line.
        lines[i] = { indent: indent + 2, text: lines[i]!.text.slice(2) };
        list.push(block(indent + 2));
      }
      return list;
    }
    const map: Record<string, Yaml> = {};
    while (i < lines.length && lines[i]!.indent === indent && !lines[i]!.text.startsWith("- ")) {
      const { text: line } = lines[i]!;
      const colon = line.indexOf(":");
      const key = line.slice(0, colon);
      const rest = line.slice(colon + 1).trim();
      i++;
      if (rest === "|") {
        const body: string[] = [];
        while (i < lines.length && lines[i]!.indent > indent) body.push(lines[i++]!.text);
        map[key] = `${body.join("\n")}\n`;
      } else if (rest !== "") map[key] = scalar(rest);
      else map[key] = block(lines[i]!.indent);
    }
    return map;
  };
  return block(0);
}

describe("ci-build.yml in the app templates", () => {
  it("is the same file in the Go and TypeScript templates", async () => {
    const [go, ts] = await Promise.all(workflows.map((f) => readFile(f, "utf8")));
    expect(ts).toBe(go);
  });

  it("builds on push to main with Node 22, Go 1.24.5, TinyGo 0.38.0, uploads ./build/ and deploys", async () => {
    const wf = parseYaml(await readFile(workflows[0]!, "utf8")) as unknown as Workflow;
    expect(wf.name).toBe("ci-build");
    expect(wf.on).toEqual({ push: { branches: ["main"] } });
    expect(Object.keys(wf.jobs)).toEqual(["build"]);
    expect(wf.jobs.build!["runs-on"]).toBe("ubuntu-latest");
    const steps = wf.jobs.build!.steps;
    expect(steps.map((s) => s.name)).toEqual([
      "Checkout code",
      "Setup Node",
      "Setup Go",
      "Setup TinyGo",
      "Build project",
      "Publish GitHub artifact",
      "Deploy",
    ]);
    expect(steps[0]).toEqual({ name: "Checkout code", uses: "actions/checkout@v4" });
    expect(steps[1]).toEqual({
      name: "Setup Node",
      uses: "actions/setup-node@v4",
      with: { "node-version": "22" },
    });
    expect(steps[2]).toEqual({
      name: "Setup Go",
      uses: "actions/setup-go@v5",
      with: { "go-version": "1.24.5" },
    });
    expect(steps[3]).toEqual({
      name: "Setup TinyGo",
      uses: "acifani/setup-tinygo@v2",
      with: { "tinygo-version": "0.38.0" },
    });
    expect(steps[4]!.run).toBe("npm install --no-audit --no-fund\nnpx trellis build\n");
    expect(steps[5]).toEqual({
      name: "Publish GitHub artifact",
      uses: "actions/upload-artifact@v4",
      with: { name: "build", path: "./build/*", "retention-days": "7" },
    });
    expect(steps[6]).toEqual({
      name: "Deploy",
      uses: "trellis-dev/trellis/.github/actions/deploy@main",
      with: {
        url: expr("vars.TRELLIS_URL"),
        app: expr("vars.TRELLIS_APP"),
        token: expr("secrets.TRELLIS_DEPLOY_TOKEN"),
        "build-dir": "./build",
      },
    });
  });
});
