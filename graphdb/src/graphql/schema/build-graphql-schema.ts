/**
 * The schema pipeline (reference §1.1): input SDL → checks with Dgraph's texts → the generated API as a
 * graphql-js schema, Dgraph's printed `generatedSchema`, and the DQL schema the data is stored under.
 */
import {
  buildASTSchema,
  concatAST,
  type DocumentNode,
  type FieldDefinitionNode,
  GraphQLError,
  type GraphQLSchema,
  type InterfaceTypeDefinitionNode,
  Kind,
  parse,
  validateSchema,
} from "graphql";
import { type GeneratedApi, generateApi } from "./api-generator.ts";
import { compileAuthRules, type TypeAuthRules } from "./auth-rules.ts";
import { type AuthorizationConfig, parseAuthorizationConfig } from "./authorization-config.ts";
import {
  APOLLO_SERVICE_DIRECTIVES,
  DGRAPH_DIRECTIVES,
  EXTENDED_DEFINITIONS,
  extendedDefinitions,
} from "./dgraph-extras.ts";
import { type DirectiveRuleOptions, directiveProblems, lambdaOnMutateOperations } from "./directive-rules.ts";
import { generateDqlSchema } from "./dql-schema.ts";
import { APOLLO_DIRECTIVES, parseInputSchema } from "./input-document.ts";
import { GraphQLSchemaError, type SchemaProblem } from "./schema-error.ts";
import { printGeneratedSchema, printInputDefinition } from "./schema-printer.ts";
import { documentProblems, modelProblems } from "./schema-rules.ts";
import { buildTypeModel, directive, type SchemaModel } from "./type-model.ts";

export interface GraphQLSchemaBuild {
  /** The input SDL as given. */
  readonly input: string;
  readonly model: SchemaModel;
  /** Dgraph's `generatedSchema` text. */
  readonly generatedSchema: string;
  /** The executable schema's type system. */
  readonly schema: GraphQLSchema;
  /** DQL schema text for `/alter`. */
  readonly dqlSchema: string;
  /** Some type has `@key`: Apollo Federation is on. */
  readonly federated: boolean;
  /** With federation, what `_service { sdl }` answers (reference §4.4). */
  readonly serviceSdl: string | undefined;
  /** The `# Dgraph.Authorization` settings, if given. */
  readonly authorization?: AuthorizationConfig;
  /** Each type's compiled `@auth` rules (interfaces' rules merged in); types without rules are absent. */
  readonly authRules?: ReadonlyMap<string, TypeAuthRules>;
  /** Per type, the root mutations whose commits `@lambdaOnMutate` reports; types without it are absent. */
  readonly lambdaOnMutate?: ReadonlyMap<string, ReadonlySet<"add" | "update" | "delete">>;
}

const APOLLO_DEFINITIONS = `union _Entity = %ENTITIES%

scalar _Any
scalar _FieldSet

type _Service {
\tsdl: String
}

${[...APOLLO_DIRECTIVES.values()].join("\n")}`;

function problemsOf(e: unknown): SchemaProblem[] {
  if (e instanceof GraphQLSchemaError) return e.problems;
  if (e instanceof GraphQLError) {
    const loc = e.locations?.[0];
    return [{ message: e.message, line: loc?.line, column: loc?.column }];
  }
  const message = e instanceof Error ? e.message : String(e);
  return message.split("\n\n").map((m) => ({ message: m }));
}

/**
 * Builds everything a GraphQL schema gives; throws GraphQLSchemaError with every problem found. `options`
 * says what the server is configured with, for the rules that depend on it (unknown: not checked).
 */
