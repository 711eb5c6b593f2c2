import { type AppSchema, buildAppSchema } from "../graphql/schema-builder.ts";
import type { AppWorld } from "../wit/wit-types.ts";

/** What the explorer shows for one function. */
export interface ExplorerFunction {
  /** GraphQL field name. */
  name: string;
  witName: string;
  rootType: "Query" | "Mutation";
  description: string | null;
  args: { name: string; type: string }[];
  returnType: string;
  /** Selection set to request the whole result (`{ id name }`), "" for leaf types. */
  selection: string;
}

export interface ExplorerCatalog {
  functions: ExplorerFunction[];
  /** GraphQL enum name → values, so the page can offer a choice. */
  enums: Record<string, string[]>;
}

const schemas = new WeakMap<AppWorld, AppSchema>();

/** The explorer's function list for an app, derived from its WIT world (cached per world). */
export function explorerCatalog(world: AppWorld): ExplorerCatalog {
  let schema = schemas.get(world);
  if (!schema) {
    schema = buildAppSchema(world);
    schemas.set(world, schema);
  }
  return {
    functions: schema.fields.map((f) => ({
      name: f.fieldName,
      witName: f.witName,
      rootType: f.rootType,
      description: f.description ?? null,
      args: f.args.map((a) => ({ name: a.name, type: a.graphqlType })),
      returnType: f.graphqlType,
      selection: f.selection,
    })),
    enums: schema.enums,
  };
}
