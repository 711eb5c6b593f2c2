import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { componentEmbed, componentNew, componentWit } from "@bytecodealliance/jco";
import { describe, expect, it } from "vitest";
import type { AppShapes } from "../../src/compiler/ts-value-shapes.ts";
import { toKebabCase, witNameToJs } from "../../src/compiler/wit-names.ts";
import { appPackageName, generateAppWit } from "../../src/compiler/wit-world-generator.ts";

const HOST_WIT = fileURLToPath(new URL("../../wit/host.wit", import.meta.url));

const shapes: AppShapes = {
  types: new Map([
    [
      "color",
      {
        kind: "enum",
        name: "color",
        cases: [
          { value: "darkBlue", wit: "dark-blue" },
          { value: "list", wit: "list" },
        ],
      },
    ],
    [
      "item",
      {
        kind: "record",
        name: "item",
        docs: "An item.\nSecond line.",
        fields: [
          { key: "type", wit: "type", shape: { k: "string" } },
          {
            key: "color",
            wit: "color",
            shape: { k: "option", of: { k: "enum", name: "color" }, none: "null" },
          },
          { key: "pair", wit: "pair", shape: { k: "tuple", of: [{ k: "bigint" }, { k: "num", wit: "u8" }] } },
        ],
      },
    ],
  ]),
  functions: [
    {
      jsName: "list",
      wit: "list",
      params: [{ name: "items", wit: "items", shape: { k: "list", of: { k: "record", name: "item" } } }],
      result: { k: "list", of: { k: "record", name: "item" } },
    },
    { jsName: "_reset", wit: "hidden-reset", params: [], docs: "Clears everything." },
  ],
};

describe("generateAppWit", () => {
  const generated = generateAppWit(shapes, "trellis:app-demo");

  it("prints types in an interface, escapes keywords and wraps results in result<T, string>", () => {
    expect(generated.text).toBe(`package trellis:app-demo;

/// The records and enums the app's functions take and return.
interface types {
  enum color {
    dark-blue,
    %list,
  }
  /// An item.
  /// Second line.
  record item {
    %type: string,
    color: option<color>,
    pair: tuple<s64, u8>,
  }
}

world app {
  include trellis:app/imports@0.1.0;
  import types;
  use types.{color, item};
  export %list: func(items: list<item>) -> result<list<item>, string>;
  /// Clears everything.
  export hidden-reset: func() -> result<_, string>;
}
`);
  });

  it("is accepted by wasm-tools (jco componentEmbed + componentNew) with the host package in deps/", async () => {
    const dir = await mkdtemp(join(tmpdir(), "trellis-wit-"));
    try {
      await mkdir(join(dir, "deps", "trellis-app"), { recursive: true });
      await writeFile(join(dir, "world.wit"), generated.text);
      await writeFile(join(dir, "deps", "trellis-app", "host.wit"), await readFile(HOST_WIT));
      const core = await componentEmbed({ dummy: true, witPath: dir, world: "app" });
      const printed = (await componentWit(await componentNew(core, []))) as string;
      expect(printed).toContain("import trellis:app/host@0.1.0;");
      expect(printed).toContain("export %list: func(items: list<item>) -> result<list<item>, string>;");
      expect(printed).toContain("export hidden-reset: func() -> result<_, string>;");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("builds the AppWorld model the GraphQL layer reads", () => {
    expect(generated.world.functions[1]).toEqual({
      name: "hidden-reset",
      params: [],
      result: { kind: "result", err: { kind: "prim", name: "string" } },
      docs: "Clears everything.",
    });
    expect(generated.world.types.get("item")).toMatchObject({
      fields: [
        { name: "type" },
        { name: "color", type: { kind: "option", of: { kind: "ref", name: "color" } } },
        {},
      ],
    });
  });
});

describe("WIT names", () => {
  it("kebab-cases identifiers the way authors write them", () => {
    expect(toKebabCase("getPerson")).toBe("get-person");
    expect(toKebabCase("getHTTPResponse")).toBe("get-http-response");
    expect(toKebabCase("user_id")).toBe("user-id");
    expect(toKebabCase("IN_PROGRESS")).toBe("in-progress");
    expect(toKebabCase("v2Api")).toBe("v2-api");
    expect(toKebabCase("item2")).toBe("item2");
    expect(toKebabCase("_internal")).toBe("internal");
    expect(toKebabCase("has space")).toBeUndefined();
    expect(toKebabCase("1st")).toBeUndefined();
  });

  it("spells WIT names in JS as jco and componentize-qjs do", () => {
    expect(witNameToJs("first-name")).toBe("firstName");
    expect(witNameToJs("%type")).toBe("type");
  });

  it("derives a valid package name from any app name", () => {
    expect(appPackageName("@acme/My App")).toBe("trellis:app-my-app");
    expect(appPackageName("2048")).toBe("trellis:app-main");
  });
});
