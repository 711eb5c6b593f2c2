/**
 * Prints a generated schema as Dgraph does: banner-separated sections (input schema re-printed with the
 * added field arguments, extended definitions, generated types, enums and inputs in alphabetical order,
 * then Query, Mutation and Subscription), tab-indented, directive arguments printed compactly.
 */
import {
  type ConstDirectiveNode,
  type ConstValueNode,
  type DefinitionNode,
  type FieldDefinitionNode,
  type InputValueDefinitionNode,
  Kind,
  print,
  type StringValueNode,
} from "graphql";
import type { GeneratedApi, GeneratedDefinition } from "./api-generator.ts";
import { typeText } from "./type-model.ts";

const banner = (title: string) => `#######################\n# ${title}\n#######################\n`;

function value(v: ConstValueNode): string {
  switch (v.kind) {
    case Kind.LIST:
      return `[${v.values.map(value).join(",")}]`;
    case Kind.OBJECT:
      return `{${v.fields.map((f) => `${f.name.value}:${value(f.value)}`).join(",")}}`;
    default:
      return print(v);
  }
}

export function directiveText(d: ConstDirectiveNode): string {
  const args = d.arguments ?? [];
  if (args.length === 0) return `@${d.name.value}`;
  return `@${d.name.value}(${args.map((a) => `${a.name.value}: ${value(a.value)}`).join(", ")})`;
}

function directives(
  list: readonly ConstDirectiveNode[] | undefined,
  keep: (name: string) => boolean,
): string {
  const kept = (list ?? []).filter((d) => keep(d.name.value));
  return kept.length === 0 ? "" : ` ${kept.map(directiveText).join(" ")}`;
}

function description(d: StringValueNode | undefined, indent: string): string {
  if (d === undefined) return "";
  return `${indent}"""\n${d.value
    .split("\n")
    .map((l) => `${indent}${l}`)
    .join("\n")}\n${indent}"""\n`;
}

function argumentsText(args: readonly InputValueDefinitionNode[] | undefined): string {
  if (args === undefined || args.length === 0) return "";
  return `(${args.map((a) => `${a.name.value}: ${typeText(a.type)}${a.defaultValue ? ` = ${print(a.defaultValue)}` : ""}`).join(", ")})`;
}

function fieldText(
  f: FieldDefinitionNode,
  added: string | undefined,
  keep: (name: string) => boolean,
): string {
  const args = added ?? argumentsText(f.arguments);
  return `${description(f.description, "\t")}\t${f.name.value}${args}: ${typeText(f.type)}${directives(f.directives, keep)}`;
}

/** One input definition re-printed; `fieldArguments` adds the generated arguments to edge fields. */
export function printInputDefinition(
  def: DefinitionNode,
  keep: (name: string) => boolean,
  fieldArguments: ReadonlyMap<string, string> | undefined,
  aggregateFields: readonly string[] | undefined,
): string | undefined {
  switch (def.kind) {
    case Kind.OBJECT_TYPE_DEFINITION:
    case Kind.INTERFACE_TYPE_DEFINITION: {
      const word = def.kind === Kind.OBJECT_TYPE_DEFINITION ? "type" : "interface";
      const impl = def.interfaces?.length
        ? ` implements ${def.interfaces.map((i) => i.name.value).join(" & ")}`
        : "";
      const lines = (def.fields ?? []).map((f) => fieldText(f, fieldArguments?.get(f.name.value), keep));
      for (const a of aggregateFields ?? []) lines.push(`\t${a}`);
      return `${description(def.description, "")}${word} ${def.name.value}${impl}${directives(def.directives, keep)} {\n${lines.join("\n")}\n}`;
    }
    case Kind.UNION_TYPE_DEFINITION:
      return `${description(def.description, "")}union ${def.name.value}${directives(def.directives, keep)} = ${(def.types ?? []).map((t) => t.name.value).join(" | ")}`;
    case Kind.ENUM_TYPE_DEFINITION:
      return `${description(def.description, "")}enum ${def.name.value}${directives(def.directives, keep)} {\n${(
        def.values ?? []
      )
        .map((v) => `${description(v.description, "\t")}\t${v.name.value}${directives(v.directives, keep)}`)
        .join("\n")}\n}`;
    case Kind.INPUT_OBJECT_TYPE_DEFINITION:
      return `${description(def.description, "")}input ${def.name.value}${directives(def.directives, keep)} {\n${(
        def.fields ?? []
      )
        .map(
          (f) =>
            `${description(f.description, "\t")}\t${f.name.value}: ${typeText(f.type)}${directives(f.directives, keep)}`,
        )
        .join("\n")}\n}`;
    default:
      return undefined;
  }
}

function printDefinitions(defs: ReadonlyMap<string, GeneratedDefinition>): string {
  return [...defs.keys()]
    .sort()
    .map((name) => {
      const def = defs.get(name) as GeneratedDefinition;
      return `${def.kind} ${name} {\n${def.fields.map((f) => `\t${f}`).join("\n")}\n}`;
    })
    .join("\n\n");
}

export interface PrintedSchema {
  input: string[];
  extended: string;
  apollo?: string;
  api: GeneratedApi;
  /** Custom Query/Mutation fields from the input, printed before the generated ones. */
  customQuery: string[];
  customMutation: string[];
}

/** The full generated schema text (Dgraph's `generatedSchema`). */
export function printGeneratedSchema(s: PrintedSchema): string {
  const sections: string[] = [];
  const section = (title: string, body: string) => {
    if (body.trim() !== "") sections.push(`${banner(title)}\n${body}\n`);
  };
  section("Input Schema", s.input.join("\n\n"));
  section("Extended Definitions", s.extended);
  if (s.apollo) section("Extended Apollo Definitions", s.apollo);
  section("Generated Types", printDefinitions(s.api.types));
  section("Generated Enums", printDefinitions(s.api.enums));
  section("Generated Inputs", printDefinitions(s.api.inputs));
  const root = (name: string, fields: string[]) =>
    fields.length === 0 ? "" : `type ${name} {\n${fields.map((f) => `\t${f}`).join("\n")}\n}`;
  section("Generated Query", root("Query", [...s.customQuery, ...s.api.query]));
  section("Generated Mutations", root("Mutation", [...s.customMutation, ...s.api.mutation]));
  section("Generated Subscriptions", root("Subscription", s.api.subscription));
  return sections.join("\n");
}
