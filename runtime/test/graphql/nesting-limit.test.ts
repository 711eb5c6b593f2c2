import { describe, expect, it } from "vitest";
import { createGraphQLHandler } from "../../src/graphql/graphql-handler.ts";
import { newTestInvoker, testWorld } from "./app-functions.ts";

/** An app's /graphql refuses deeply nested input before graphql-js recurses into it. */
describe("nesting bound of an app's GraphQL requests", () => {
  const handler = createGraphQLHandler({ world: testWorld, invoker: newTestInvoker() });
  const post = async (query: string, variables = "null") => {
    const res = await handler.fetch(
      new Request("http://localhost/graphql", {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: `{"query":${JSON.stringify(query)},"variables":${variables}}`,
      }),
    );
    return { status: res.status, body: await res.json() };
  };

  it("answers a 2,400-deep list literal with a clear error (it was an internal stack overflow)", async () => {
    const { status, body } = await post(`{ ping(x: ${"[".repeat(2400)}${"]".repeat(2400)}) }`);
    expect(status).toBe(400);
    expect(body.errors).toEqual([
      {
        message:
          "the query nests lists, objects, arguments or selections more than 64 deep, the limit: flatten it",
        extensions: { code: "BAD_REQUEST" },
      },
    ]);
  });

  it("refuses variables nested 100,000 deep, and takes ordinary ones", async () => {
    const mutation = "mutation($c: [Color!]) { deleteEverything(confirm: true, colors: $c) }";
    const deep = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
    const refused = await post(mutation, `{"c":${deep}}`);
    expect(refused.body.errors[0].message).toBe(
      "the variables nest lists or objects more than 64 deep, the limit: flatten them",
    );
    const fine = await post(mutation, '{"c":["RED"]}');
    expect(fine.body.errors).toBeUndefined();
  });
});
