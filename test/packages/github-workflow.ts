/**
 * Runs a GitHub Actions job from its workflow file, locally, the way the runner would as far as a test can:
 * `run:` steps through bash (`bash --noprofile --norc -eo pipefail`, GitHub's default shell), JavaScript
 * actions through their entry point with the step's `with:` inputs as `INPUT_*` variables and a
 * `GITHUB_OUTPUT` file. Steps that only make sense on GitHub's runners are skipped by action name; any
 * other step fails the run, so a workflow change cannot silently go untested. The job's and the steps' `if:`
 * and the `${{ }}` in inputs, `env:` and scripts are evaluated (github-expression.ts) for the event the
 * options name (a push to main by default), with `github`, `vars`, `secrets` and `steps` contexts.
 */
import { spawn } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { parse } from "yaml";
import { condition, interpolate } from "./github-expression.ts";

export interface WorkflowStep {
  name?: string;
  id?: string;
  if?: string;
  uses?: string;
  run?: string;
  env?: Record<string, string>;
  with?: Record<string, string | number | boolean>;
}

interface Workflow {
  jobs: Record<string, { if?: string; steps: WorkflowStep[] }>;
}

/** The event a run is for, as GitHub would describe it in the `github` context. */
export interface WorkflowEvent {
  /** `push`, `pull_request`, `delete`… */
  name: string;
  /** `github.ref_name`: the pushed branch; `<n>/merge` for a pull request; the default branch for delete. */
  refName: string;
  /** `github.head_ref`: a pull request's head branch. */
  headRef?: string;
  /** `github.repository`, `owner/name` (default `owner/app`). */
  repository?: string;
  /** `github.event`: the webhook payload (e.g. `{ ref: "feature/x", ref_type: "branch" }` for delete). */
  payload?: Record<string, unknown>;
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
  /** The event that triggers the run (default: a push to main). */
  event?: WorkflowEvent;
  /**
   * Names of `run:` steps whose effect the checkout already has from an earlier run of the job (the
   * build, say): their `if:` is still evaluated, but a step that would run is reported `reused`, not run.
   */
  reuse?: readonly string[];
  /** Per step, for progress output. */
  onStep?: (step: WorkflowStep, outcome: "ran" | "skipped" | "reused", detail: string) => void;
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

/**
 * Runs every step of `job` in order, those whose `if:` holds; throws on the first failing or unrecognised
 * step. A job whose own `if:` does not hold for the event runs nothing: [].
 */
export async function runJob(workflow: Workflow, job: string, options: JobOptions): Promise<StepResult[]> {
  const steps = workflow.jobs[job]?.steps;
  if (!steps) throw new Error(`the workflow has no job "${job}"`);
  const context = expressionContext(options);
  if (!condition(workflow.jobs[job]?.if, context)) return [];
  const stepOutputs = context.steps as Record<string, { outputs: Record<string, string> }>;
  const results: StepResult[] = [];
  for (const [index, step] of steps.entries()) {
    const label = step.name ?? step.uses ?? `step ${index + 1}`;
    if (!condition(step.if, context)) {
      options.onStep?.(step, "skipped", `if: ${step.if}`);
      results.push({ step, skipped: `if: ${step.if}` });
      continue;
    }
    if (step.run !== undefined && options.reuse?.includes(label)) {
      options.onStep?.(step, "reused", "");
      results.push({ step, output: "" });
      continue;
    }
    if (step.run !== undefined) {
      const env = Object.fromEntries(
        Object.entries(step.env ?? {}).map(([name, value]) => [name, interpolate(String(value), context)]),
      );
      const output = await runScript(interpolate(step.run, context), options, env);
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
      const result = await runAction(options.actions[action]!, step, index, options, context);
      if (step.id) stepOutputs[step.id] = { outputs: result.outputs };
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

async function runScript(script: string, options: JobOptions, env: Record<string, string>): Promise<string> {
  const file = join(options.tmp, `step-${Date.now()}.sh`);
  await writeFile(file, script);
  const { code, output } = await exec(
    "bash",
    ["--noprofile", "--norc", "-eo", "pipefail", file],
    options,
    env,
  );
  if (code !== 0) throw new Error(`the run step failed with exit code ${code}:\n${script}\n${output}`);
  return output;
}

async function runAction(
  dir: string,
  step: WorkflowStep,
  index: number,
  options: JobOptions,
  context: Record<string, unknown>,
) {
  const manifest = parse(await readFile(join(dir, "action.yml"), "utf8")) as ActionManifest;
  if (!/^node\d+$/.test(manifest.runs.using)) throw new Error(`${dir}: not a JavaScript action`);
  const env: Record<string, string> = {};
  for (const [name, input] of Object.entries(manifest.inputs ?? {})) {
    const given = step.with?.[name];
    const value = given === undefined ? input.default : interpolate(String(given), context);
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

/** The contexts expressions read; a `vars` or `secrets` entry the test did not give is an error. */
function expressionContext(options: JobOptions): Record<string, unknown> {
  const strict = (kind: string, values: Record<string, string>) =>
    new Proxy(values, {
      get(target, name) {
        if (typeof name === "string" && !(name in target)) {
          throw new Error(`cannot evaluate \${{ ${kind}.${name} }}: the test gives no such value`);
        }
        return target[name as string];
      },
    });
  const event = eventOf(options);
  return {
    github: {
      event_name: event.name,
      ref_name: event.refName,
      head_ref: event.headRef ?? "",
      repository: event.repository ?? "owner/app",
      event: event.payload ?? {},
    },
    vars: strict("vars", options.vars),
    secrets: strict("secrets", options.secrets),
    steps: {},
  };
}

function eventOf(options: JobOptions): WorkflowEvent {
  return options.event ?? { name: "push", refName: "main" };
}

/** The runner's variables that describe the event (the deploy action reads the branch from them). */
function eventEnv(options: JobOptions): Record<string, string> {
  const event = eventOf(options);
  return {
    GITHUB_EVENT_NAME: event.name,
    GITHUB_REF_NAME: event.refName,
    GITHUB_HEAD_REF: event.headRef ?? "",
    GITHUB_REPOSITORY: event.repository ?? "owner/app",
    GITHUB_STEP_SUMMARY: join(options.tmp, "step-summary.md"),
  };
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
        ...eventEnv(options),
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