export function buildGraphQLSchema(sdl: string, options: DirectiveRuleOptions = {}): GraphQLSchemaBuild {
  let authorization: AuthorizationConfig | undefined;
  try {
    authorization = parseAuthorizationConfig(sdl);
  } catch (e) {
    throw new GraphQLSchemaError([{ message: (e as Error).message }]);
  }
  const { doc, foreignDirectives, foreignDirectiveArguments } = parseInputSchema(sdl);
  const early = [...documentProblems(doc), ...directiveProblems(doc, options)];
  if (early.length > 0) throw new GraphQLSchemaError(early);

  const keyed = doc.definitions.filter(
    (d) =>
      (d.kind === Kind.OBJECT_TYPE_DEFINITION || d.kind === Kind.INTERFACE_TYPE_DEFINITION) &&
      directive(d, "key"),
  );
  const federated = keyed.length > 0;
  const entities = keyed.map((d) => ("name" in d && d.name ? d.name.value : "")).join(" | ");
  const apollo = federated ? APOLLO_DEFINITIONS.replace("%ENTITIES%", entities) : undefined;
  const apolloDirectivesOnly = [...APOLLO_DIRECTIVES.values()].join("\n") + "\nscalar _FieldSet";

  // GraphQL's own validation of the input, against the injected definitions; the input comes first so
  // that error locations are lines of the input.
  const keep = (name: string) => !foreignDirectives.has(name);
  try {
    const foreign = [...foreignDirectives]
      .map((d) => `directive @${d}${foreignDirectiveArguments.get(d) ?? ""} on ${ALL_LOCATIONS}`)
      .join("\n");
    buildASTSchema(
      concatAST([
        doc,
        parse(`${EXTENDED_DEFINITIONS}\n${federated ? apollo : apolloDirectivesOnly}\n${foreign}`),
      ]),
    );
  } catch (e) {
    throw new GraphQLSchemaError(problemsOf(e));
  }

  copyInterfaceFields(doc);
  const model = buildTypeModel(doc);
  const problems = modelProblems(model);
  if (problems.length > 0) throw new GraphQLSchemaError(problems);
  const api = generateApi(model);
  const { input, customQuery, customMutation } = printInput(doc, api, keep);
  if (federated) {
    customQuery.push("_entities(representations: [_Any!]!): [_Entity]!", "_service: _Service!");
  }
  const usedApolloDirective = doc.definitions.some((d) =>
    JSON.stringify(d).match(/"value":"(external|requires|provides|extends|key)"/),
  );
  const generatedSchema = printGeneratedSchema({
    input,
    extended: EXTENDED_DEFINITIONS,
    apollo: federated ? apollo : undefined,
    api,
    customQuery,
    customMutation,
  });
  let schema: GraphQLSchema;
  try {
    const extra = !federated && usedApolloDirective ? `\n${apolloDirectivesOnly}` : "";
    schema = buildASTSchema(parse(generatedSchema + extra), { assumeValidSDL: false });
  } catch (e) {
    throw new GraphQLSchemaError(problemsOf(e));
  }
  const invalid = validateSchema(schema);
  if (invalid.length > 0) throw new GraphQLSchemaError(invalid.flatMap(problemsOf));
  if (!schema.getQueryType() && !schema.getMutationType()) {
    throw new GraphQLSchemaError([{ message: "No query or mutation found in the generated schema" }]);
  }
  void DGRAPH_DIRECTIVES;
  const auth = compileAuthRules(doc, schema);
  if (auth.problems.length > 0) throw new GraphQLSchemaError(auth.problems);
  const serviceSdl = federated ? printServiceSdl(doc, model, foreignDirectives) : undefined;
  return {
    input: sdl,
    model,
    generatedSchema,
    schema,
    dqlSchema: generateDqlSchema(model),
    federated,
    serviceSdl,
    authorization,
    authRules: auth.rules,
    lambdaOnMutate: lambdaOnMutateTypes(doc),
  };
}

function lambdaOnMutateTypes(doc: DocumentNode): Map<string, ReadonlySet<"add" | "update" | "delete">> {
  const out = new Map<string, ReadonlySet<"add" | "update" | "delete">>();
  for (const def of doc.definitions) {
    if (def.kind !== Kind.OBJECT_TYPE_DEFINITION && def.kind !== Kind.INTERFACE_TYPE_DEFINITION) continue;
    const ops = lambdaOnMutateOperations(def);
    if (ops.size > 0) out.set(def.name.value, ops);
  }
  return out;
}

