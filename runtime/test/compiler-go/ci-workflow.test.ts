import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const workflows = ["app-template/go", "app-template/typescript"].map((t) =>
  path.join(repo, t, ".github/workflows/ci-build.yml"),
);

interface Workflow {
  name: string;
  on: Yaml;
  concurrency: Yaml;
  jobs: Record<string, { if?: string; "runs-on": string; steps: Record<string, Yaml>[] }>;
}

/** A GitHub expression as written in the workflow. */
const expr = (inner: string) => "$" + "{{ " + inner + " }}";

type Yaml = string | Yaml[] | { [key: string]: Yaml };

describe("ci-build.yml in the app templates", () => {
  it("is the same file in the Go and TypeScript templates", async () => {
    const [go, ts] = await Promise.all(workflows.map((f) => readFile(f, "utf8")));
    expect(ts).toBe(go);
  });

  it("builds on every push and pull request with Node 22, Go 1.24.5, TinyGo 0.38.0 and wasm-tools, uploads ./build/ and deploys", async () => {
    const wf = parseYaml(await readFile(workflows[0]!, "utf8")) as unknown as Workflow;
    expect(wf.name).toBe("ci-build");
    expect(wf.on).toEqual({ push: { branches: ["**"] }, pull_request: null, delete: null });
    // One run per branch; a branch's newer run (or its deletion) cancels the older, but not on main.
    expect(wf.concurrency).toEqual({
      group: `ci-build-${expr("github.event_name == 'delete' && github.event.ref || github.head_ref || github.ref_name")}`,
      "cancel-in-progress": expr("github.event_name == 'delete' || github.ref_name != 'main'"),
    });
    expect(Object.keys(wf.jobs)).toEqual(["build", "remove-preview"]);
    expect(wf.jobs.build!.if).toBe("github.event_name != 'delete'");
    expect(wf.jobs.build!["runs-on"]).toBe("ubuntu-latest");
    const steps = wf.jobs.build!.steps;
    expect(steps.map((s) => s.name)).toEqual([
      "Checkout code",
      "Setup Node",
      "Setup Go",
      "Setup TinyGo",
      "Setup wasm-tools",
      "Build project",
      "Publish GitHub artifact",
      "Deploy",
      "Show the preview URL",
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
    expect(steps[4]).toEqual({
      name: "Setup wasm-tools",
      uses: "bytecodealliance/actions/wasm-tools/setup@v1",
      with: { version: "1.235.0" },
    });
    expect(steps[5]!.run).toBe("npm install --no-audit --no-fund\nnpx trellis build\n");
    expect(steps[6]).toEqual({
      name: "Publish GitHub artifact",
      uses: "actions/upload-artifact@v4",
      with: { name: "build", path: "./build/*", "retention-days": 7 },
    });
    // Pushes deploy (main to production, other branches to previews); pull requests only from this
    // repository's own branches (a fork's get no secrets).
    expect(steps[7]).toEqual({
      name: "Deploy",
      id: "deploy",
      if: "github.event_name == 'push' || github.event.pull_request.head.repo.full_name == github.repository",
      uses: "trellis-dev/trellis/.github/actions/deploy@main",
      with: {
        url: expr("vars.TRELLIS_URL"),
        app: expr("vars.TRELLIS_APP"),
        token: expr("secrets.TRELLIS_DEPLOY_TOKEN"),
        "build-dir": "./build",
      },
    });
    expect(steps[8]).toEqual({
      name: "Show the preview URL",
      if: "steps.deploy.outputs.preview-url != ''",
      env: { PREVIEW_URL: expr("steps.deploy.outputs.preview-url") },
      run: 'echo "Preview: $PREVIEW_URL" | tee -a "$GITHUB_STEP_SUMMARY"\n',
    });
  });

  it("removes a deleted branch's preview with the deploy action", async () => {
    const wf = parseYaml(await readFile(workflows[0]!, "utf8")) as unknown as Workflow;
    const job = wf.jobs["remove-preview"]!;
    expect(job.if).toBe("github.event_name == 'delete' && github.event.ref_type == 'branch'");
    expect(job["runs-on"]).toBe("ubuntu-latest");
    expect(job.steps).toEqual([
      {
        name: "Remove the preview",
        uses: "trellis-dev/trellis/.github/actions/deploy@main",
        with: {
          url: expr("vars.TRELLIS_URL"),
          app: expr("vars.TRELLIS_APP"),
          token: expr("secrets.TRELLIS_DEPLOY_TOKEN"),
          "remove-preview": expr("github.event.ref"),
        },
      },
    ]);
  });
});
