/**
 * Bounds on a GraphQL schema's size, checked before it is built: building the generated API takes about a
 * millisecond per type and a tenth of one per field, on the event loop and in one piece (graphql-js), so an
 * unbounded SDL (5,000 types took 10 s) would stop every other request. The defaults keep the largest
 * accepted schema to about half a second (0.5–0.7 s measured on a loaded 2-core machine).
 */
import { Kind, parse } from "graphql";
import { GraphQLSchemaError } from "./schema-error.ts";

export interface GraphQLSchemaLimits {
  /** Bytes (UTF-8) of SDL. */
  maxBytes: number;
  /** Type definitions and extensions (object, interface, input, enum, union, scalar). */
  maxTypes: number;
  /** Fields of every type together (enum values and input fields included). */
  maxFields: number;
}

export const DEFAULT_GRAPHQL_SCHEMA_LIMITS: Readonly<GraphQLSchemaLimits> = {
  maxBytes: 256 * 1024,
  maxTypes: 200,
  maxFields: 2000,
};

const TYPE_KINDS: ReadonlySet<string> = new Set([
  Kind.OBJECT_TYPE_DEFINITION,
  Kind.OBJECT_TYPE_EXTENSION,
  Kind.INTERFACE_TYPE_DEFINITION,
  Kind.INTERFACE_TYPE_EXTENSION,
  Kind.INPUT_OBJECT_TYPE_DEFINITION,
  Kind.INPUT_OBJECT_TYPE_EXTENSION,
  Kind.ENUM_TYPE_DEFINITION,
  Kind.ENUM_TYPE_EXTENSION,
  Kind.UNION_TYPE_DEFINITION,
  Kind.UNION_TYPE_EXTENSION,
  Kind.SCALAR_TYPE_DEFINITION,
]);

/** Throws GraphQLSchemaError when the SDL exceeds a limit (a syntax error is left to the build). */
export function checkSchemaSize(sdl: string, limits: GraphQLSchemaLimits): void {
  if (sdl.length * 3 > limits.maxBytes) {
    const bytes = Buffer.byteLength(sdl);
    if (bytes > limits.maxBytes) refuse(`${bytes} bytes`, `${limits.maxBytes} bytes`);
  }
  let doc: ReturnType<typeof parse>;
  try {
    doc = parse(sdl, { noLocation: true });
  } catch {
    return;
  }
  let types = 0;
  let fields = 0;
  for (const def of doc.definitions) {
    if (!TYPE_KINDS.has(def.kind)) continue;
    types++;
    const d = def as { fields?: readonly unknown[]; values?: readonly unknown[]; types?: readonly unknown[] };
    fields += (d.fields?.length ?? 0) + (d.values?.length ?? 0);
  }
  if (types > limits.maxTypes) refuse(`${types} types`, `${limits.maxTypes} types`);
  if (fields > limits.maxFields) refuse(`${fields} fields`, `${limits.maxFields} fields`);
}

function refuse(size: string, limit: string): never {
  throw new GraphQLSchemaError([
    {
      message:
        `The schema has ${size}, more than this server's limit of ${limit}: it is not built or stored.` +
        " Make the schema smaller, or ask the operator to raise the GraphQL schema limits.",
    },
  ]);
}
