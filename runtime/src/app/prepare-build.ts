/**
 * Makes an uploaded build servable trusting nothing but its component and its manifest (the platform's
 * deploy step): any `transpiled/` glue that came with the upload is thrown away and the component is
 * transpiled here, with the runtime's own pinned jco, so the only JavaScript the host ever runs is its
 * own; then the build is instantiated and answers a smoke call in a throwaway worker whose host refuses
 * every call, before it may go live. A corrupt core module, or a component that does not instantiate (a
 * trap in its initialisation, a Go init() panic) or cannot run a call is rejected with the reason.
 *
 * The smoke call goes to the function with the fewest parameters, with zero values. Whatever the function
 * does with them is the app's business: a value, an error, a trap, or still running when the check stops
 * waiting (a long or endless function: calls are bounded by the app's timeout anyway) all pass. What fails
 * is the call path itself.
 */
import { rm } from "node:fs/promises";
import { isHiddenFunction } from "../graphql/naming-conventions.ts";
import { buildAppSchema } from "../graphql/schema-builder.ts";
import { HOST_CALL_NAMES, type HostCallName, type HostCalls } from "../wasm/host-calls.ts";
import { transpileComponent } from "../wasm/transpile-component.ts";
import { createWorkerPool } from "../wasm/worker-pool.ts";
import { readAppWorld } from "../wit/wit-parser.ts";
import type { AppWorld, WitFunction, WitType } from "../wit/wit-types.ts";
import { lambdaMapProblem } from "./app-lambda-caller.ts";
import { endpointFunctionsProblem } from "./endpoint-scope.ts";
import { InvalidBuildError, readBuild } from "./load-app.ts";

export interface PrepareBuildOptions {
  /** How long the check waits for the smoke call (default: the manifest's timeout, at most 2 s). */
  smokeTimeoutMs?: number;
  /** The most a build may ask for in its manifest's `limits`; a build asking more is rejected. */
  ceilings?: LimitCeilings;
}

/** A platform's ceilings on what an app may declare in `limits`. */
export interface LimitCeilings {
  maxTimeoutMs: number;
  maxMemoryMb: number;
}

export interface PreparedBuild {
  name: string;
  /** GraphQL root fields. */
  functions: string[];
  /** The function the smoke call invoked and how it answered (ok, an error or a trap all count). */
  smoke: { function: string; outcome: string };
}

const MAX_SMOKE_TIMEOUT_MS = 2_000;

export async function prepareUploadedBuild(
  buildDir: string,
  options: PrepareBuildOptions = {},
): Promise<PreparedBuild> {
  const build = await readBuild(buildDir, { transpiled: false });
  const { timeoutMs: asked, memoryMb } = build.manifest.limits;
  const ceilings = options.ceilings;
  if (ceilings && (asked > ceilings.maxTimeoutMs || memoryMb > ceilings.maxMemoryMb)) {
    throw new InvalidBuildError(
      `trellis.json asks for limits { timeoutMs: ${asked}, memoryMb: ${memoryMb} }; this platform allows at most { timeoutMs: ${ceilings.maxTimeoutMs}, memoryMb: ${ceilings.maxMemoryMb} }: lower them`,
    );
  }
  let world: AppWorld;
  try {
    world = await readAppWorld(build.component);
  } catch (e) {
    throw new InvalidBuildError(`app.wasm is not a loadable component: ${(e as Error).message}`);
  }
  const schema = buildAppSchema(world);
  const names = schema.fields.map((f) => f.fieldName);
  const lambdaProblem =
    lambdaMapProblem(build.manifest.lambdas, names) ?? endpointFunctionsProblem(build.manifest, names);
  if (lambdaProblem !== undefined) throw new InvalidBuildError(lambdaProblem);
  await rm(build.transpiledDir, { recursive: true, force: true });
  try {
    await transpileComponent(build.component, build.transpiledDir);
  } catch (e) {
    throw new InvalidBuildError(`app.wasm cannot be transpiled: ${(e as Error).message}`);
  }
  const target = smokeTarget(world);
  const timeoutMs = options.smokeTimeoutMs ?? Math.min(build.manifest.limits.timeoutMs, MAX_SMOKE_TIMEOUT_MS);
  let pool: Awaited<ReturnType<typeof createWorkerPool>>;
  try {
    pool = await createWorkerPool({
      transpiledDir: build.transpiledDir,
      host: refusingHost,
      world,
      workers: 1,
      maxQueue: 1,
      timeoutMs,
      memoryLimitMb: build.manifest.limits.memoryMb,
    });
  } catch (e) {
    throw new InvalidBuildError(`the component's core modules do not compile: ${(e as Error).message}`);
  }
  try {
    const args = target.params.map((p) => zeroValue(p.type, world));
    const outcome = await pool.invoke(target.name, args, { executionId: "deployment-check" });
    const kind = outcome.ok ? "ok" : (outcome.error?.kind ?? "internal");
    if (kind === "internal") {
      throw new InvalidBuildError(
        `the component did not answer a smoke call of ${target.name} (with zero values, no host access): ${outcome.error?.message}`,
      );
    }
    return {
      name: build.name,
      functions: schema.fields.map((f) => f.fieldName),
      smoke: { function: target.name, outcome: kind },
    };
  } finally {
    await pool.close();
  }
}

/** The smoke call goes to the visible function with the fewest parameters (declaration order breaks ties). */
function smokeTarget(world: AppWorld): WitFunction {
  const visible = world.functions.filter((f) => !isHiddenFunction(f.name));
  const candidates = visible.length > 0 ? visible : world.functions;
  const target = [...candidates].sort((a, b) => a.params.length - b.params.length)[0];
  if (!target) throw new InvalidBuildError("the component exports no function");
  return target;
}

/** The zero value of a WIT type in jco's representation (what the worker pool takes). */
function zeroValue(type: WitType, world: AppWorld): unknown {
  switch (type.kind) {
    case "prim":
      if (type.name === "bool") return false;
      if (type.name === "string") return "";
      if (type.name === "char") return "a";
      return type.name === "s64" || type.name === "u64" ? 0n : 0;
    case "list":
      return [];
    case "option":
      return undefined;
    case "tuple":
      return type.of.map((t) => zeroValue(t, world));
    case "result":
      return { tag: "ok", val: type.ok ? zeroValue(type.ok, world) : undefined };
    case "ref": {
      const def = world.types.get(type.name);
      if (!def) return undefined;
      if (def.kind === "enum") return def.cases[0];
      return Object.fromEntries(
        def.fields.map((f) => [
          f.name.replace(/-([a-z0-9])/g, (_m, c: string) => c.toUpperCase()),
          zeroValue(f.type, world),
        ]),
      );
    }
  }
}

const refused = () => Promise.reject(new Error("host calls are disabled during the deployment check"));

/**
 * The host of the smoke call: every capability refused, so the check has no effect outside the sandbox;
 * `jwt-claims`, which cannot fail (it has no `err` to fail with), answers that the call has no user.
 */
const refusingHost: HostCalls = {
  ...(Object.fromEntries(HOST_CALL_NAMES.map((name) => [name, refused])) as Record<
    HostCallName,
    typeof refused
  >),
  jwtClaims: () => Promise.resolve(undefined),
};
