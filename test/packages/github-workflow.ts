/**
 * Runs a GitHub Actions job from its workflow file, locally, the way the runner would as far as a test can:
 * `run:` steps through bash (`bash --noprofile --norc -eo pipefail`, GitHub's default shell), JavaScript
 * actions through their entry point with the step's `with:` inputs as `INPUT_*` variables and a
 * `GITHUB_OUTPUT` file. Steps that only make sense on GitHub's runners are skipped by action name; any
 * other step fails the run, so a workflow change cannot silently go untested.
 */
import { spawn } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { parse } from "yaml";

export interface WorkflowStep {
  name?: string;
  uses?: string;
  run?: string;
  with?: Record<string, string | number | boolean>;
}

interface Workflow {
  jobs: Record<string, { steps: WorkflowStep[] }>;
}

interface ActionManifest {
  inputs?: Record<string, { required?: boolean; default?: string }>;
  runs: { using: string; main: string };
}

/** Actions that prepare GitHub's runner or talk to GitHub; here the machine and the test stand in. */
const GITHUB_ONLY: Record<string, string> = {
  "actions/checkout": "the app's directory is the checkout",
  "actions/setup-node": "the test runs on this machine's Node",
  "actions/setup-go": "a TypeScript app's build does not use Go",
  "acifani/setup-tinygo": "a TypeScript app's build does not use TinyGo",
  "bytecodealliance/actions/wasm-tools/setup": "only TinyGo builds use wasm-tools",
  "actions/upload-artifact": "artifacts live on GitHub; the test reads ./build itself",
};

export interface JobOptions {
  /** The checkout: working directory of every step. */
  cwd: string;
  /** Environment of every step (on top of PATH and HOME). */
  env: Record<string, string>;
  /** `${{ vars.NAME }}` and `${{ secrets.NAME }}` values. */
  vars: Record<string, string>;
  secrets: Record<string, string>;
  /** Directories of actions by their `uses:` name without `@ref` (e.g. owner/repo/.github/actions/deploy). */
  actions: Record<string, string>;
  /** Where GITHUB_OUTPUT files go. */
  tmp: string;
  /** Per step, for progress output. */
  onStep?: (step: WorkflowStep, outcome: "ran" | "skipped", detail: string) => void;
}

export interface StepResult {
  step: WorkflowStep;
  skipped?: string;
  output?: string;
  /** The action's outputs (GITHUB_OUTPUT). */
  outputs?: Record<string, string>;
}

export async function readWorkflow(file: string): Promise<Workflow> {
  return parse(await readFile(file, "utf8")) as Workflow;
}

/** Runs every step of `job` in order; throws on the first failing or unrecognised step. */
export async function runJob(workflow: Workflow, job: string, options: JobOptions): Promise<StepResult[]> {
  const steps = workflow.jobs[job]?.steps;
  if (!steps) throw new Error(`the workflow has no job "${job}"`);
  const results: StepResult[] = [];
  for (const [index, step] of steps.entries()) {
    const label = step.name ?? step.uses ?? `step ${index + 1}`;
    if (step.run !== undefined) {
      const output = await runScript(step.run, options);
      options.onStep?.(step, "ran", output);
      results.push({ step, output });
      continue;
    }
    const action = step.uses?.split("@")[0];
    if (action && action in GITHUB_ONLY) {
      options.onStep?.(step, "skipped", GITHUB_ONLY[action]!);
      results.push({ step, skipped: GITHUB_ONLY[action] });
      continue;
    }
    if (action && action in options.actions) {
      const result = await runAction(options.actions[action]!, step, index, options);
      options.onStep?.(step, "ran", result.output);
      results.push({ step, ...result });
      continue;
    }
    throw new Error(
      `step "${label}" (${step.uses ?? "no run or uses"}) is not known to this runner: ` +
        "teach test/packages/github-workflow.ts how to run or skip it",
    );
  }
  return results;
}

async function runScript(script: string, options: JobOptions): Promise<string> {
  const file = join(options.tmp, `step-${Date.now()}.sh`);
  await writeFile(file, script);
  const { code, output } = await exec("bash", ["--noprofile", "--norc", "-eo", "pipefail", file], options);
  if (code !== 0) throw new Error(`the run step failed with exit code ${code}:\n${script}\n${output}`);
  return output;
}

async function runAction(dir: string, step: WorkflowStep, index: number, options: JobOptions) {
  const manifest = parse(await readFile(join(dir, "action.yml"), "utf8")) as ActionManifest;
  if (!/^node\d+$/.test(manifest.runs.using)) throw new Error(`${dir}: not a JavaScript action`);
  const env: Record<string, string> = {};
  for (const [name, input] of Object.entries(manifest.inputs ?? {})) {
    const given = step.with?.[name];
    const value = given === undefined ? input.default : evaluate(String(given), options);
    // Like the runner: every declared input becomes INPUT_<NAME> (spaces as _, upper case).
    if (value !== undefined) env[`INPUT_${name.replace(/ /g, "_").toUpperCase()}`] = value;
  }
  for (const name of Object.keys(step.with ?? {})) {
    if (!manifest.inputs || !(name in manifest.inputs)) throw new Error(`${dir}: unexpected input "${name}"`);
  }
  const outputFile = join(options.tmp, `github-output-${index}`);
  await writeFile(outputFile, ""); // the runner creates it
  const { code, output } = await exec(process.execPath, [join(dir, manifest.runs.main)], options, {
    ...env,
    GITHUB_OUTPUT: outputFile,
  });
  if (code !== 0) throw new Error(`the action in ${dir} failed with exit code ${code}:\n${output}`);
  return { output, outputs: parseOutputs(await readFile(outputFile, "utf8")) };
}

/** `${{ vars.NAME }}` and `${{ secrets.NAME }}`; any other expression is an error. */
function evaluate(value: string, options: JobOptions): string {
  return value.replace(/\$\{\{\s*(.*?)\s*\}\}/g, (_all, expression: string) => {
    const match = /^(vars|secrets)\.([A-Za-z_][A-Za-z0-9_]*)$/.exec(expression);
    const found = match && (match[1] === "vars" ? options.vars : options.secrets)[match[2]!];
    if (found === undefined || found === null) throw new Error(`cannot evaluate \${{ ${expression} }}`);
    return found;
  });
}

/** `name<<delimiter\nvalue\ndelimiter` blocks (and plain `name=value` lines) of a GITHUB_OUTPUT file. */
function parseOutputs(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of text.matchAll(/^(.+?)<<(.+)\n([\s\S]*?)\n\2$/gm)) out[m[1]!] = m[3]!;
  for (const m of text.matchAll(/^([^<=\n]+)=(.*)$/gm)) out[m[1]!] ??= m[2]!;
  return out;
}

function exec(
  command: string,
  args: string[],
  options: JobOptions,
  extraEnv: Record<string, string> = {},
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: {
        PATH: process.env.PATH ?? "",
        HOME: process.env.HOME ?? "",
        CI: "true",
        GITHUB_ACTIONS: "true",
        GITHUB_WORKSPACE: options.cwd,
        ...passThrough(),
        ...options.env,
        ...extraEnv,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, output }));
  });
}

/** TLS settings of this machine (a corporate CA, say), which a real runner would have configured too. */
function passThrough(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of ["NODE_EXTRA_CA_CERTS", "SSL_CERT_FILE", "SSL_CERT_DIR", "TMPDIR"]) {
    const value = process.env[name];
    if (value !== undefined) out[name] = value;
  }
  return out;
}
