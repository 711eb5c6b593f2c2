import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTypeScriptApp, type TypeScriptBuildResult } from "../../src/compiler/ts-component-builder.ts";
import { callError, type Instance, loadComponent } from "./component-harness.ts";

const TEMPLATE = fileURLToPath(new URL("../../../app-template/typescript", import.meta.url));

/** A host that answers like the real one would, recording what the guest asked (the SDK's wire format). */
function recordingHost(calls: unknown[][]) {
  return {
    httpFetch: (...args: unknown[]) => {
      calls.push(["httpFetch", ...args]);
      return {
        status: 200,
        statusText: "OK",
        headers: [["content-type", "application/json"]],
        body: '{"text":"Hi","author":"Me"}',
      };
    },
    sqlQuery: (...args: unknown[]) => {
      calls.push(["sqlQuery", ...args]);
      return '[{"count":12}]';
    },
    sqlExecute: () => '{"rowsAffected":0,"lastInsertId":null}',
    graphQuery: (...args: unknown[]) => {
      calls.push(["graphQuery", ...args]);
      return JSON.stringify({ people: [{ uid: "0x1", name: "Ann" }] });
    },
    graphMutate: (...args: unknown[]) => {
      calls.push(["graphMutate", ...args]);
      return '{"json":null,"uids":{"person":"0x2"}}';
    },
    graphAlter: () => "",
    modelInvoke: (...args: unknown[]) => {
      calls.push(["modelInvoke", ...args]);
      if (String(args[1]).includes("fail")) throw "model text-generator answered 429";
      return JSON.stringify({ choices: [{ message: { role: "assistant", content: "A story." } }] });
    },
    log: () => {},
    appSecret: () => "s",
  };
}

describe("app-template/typescript", () => {
  let dir: string;
  let built: TypeScriptBuildResult;
  let app: Instance;
  const calls: unknown[][] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "trellis-template-"));
    built = await buildTypeScriptApp(TEMPLATE, { outDir: join(dir, "out") });
    app = await loadComponent(built.component, join(dir, "transpiled"), recordingHost(calls));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("builds without warnings and exports one function per connection kind", () => {
    expect(built.warnings).toEqual([]);
    expect(built.world.functions.map((f) => f.name)).toEqual([
      "say-hello",
      "get-quote",
      "get-table-count",
      "list-people",
      "add-person",
      "generate-text",
    ]);
  });

  it("runs each function through the SDK's host calls", () => {
    expect(app.sayHello!("Trellis")).toBe("Hello, Trellis!");
    expect(app.getQuote!()).toEqual({ text: "Hi", author: "Me" });
    expect(app.getTableCount!()).toBe(12);
    expect(app.listPeople!()).toEqual([{ uid: "0x1", name: "Ann", age: undefined }]);
    expect(app.addPerson!("Bo", 7)).toBe("0x2");
    expect(app.generateText!("Tell me a story")).toBe("A story.");

    const call = (name: string) => calls.find((c) => c[0] === name)!;
    expect(call("httpFetch")).toEqual([
      "httpFetch",
      "https://api.example.com/quotes/random",
      "GET",
      [],
      undefined,
    ]);
    expect(call("sqlQuery").slice(3)).toEqual(['["public"]']);
    expect(call("graphQuery")[2]).toContain("type(Person)");
    expect(JSON.parse(call("graphMutate")[2] as string)).toEqual({
      mutations: [{ setJson: { uid: "_:person", "dgraph.type": "Person", name: "Bo", age: 7 } }],
    });
    expect(JSON.parse(call("modelInvoke")[2] as string).messages[1]).toEqual({
      role: "user",
      content: "Tell me a story",
    });
  });

  it("surfaces a host error as the function's err", () => {
    expect(callError(() => app.generateText!("please fail"))).toBe("model text-generator answered 429");
  });
});
