/**
 * Parses an input GraphQL schema and brings it to the form the rest of the pipeline reads: `extend type X`
 * becomes `type X @extends` (`extend type Query` merges into `type Query`), and the definitions of
 * directives Dgraph does not know are noted so that their uses can be dropped.
 */
import {
  type ConstDirectiveNode,
  type DefinitionNode,
  type DocumentNode,
  GraphQLError,
  Kind,
  type ObjectTypeDefinitionNode,
  parse,
  print,
} from "graphql";
import { DGRAPH_DIRECTIVES } from "./dgraph-extras.ts";
import { GraphQLSchemaError } from "./schema-error.ts";

export const APOLLO_DIRECTIVES: ReadonlyMap<string, string> = new Map([
  ["external", "directive @external on FIELD_DEFINITION"],
  ["requires", "directive @requires(fields: _FieldSet!) on FIELD_DEFINITION"],
  ["provides", "directive @provides(fields: _FieldSet!) on FIELD_DEFINITION"],
  ["key", "directive @key(fields: _FieldSet!) on OBJECT | INTERFACE"],
  ["extends", "directive @extends on OBJECT | INTERFACE"],
]);

export interface InputDocument {
  doc: DocumentNode;
  /** Directives declared by the input that Dgraph does not know: accepted, and left out of the output. */
  foreignDirectives: ReadonlySet<string>;
  /** Their declared arguments, printed (`(level: Int)`, or ""), so that uses with arguments validate. */
  foreignDirectiveArguments: ReadonlyMap<string, string>;
}

const EXTENDS: ConstDirectiveNode = {
  kind: Kind.DIRECTIVE,
  name: { kind: Kind.NAME, value: "extends" },
  arguments: [],
};

export function parseInputSchema(sdl: string): InputDocument {
  let doc: DocumentNode;
  try {
    doc = parse(sdl, { noLocation: false });
  } catch (e) {
    if (e instanceof GraphQLError) {
      const loc = e.locations?.[0];
      throw new GraphQLSchemaError([{ message: e.message, line: loc?.line, column: loc?.column }]);
    }
    throw e;
  }
  const foreign = new Set<string>();
  const foreignArguments = new Map<string, string>();
  const definitions: DefinitionNode[] = [];
  const roots = new Map<string, ObjectTypeDefinitionNode>();
  for (const def of doc.definitions) {
    if (def.kind === Kind.DIRECTIVE_DEFINITION) {
      if (!DGRAPH_DIRECTIVES.has(def.name.value) && !APOLLO_DIRECTIVES.has(def.name.value)) {
        foreign.add(def.name.value);
        const args = (def.arguments ?? []).map((a) => print(a));
        foreignArguments.set(def.name.value, args.length > 0 ? `(${args.join(", ")})` : "");
      }
      continue;
    }
    if (def.kind === Kind.OBJECT_TYPE_EXTENSION) {
      const name = def.name.value;
      const asDefinition: ObjectTypeDefinitionNode = {
        kind: Kind.OBJECT_TYPE_DEFINITION,
        name: def.name,
        interfaces: def.interfaces,
        directives:
          name === "Query" || name === "Mutation" ? def.directives : [...(def.directives ?? []), EXTENDS],
        fields: def.fields,
        loc: def.loc,
      };
      mergeRoot(definitions, roots, asDefinition);
      continue;
    }
    if (def.kind === Kind.OBJECT_TYPE_DEFINITION) {
      mergeRoot(definitions, roots, def);
      continue;
    }
    definitions.push(def);
  }
  return {
    doc: { kind: Kind.DOCUMENT, definitions },
    foreignDirectives: foreign,
    foreignDirectiveArguments: foreignArguments,
  };
}

/** `type Query` and `extend type Query` (likewise Mutation) become one definition. */
function mergeRoot(
  definitions: DefinitionNode[],
  roots: Map<string, ObjectTypeDefinitionNode>,
  def: ObjectTypeDefinitionNode,
): void {
  const name = def.name.value;
  if (name !== "Query" && name !== "Mutation") {
    definitions.push(def);
    return;
  }
  const earlier = roots.get(name);
  if (earlier === undefined) {
    roots.set(name, def);
    definitions.push(def);
    return;
  }
  const merged: ObjectTypeDefinitionNode = {
    ...earlier,
    fields: [...(earlier.fields ?? []), ...(def.fields ?? [])],
  };
  roots.set(name, merged);
  definitions[definitions.indexOf(earlier)] = merged;
}
