/**
 * jco glue benchmark: per-instantiate and per-call cost of the jco version the runtime uses (1.11.2)
 * against jco 1.35's glue (@bytecodealliance/jco-transpile 0.15, when JCO_TRANSPILE_DIR points at a
 * scratch install of it), and the worker pool's instance policies (fresh instance per call vs reuse).
 *
 *   npx tsx bench/runtime/jco-glue.ts
 *   JCO_TRANSPILE_DIR=/tmp/jcocmp/node_modules/@bytecodealliance/jco-transpile npx tsx bench/runtime/jco-glue.ts
 *
 * Results and the decisions they support: bench/runtime/README-jco.md.
 */
import { mkdir, mkdtemp, readdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import v8 from "node:v8";
import { componentWit } from "@bytecodealliance/jco";
import { WASIShim } from "@bytecodealliance/preview2-shim/instantiation";
import { componentize } from "componentize-qjs";
import type { InstancePolicy } from "../../runtime/src/wasm/bridge-protocol.ts";
import type { HostCalls } from "../../runtime/src/wasm/host-calls.ts";
import { sandboxedWasiImports, withHostImports } from "../../runtime/src/wasm/sandbox-imports.ts";
import { createWorkerPool } from "../../runtime/src/wasm/worker-pool.ts";
import { readAppWorld } from "../../runtime/src/wit/wit-parser.ts";
import { buildQuickJsGuest } from "../../runtime/test/fixtures/wasm/qjs-guest.ts";
import { transpileToTemp } from "../../runtime/test/fixtures/wasm/transpiled-fixture.ts";
import { buildWatGuest } from "../../runtime/test/fixtures/wasm/wat-guest.ts";
import { writeWitDir } from "../../runtime/test/fixtures/wasm/wit-dir.ts";

v8.setFlagsFromString("--experimental-wasm-extended-const");

type Glue = {
  instantiate(
    get: (p: string) => WebAssembly.Module,
    imports: Record<string, unknown>,
  ): Promise<Record<string, Fn>>;
};
type Fn = (...args: unknown[]) => unknown;

interface Guest {
  name: string;
  bytes: Uint8Array;
  /** A call without host I/O and one with a (synchronous, in-process) host call. */
  plain: [string, unknown[]];
  withHost: [string, unknown[]];
  instantiations: number;
  calls: number;
}

const syncHost = {
  log: () => undefined,
  appSecret: (name: string) => `secret-${name}`,
  httpFetch: () => ({ status: 200, statusText: "OK", headers: [], body: "" }),
  sqlQuery: () => "[]",
  sqlExecute: () => "{}",
  graphQuery: () => "{}",
  graphMutate: () => "{}",
  graphAlter: () => "{}",
  modelInvoke: () => "{}",
};

async function measureGlue(dir: string, guest: Guest) {
  const glue = (await import(pathToFileURL(join(dir, "component.js")).href)) as Glue;
  const started = performance.now();
  const modules: Record<string, WebAssembly.Module> = {};
  for (const f of await readdir(dir)) {
    if (f.endsWith(".wasm")) modules[f] = await WebAssembly.compile(await readFile(join(dir, f)));
  }
  const compileMs = performance.now() - started;
  const imports = withHostImports(sandboxedWasiImports(WASIShim), syncHost);
  let t = performance.now();
  const instance = await glue.instantiate((p) => modules[p], imports);
  const firstInstantiateMs = performance.now() - t;
  t = performance.now();
  for (let i = 0; i < guest.instantiations; i++) await glue.instantiate((p) => modules[p], imports);
  const instantiateMs = (performance.now() - t) / guest.instantiations;
  const perCall = (name: string, args: unknown[]) => {
    const fn = instance[name];
    for (let i = 0; i < guest.calls / 5; i++) fn(...args);
    const t0 = performance.now();
    for (let i = 0; i < guest.calls; i++) fn(...args);
    return ((performance.now() - t0) * 1000) / guest.calls;
  };
  return {
    compileMs,
    firstInstantiateMs,
    instantiateMs,
    callUs: perCall(...guest.plain),
    hostCallUs: perCall(...guest.withHost),
  };
}

async function transpileWithNewJco(jcoTranspileDir: string, bytes: Uint8Array): Promise<string> {
  const mod = (await import(pathToFileURL(join(jcoTranspileDir, "dist/index.js")).href)) as {
    transpileBytes(b: Uint8Array, o: object): Promise<{ files: Record<string, Uint8Array> }>;
  };
  const { files } = await mod.transpileBytes(bytes, {
    name: "component",
    instantiation: "async",
    base64Cutoff: 0,
    emitTypescriptDeclarations: false,
  });
  const dir = await mkdtemp(join(tmpdir(), "trellis-jco-new-"));
  for (const [name, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, name)), { recursive: true });
    await writeFile(join(dir, name), content);
  }
  return dir;
}

const noIo = () => Promise.reject(new Error("unused"));
const poolHost: HostCalls = {
  httpFetch: async () => ({ status: 200, statusText: "OK", headers: [], body: "" }),
  appSecret: async (_ctx, name) => `secret-${name}`,
  sqlQuery: noIo,
  sqlExecute: noIo,
  graphQuery: noIo,
  graphMutate: noIo,
  graphAlter: noIo,
  modelInvoke: noIo,
  jwtClaims: async () => undefined,
};

