import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { componentWit } from "@bytecodealliance/jco";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BuildError } from "../../src/compiler/ts-build-error.ts";
import { buildTypeScriptApp, type TypeScriptBuildResult } from "../../src/compiler/ts-component-builder.ts";
import { readAppWit } from "../../src/wit/app-wit-section.ts";
import { callError, type Instance, loadComponent } from "./component-harness.ts";

const KITCHEN_SINK = fileURLToPath(new URL("../fixtures/ts-apps/app/kitchen-sink", import.meta.url));

describe("buildTypeScriptApp (kitchen-sink fixture, one real build)", () => {
  let dir: string;
  let built: TypeScriptBuildResult;
  let app: Instance;
  const logs: [string, string][] = [];
  const steps: string[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "trellis-ts-build-"));
    built = await buildTypeScriptApp(KITCHEN_SINK, {
      outDir: join(dir, "out"),
      onProgress: (s) => steps.push(s),
    });
    app = await loadComponent(built.component, join(dir, "transpiled"), {
      log: (level: string, message: string) => void logs.push([level, message]),
    });
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("writes app.wasm and the WIT it was built from, and reports progress", async () => {
    expect(Buffer.compare(await readFile(join(dir, "out", "app.wasm")), built.component)).toBe(0);
    const world = await readFile(join(built.witDir, "world.wit"), "utf8");
    expect(world).toContain("export get-person: func(id: string) -> result<option<person>, string>;");
    expect(await readFile(join(built.witDir, "deps", "trellis-app", "host.wit"), "utf8")).toContain(
      "interface host",
    );
    expect(readAppWit(built.component)).toBe(world);
    expect(steps).toEqual([
      "Reading exported functions",
      "Generating the WIT world",
      "Bundling with esbuild",
      "Componentizing with QuickJS",
    ]);
    expect(built.warnings).toEqual([
      "src/index.ts:130:14: export notAFunction is not a function; it is not part of the API",
    ]);
  });

  it("exports every function at world level, hidden ones under hidden-, with only WASI and host imports", async () => {
    const wit = (await componentWit(built.component)) as string;
    expect(wit).toContain("export hidden-internal: func() -> result<s64, string>;");
    expect(wit).toContain("export loud: func(s: string) -> result<string, string>;");
    const imports = [...wit.matchAll(/^\s*import ([^;]+);/gm)].map((m) => m[1]);
    expect(imports.filter((i) => !i!.startsWith("wasi:"))).toEqual([
      "trellis:app-kitchen-sink/types",
      "trellis:app/host@0.1.0",
    ]);
    expect(built.world.functions.map((f) => f.name)).toContain("hidden-internal");
  });

  it("round-trips scalars, strings, bigint and numeric aliases", () => {
    expect(app.sayHello!("ann")).toBe("Hello, ANN!");
    expect(app.add!(2, 40)).toBe(42);
    expect(app.half!(3)).toBe(1.5);
    expect(app.negate!(true)).toBe(false);
    expect(app.bump!(41n)).toBe(42n);
    expect(app.twice!(21)).toBe(42);
    expect(app.inferred!("four")).toBe(4);
    expect(app.hiddenInternal!()).toBe(1n);
    expect(app.loud!("x")).toBe("X");
    expect(app.nothing!()).toBeUndefined();
  });

  it("maps records, options, enums, tuples and lists between jco and the app's own spelling", () => {
    const person = app.getPerson!("p1");
    expect(person).toEqual({
      firstName: "Ann",
      age: 42,
      email: undefined,
      tags: ["a", "b"],
      address: { street: "Main St", city: "Springfield" },
      mood: "dark-blue",
      status: "on-hold",
      score: 1.5,
      big: 9007199254740991n,
      count: 7n,
      pair: ["p1", 3],
    });
    expect(app.getPerson!("none")).toBeUndefined();
    const echoed = app.echoPerson!({
      ...(person as object),
      address: undefined,
      mood: "so-so",
      status: "active",
    });
    expect((echoed as { tags: string[] }).tags).toEqual([
      "a",
      "b",
      "email=undefined",
      "address=null",
      "mood=SO_SO",
      "status=ACTIVE",
      "big=bigint",
    ]);
    expect((echoed as { mood: string }).mood).toBe("so-so");
    expect(app.listNames!([person, { ...(person as object), firstName: "Bo" }], 1)).toEqual(["Ann"]);
    expect(app.listNames!([person, { ...(person as object), firstName: "Bo" }], undefined)).toEqual([
      "Ann",
      "Bo",
    ]);
    expect(app.maybe!(undefined)).toBeUndefined();
    expect(app.maybe!("x")).toBe("x?");
    expect(app.pets!()).toEqual([{ name: "Rex", species: "dog", type: "good" }]);
  });

  it("returns what a function throws as err, and a wrong result as a clear err instead of a trap", () => {
    expect(callError(() => app.fail!("no such person"))).toBe("no such person");
    expect(callError(() => app.failPlain!())).toBe("plain failure");
    expect(callError(() => app.badResult!())).toBe("invalid result of badResult: expected a string, got 42");
    expect(app.sayHello!("still works")).toBe("Hello, STILL WORKS!");
  });

  it("routes console.* and the SDK log to the host log", () => {
    logs.length = 0;
    expect(app.logs!()).toBe("ok");
    expect(logs).toEqual([
      ["info", 'hello {"a":1}'],
      ["warning", "careful"],
    ]);
  });
});

describe("buildTypeScriptApp with a type error", () => {
  it("fails, listing TypeScript's errors with file:line:col, and writes nothing", async () => {
    const dir = await mkdtemp(join(tmpdir(), "trellis-ts-typo-"));
    try {
      const app = join(dir, "typo-app");
      await mkdir(join(app, "src"), { recursive: true });
      await writeFile(join(app, "package.json"), JSON.stringify({ name: "typo-app", type: "module" }));
      await writeFile(
        join(app, "src/index.ts"),
        'export function greet(name: string): string {\n  const n: number = name;\n  return "Hello, " + n;\n}\n',
      );
      const failure = await buildTypeScriptApp(app, { outDir: join(app, "build") }).catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(BuildError);
      expect((failure as BuildError).message).toMatch(/^1 TypeScript error: /);
      expect((failure as BuildError).diagnostics).toEqual([
        "src/index.ts:2:9: TS2322: Type 'string' is not assignable to type 'number'.",
      ]);
      expect(existsSync(join(app, "build/app.wasm"))).toBe(false);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
