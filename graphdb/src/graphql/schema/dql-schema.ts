/**
 * The DQL schema a GraphQL schema stores its data under (reference §3.1): a `type` per stored GraphQL type
 * listing its predicates, and each predicate's type, indexes (from `@search`), `@upsert` (for `@id`),
 * `@reverse` (for `~` predicates read elsewhere) and `@lang`.
 */
import { SEARCH_ARGUMENTS } from "./search-indexes.ts";
import type { FieldModel, SchemaModel, TypeModel } from "./type-model.ts";

const DQL_SCALAR: Readonly<Record<string, string>> = {
  String: "string",
  Int: "int",
  Int64: "int",
  Float: "float",
  Boolean: "bool",
  DateTime: "datetime",
  ID: "string",
};

interface Predicate {
  type: string;
  list: boolean;
  indexes: string[];
  upsert: boolean;
  reverse: boolean;
  lang: boolean;
}

function dqlType(f: FieldModel): string {
  switch (f.kind) {
    case "object":
    case "interface":
    case "union":
      return "uid";
    case "geo":
      return "geo";
    case "enum":
      return "string";
    default:
      return DQL_SCALAR[f.typeName] ?? "string";
  }
}

function addIndex(p: Predicate, index: string): void {
  if (!p.indexes.includes(index)) p.indexes.push(index);
}

/** Predicates and types of `model` as DQL schema text (one declaration per line). */
export function generateDqlSchema(model: SchemaModel): string {
  const predicates = new Map<string, Predicate>();
  const types: string[] = [];
  const reversed = new Set<string>();
  for (const name of model.order) {
    const type = model.types.get(name) as TypeModel;
    if (type.remote || type.kind === "union") continue;
    const preds: string[] = [];
    for (const f of type.fields) {
      if (f.predicate === "") continue;
      if (f.reverse) {
        reversed.add(f.predicate.slice(1));
        continue;
      }
      if (f.external && f.name !== type.key && !f.provided) continue;
      if (!preds.includes(f.predicate)) preds.push(f.predicate);
      if (f.declaredIn !== type.name && predicates.has(f.predicate)) continue;
      const p: Predicate = predicates.get(f.predicate) ?? {
        type: dqlType(f),
        list: f.list,
        indexes: [],
        upsert: false,
        reverse: false,
        lang: f.lang !== undefined,
      };
      if (f.lang !== undefined) p.lang = true;
      if (f.kind === "id" && (f.external || f.storedId)) {
        p.type = "string";
        addIndex(p, "hash");
        p.upsert = true;
      }
      if (f.kind === "enum") addIndex(p, "hash");
      for (const arg of f.search) {
        const index = SEARCH_ARGUMENTS.get(arg)?.index;
        if (index !== undefined && !(f.kind === "enum" && index === "hash" && p.indexes.includes("hash"))) {
          addIndex(p, index);
        }
      }
      if (f.xid) p.upsert = true;
      predicates.set(f.predicate, p);
    }
    if (type.secret) {
      if (!preds.includes(type.secret.predicate)) preds.push(type.secret.predicate);
      predicates.set(type.secret.predicate, {
        type: "password",
        list: false,
        indexes: [],
        upsert: false,
        reverse: false,
        lang: false,
      });
    }
    types.push(`type <${type.dgraphType}> {\n${preds.map((p) => `\t<${p}>`).join("\n")}\n}`);
  }
  for (const pred of reversed) {
    const p = predicates.get(pred);
    if (p !== undefined) p.reverse = true;
  }
  const lines = [...predicates].map(([name, p]) => {
    const type = p.list ? `[${p.type}]` : p.type;
    const index = p.indexes.length > 0 ? ` @index(${p.indexes.join(", ")})` : "";
    return `<${name}>: ${type}${index}${p.reverse ? " @reverse" : ""}${p.upsert ? " @upsert" : ""}${p.lang ? " @lang" : ""} .`;
  });
  return [...types, ...lines].join("\n");
}