async function measurePool(dir: string, guest: Guest, policy: InstancePolicy) {
  const world = await readAppWorld(guest.bytes);
  const pool = await createWorkerPool({
    transpiledDir: dir,
    host: poolHost,
    world,
    workers: 1,
    instancePolicy: policy,
  });
  const toWit = (n: string) => n.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
  const run = (fn: [string, unknown[]]) => pool.invoke(toWit(fn[0]), fn[1], { executionId: "b" });
  let t = performance.now();
  await run(guest.plain);
  const coldMs = performance.now() - t;
  for (let i = 0; i < 50; i++) await run(guest.plain);
  const n = 300;
  const seq = async (fn: [string, unknown[]], gapMs: number) => {
    let total = 0;
    for (let i = 0; i < n; i++) {
      if (gapMs) await new Promise((r) => setTimeout(r, gapMs));
      const s = performance.now();
      const o = await run(fn);
      if (!o.ok) throw new Error(JSON.stringify(o.error));
      total += performance.now() - s;
    }
    return total / n;
  };
  const backToBackMs = await seq(guest.plain, 0);
  const withGapMs = await seq(guest.plain, 2);
  const hostCallMs = await seq(guest.withHost, 0);
  await pool.unload();
  t = performance.now();
  await run(guest.plain);
  const coldAfterUnloadMs = performance.now() - t;
  await pool.close();
  return { coldMs, coldAfterUnloadMs, backToBackMs, withGapMs, hostCallMs };
}

async function nestedRecordSupport(jcoTranspileDir: string | undefined): Promise<string[]> {
  const wit = await writeWitDir(
    "package test:nested;\nworld app {\n  include trellis:app/imports@0.1.0;\n  record inner { a: u32 }\n  record outer { i: inner }\n  export f: func(o: outer) -> outer;\n}\n",
  );
  const { component } = await componentize({
    witPath: wit,
    world: "app",
    jsSource: "export function f(o) { return o; }",
    sync: true,
  });
  const lines: string[] = [];
  try {
    await componentWit(component);
    lines.push("jco 1.11.2 componentWit on a QJS component with a nested world record: ok");
  } catch (error) {
    lines.push(
      `jco 1.11.2 componentWit on a QJS component with a nested world record: FAILS (${String(error).split("\n")[1]})`,
    );
  }
  if (jcoTranspileDir) {
    try {
      await transpileWithNewJco(jcoTranspileDir, component);
      lines.push("jco-transpile 0.15 transpile of the same component: ok");
    } catch (error) {
      lines.push(
        `jco-transpile 0.15 transpile of the same component: FAILS (${String(error).slice(0, 120)})`,
      );
    }
  }
  return lines;
}

const fmt = (n: number) => (n >= 100 ? n.toFixed(0) : n >= 1 ? n.toFixed(2) : n.toFixed(3));

const jcoTranspileDir = process.env.JCO_TRANSPILE_DIR;
const guests: Guest[] = [
  {
    name: "WAT (TinyGo-shaped)",
    bytes: await buildWatGuest(),
    plain: ["add", [1, 2]],
    withHost: ["secret", ["db"]],
    instantiations: 500,
    calls: 100_000,
  },
  {
    name: "QuickJS",
    bytes: await buildQuickJsGuest(),
    plain: ["nextColor", ["red"]],
    withHost: ["readSecret", ["db"]],
    instantiations: 50,
    calls: 20_000,
  },
];

console.log(`node ${process.version}\n`);
console.log(
  "| guest | glue | compile ms | first instantiate ms | per instantiate ms | per call µs | per call with host call µs |",
);
console.log("|---|---|---|---|---|---|---|");
const transpiled = new Map<Guest, string>();
for (const guest of guests) {
  const dir = await transpileToTemp(guest.bytes);
  transpiled.set(guest, dir);
  const r = await measureGlue(dir, guest);
  console.log(
    `| ${guest.name} | jco 1.11.2 | ${fmt(r.compileMs)} | ${fmt(r.firstInstantiateMs)} | ${fmt(r.instantiateMs)} | ${fmt(r.callUs)} | ${fmt(r.hostCallUs)} |`,
  );
  if (jcoTranspileDir) {
    const r2 = await measureGlue(await transpileWithNewJco(jcoTranspileDir, guest.bytes), guest);
    console.log(
      `| ${guest.name} | jco-transpile 0.15 (jco 1.35) | ${fmt(r2.compileMs)} | ${fmt(r2.firstInstantiateMs)} | ${fmt(r2.instantiateMs)} | ${fmt(r2.callUs)} | ${fmt(r2.hostCallUs)} |`,
    );
  }
}

console.log(
  "\nWorker pool (1 worker, jco 1.11.2), mean ms per call seen by the caller over 300 sequential calls:\n",
);
console.log(
  "| guest | policy | first call (cold) | back-to-back | with 2 ms gaps | with one bridged host call | cold after unload |",
);
console.log("|---|---|---|---|---|---|---|");
for (const guest of guests) {
  for (const policy of ["reuse", "fresh"] as const) {
    const r = await measurePool(transpiled.get(guest)!, guest, policy);
    console.log(
      `| ${guest.name} | ${policy} | ${fmt(r.coldMs)} | ${fmt(r.backToBackMs)} | ${fmt(r.withGapMs)} | ${fmt(r.hostCallMs)} | ${fmt(r.coldAfterUnloadMs)} |`,
    );
  }
}

console.log("");
for (const line of await nestedRecordSupport(jcoTranspileDir)) console.log(line);
