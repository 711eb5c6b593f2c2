/**
 * Generates an app's WIT package from its API: `interface types` holding the records and enums, and
 * `world app` importing the Trellis host and exporting every function with its return wrapped in
 * `result<T, string>` (the glue turns anything the function throws into `err`).
 *
 * The records live in an interface rather than at world level because componentize-qjs 0.4.5 emits an
 * invalid component when a world-level type refers to another world-level type (its type imports are
 * re-declared instead of referenced; wasm-tools rejects it with "type not valid to be used as import").
 * `componentWit` therefore does not print the record fields; the builder embeds this WIT text in the
 * component (see wit/app-wit-section.ts) so the component stays self-describing.
 */
import type { AppWorld, WitType, WitTypeDef } from "../wit/wit-types.ts";
import type { AppShapes, ValueShape } from "./ts-value-shapes.ts";
import { toKebabCase, witIdentifier } from "./wit-names.ts";

/** The Trellis host package every app world includes. */
export const HOST_WORLD = "trellis:app/imports@0.1.0";
export const APP_WORLD_NAME = "app";

export interface GeneratedWit {
  world: AppWorld;
  /** The app package's WIT source (the host package goes in `deps/`). */
  text: string;
  packageName: string;
}

/** `trellis:app-<name>` with the name reduced to a valid WIT package word sequence. */
export function appPackageName(appName: string): string {
  const kebab = toKebabCase(appName.replace(/^@[^/]*\//, "").replace(/[^A-Za-z0-9_-]+/g, "-"));
  return `trellis:app-${kebab ?? "main"}`;
}

export function shapeToWitType(shape: ValueShape): WitType {
  switch (shape.k) {
    case "string":
      return { kind: "prim", name: "string" };
    case "bool":
      return { kind: "prim", name: "bool" };
    case "num":
      return { kind: "prim", name: shape.wit };
    case "bigint":
      return { kind: "prim", name: "s64" };
    case "option":
      return { kind: "option", of: shapeToWitType(shape.of) };
    case "list":
      return { kind: "list", of: shapeToWitType(shape.of) };
    case "tuple":
      return { kind: "tuple", of: shape.of.map(shapeToWitType) };
    case "record":
    case "enum":
      return { kind: "ref", name: shape.name };
  }
}

export function printWitType(type: WitType): string {
  switch (type.kind) {
    case "prim":
      return type.name;
    case "list":
      return `list<${printWitType(type.of)}>`;
    case "option":
      return `option<${printWitType(type.of)}>`;
    case "tuple":
      return `tuple<${type.of.map(printWitType).join(", ")}>`;
    case "ref":
      return witIdentifier(type.name);
    case "result": {
      const ok = type.ok ? printWitType(type.ok) : "_";
      if (!type.err) return type.ok ? `result<${ok}>` : "result";
      return `result<${ok}, ${printWitType(type.err)}>`;
    }
  }
}

export function generateAppWit(shapes: AppShapes, packageName: string): GeneratedWit {
  const types = new Map<string, WitTypeDef>();
  for (const [name, shape] of shapes.types) {
    const docs = shape.docs ? { docs: shape.docs } : {};
    if (shape.kind === "enum")
      types.set(name, { kind: "enum", name, cases: shape.cases.map((c) => c.wit), ...docs });
    else {
      const fields = shape.fields.map((f) => ({ name: f.wit, type: shapeToWitType(f.shape) }));
      types.set(name, { kind: "record", name, fields, ...docs });
    }
  }
  const functions = shapes.functions.map((fn) => ({
    name: fn.wit,
    params: fn.params.map((p) => ({ name: p.wit, type: shapeToWitType(p.shape) })),
    result: {
      kind: "result" as const,
      ...(fn.result ? { ok: shapeToWitType(fn.result) } : {}),
      err: { kind: "prim" as const, name: "string" as const },
    },
    ...(fn.docs ? { docs: fn.docs } : {}),
  }));
  const world: AppWorld = { types, functions };
  return { world, text: printAppWit(world, packageName), packageName };
}

function printAppWit(world: AppWorld, packageName: string): string {
  const lines = [`package ${packageName};`, ""];
  const typeNames = [...world.types.keys()];
  if (typeNames.length > 0) {
    lines.push("/// The records and enums the app's functions take and return.", "interface types {");
    for (const def of world.types.values()) {
      lines.push(...docLines(def.docs, "  "));
      if (def.kind === "enum") {
        lines.push(
          `  enum ${witIdentifier(def.name)} {`,
          ...def.cases.map((c) => `    ${witIdentifier(c)},`),
          "  }",
        );
      } else {
        lines.push(`  record ${witIdentifier(def.name)} {`);
        for (const f of def.fields) lines.push(`    ${witIdentifier(f.name)}: ${printWitType(f.type)},`);
        lines.push("  }");
      }
    }
    lines.push("}", "");
  }
  lines.push(`world ${APP_WORLD_NAME} {`, `  include ${HOST_WORLD};`);
  if (typeNames.length > 0) {
    lines.push("  import types;", `  use types.{${typeNames.map(witIdentifier).join(", ")}};`);
  }
  for (const fn of world.functions) {
    const params = fn.params.map((p) => `${witIdentifier(p.name)}: ${printWitType(p.type)}`).join(", ");
    const result = fn.result ? ` -> ${printWitType(fn.result)}` : "";
    lines.push(...docLines(fn.docs, "  "), `  export ${witIdentifier(fn.name)}: func(${params})${result};`);
  }
  lines.push("}", "");
  return lines.join("\n");
}

function docLines(docs: string | undefined, indent: string): string[] {
  return docs ? docs.split("\n").map((l) => `${indent}/// ${l}`.trimEnd()) : [];
}