const ALL_LOCATIONS =
  "QUERY | MUTATION | SUBSCRIPTION | FIELD | FRAGMENT_DEFINITION | FRAGMENT_SPREAD | INLINE_FRAGMENT | VARIABLE_DEFINITION | SCHEMA | SCALAR | OBJECT | FIELD_DEFINITION | ARGUMENT_DEFINITION | INTERFACE | UNION | ENUM | ENUM_VALUE | INPUT_OBJECT | INPUT_FIELD_DEFINITION";

/**
 * Dgraph copies an interface's fields into each type implementing it (interface fields first); a type may
 * redeclare one only with the identical type. Done in place on the rewritten input document.
 */
function copyInterfaceFields(doc: DocumentNode): void {
  const interfaces = new Map<string, InterfaceTypeDefinitionNode>();
  for (const def of doc.definitions)
    if (def.kind === Kind.INTERFACE_TYPE_DEFINITION) interfaces.set(def.name.value, def);
  const definitions = doc.definitions as DocumentNode["definitions"][number][];
  for (let i = 0; i < definitions.length; i++) {
    const def = definitions[i];
    if (def.kind !== Kind.OBJECT_TYPE_DEFINITION && def.kind !== Kind.INTERFACE_TYPE_DEFINITION) continue;
    if (!def.interfaces?.length) continue;
    const own = def.fields ?? [];
    const inherited: FieldDefinitionNode[] = [];
    for (const name of def.interfaces.map((x) => x.name.value)) {
      for (const f of interfaces.get(name)?.fields ?? []) {
        if (
          own.some((o) => o.name.value === f.name.value) ||
          inherited.some((o) => o.name.value === f.name.value)
        )
          continue;
        inherited.push(f);
      }
    }
    if (inherited.length > 0) definitions[i] = { ...def, fields: [...inherited, ...own] };
  }
}

/** The input definitions re-printed with the generated arguments, and the custom Query/Mutation fields. */
function printInput(
  doc: DocumentNode,
  api: GeneratedApi,
  keep: (directive: string) => boolean,
): { input: string[]; customQuery: string[]; customMutation: string[] } {
  const input: string[] = [];
  const customQuery: string[] = [];
  const customMutation: string[] = [];
  for (const def of doc.definitions) {
    if (
      def.kind === Kind.OBJECT_TYPE_DEFINITION &&
      (def.name.value === "Query" || def.name.value === "Mutation")
    ) {
      const printed = printInputDefinition(def, keep, undefined, undefined) ?? "";
      const fields = printed
        .split("\n")
        .slice(1, -1)
        .map((l) => l.replace(/^\t/, ""));
      (def.name.value === "Query" ? customQuery : customMutation).push(...fields);
      continue;
    }
    const name = "name" in def && def.name ? def.name.value : "";
    const text = printInputDefinition(def, keep, api.fieldArguments.get(name), api.aggregateFields.get(name));
    if (text !== undefined) input.push(text);
  }
  return { input, customQuery, customMutation };
}

/**
 * What a gateway composes (reference §4.4): the same printer, but no Apollo extras (`_Entity`, `_Any`,
 * `_Service`, `_entities`, `_service`, the federation directive definitions), directive definitions reduced
 * to the Apollo-supported set and the uses of the others dropped, and no get/query/aggregate of extended
 * types nor arguments on fields of an extended type.
 */
function printServiceSdl(doc: DocumentNode, model: SchemaModel, foreign: ReadonlySet<string>): string {
  const api = generateApi(model, { service: true });
  const keep = (name: string) =>
    !foreign.has(name) &&
    (APOLLO_SERVICE_DIRECTIVES.has(name) || APOLLO_DIRECTIVES.has(name) || !DGRAPH_DIRECTIVES.has(name));
  const { input, customQuery, customMutation } = printInput(doc, api, keep);
  return printGeneratedSchema({
    input,
    extended: extendedDefinitions((name) => APOLLO_SERVICE_DIRECTIVES.has(name)),
    api,
    customQuery,
    customMutation,
  });
}
