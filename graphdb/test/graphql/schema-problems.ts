/** What the schema pipeline says of a schema it refuses: each problem as `input:LINE: message`. */
import { buildGraphQLSchema } from "../../src/graphql/schema/build-graphql-schema.ts";
import { GraphQLSchemaError, problemText } from "../../src/graphql/schema/schema-error.ts";

export function problems(sdl: string): string[] {
  try {
    buildGraphQLSchema(sdl);
  } catch (e) {
    if (e instanceof GraphQLSchemaError) return e.problems.map(problemText);
    throw e;
  }
  throw new Error("schema accepted");
}
