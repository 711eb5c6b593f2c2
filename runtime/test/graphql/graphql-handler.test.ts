import { describe, expect, it } from "vitest";
import { executionIdTime, newExecutionId } from "../../src/graphql/execution-id.ts";
import type { ExecutionRecord } from "../../src/graphql/execution-record.ts";
import { createGraphQLHandler } from "../../src/graphql/graphql-handler.ts";
import { newTestInvoker, testWorld } from "./app-functions.ts";
import type { GraphQLBody } from "./graphql-response.ts";

function setup() {
  const records: ExecutionRecord[] = [];
  const invoker = newTestInvoker();
  const handler = createGraphQLHandler({ world: testWorld, invoker, onExecution: (e) => records.push(e) });
  async function post(query: string, variables?: Record<string, unknown>) {
    const res = await handler.fetch(
      new Request("http://localhost/graphql", {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify({ query, variables }),
      }),
    );
    return { status: res.status, body: (await res.json()) as GraphQLBody };
  }
  return { handler, invoker, records, post };
}

describe("createGraphQLHandler", () => {
  it("calls the function and returns data with its invocation in extensions", async () => {
    const { post, records, invoker } = setup();
    const { status, body } = await post(
      "query($id: Int64!) { person(id: $id) { id firstName favoriteColor address { city } } }",
      {
        id: "9007199254740993",
      },
    );
    expect(status).toBe(200);
    expect(body.errors).toBeUndefined();
    expect(body.data).toEqual({
      person: {
        id: "9007199254740993",
        firstName: "Ada",
        favoriteColor: "DARK_GREEN",
        address: { city: "London" },
      },
    });
    const inv = body.extensions!.invocations.person;
    expect(inv.executionId).toMatch(/^[0-9a-v]{20}$/);
    expect(inv.logs).toEqual([]);
    expect(invoker.calls).toEqual([
      { name: "get-person", args: [9007199254740993n], executionId: inv.executionId },
    ]);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      executionId: inv.executionId,
      function: "person",
      witName: "get-person",
      status: "success",
    });
    expect(Date.parse(records[0]!.startedAt)).not.toBeNaN();
  });

  it("converts inputs and outputs of mutations, tuples, enums and 64-bit integers", async () => {
    const { post } = setup();
    const { body } = await post(
      `mutation($p: PersonInput!) {
        addPerson(person: $p) { id nickname tags favoriteColor address { street } }
        deleteEverything(confirm: true, colors: [RED, BLUE])
        add
      }`,
      { p: { id: 7, firstName: "Bo", age: 3, tags: [], favoriteColor: "BLUE" } },
    );
    expect(body.errors).toBeUndefined();
    expect(body.data).toEqual({
      addPerson: { id: 7, nickname: null, tags: [], favoriteColor: "BLUE", address: null },
      deleteEverything: "9223372036854775810",
      add: null,
    });
    const q = await post(
      '{ pairUp(a: "x", b: -4) { item1 item2 } splitPair(p: { item1: "y" }) additionalPosts(count: 2) }',
    );
    expect(q.body.data).toEqual({
      pairUp: { item1: "x", item2: -4 },
      splitPair: ["y", null],
      additionalPosts: ["post 1", "post 2"],
    });
  });

  it("reports a failing function as an error with path and null data, keeping sibling results", async () => {
    const { post, records } = setup();
    const { status, body } = await post("{ failSoftly first: getter }");
    expect(status).toBe(200);
    expect(body.data).toEqual({ failSoftly: null, first: "got" });
    expect(body.errors).toEqual([
      {
        message: "the database said no",
        path: ["failSoftly"],
        locations: [{ line: 1, column: 3 }],
        extensions: { code: "FUNCTION_ERROR" },
      },
    ]);
    expect(Object.keys(body.extensions!.invocations).sort()).toEqual(["failSoftly", "first"]);
    const failed = records.find((r) => r.witName === "fail-softly")!;
    expect(failed).toMatchObject({
      status: "error",
      error: { code: "FUNCTION_ERROR", message: "the database said no" },
    });
  });

  it("reports traps and timeouts with their codes and without stack traces", async () => {
    const { post } = setup();
    const { body } = await post("{ trapNow sleepLong }");
    expect(body.data).toEqual({ trapNow: null, sleepLong: null });
    const byPath = Object.fromEntries(body.errors!.map((e) => [e.path![0], e]));
    expect(byPath.trapNow.extensions!.code).toBe("TRAP");
    expect(byPath.trapNow.message).toBe("RuntimeError: unreachable");
    expect(byPath.sleepLong.extensions!.code).toBe("TIMEOUT");
    expect(JSON.stringify(body)).not.toMatch(/wasm-function|file:\/\/|stack/);
  });

  it("hides the cause of an internal invoker failure from the client", async () => {
    const { post, records } = setup();
    const { body } = await post("{ notImplemented }");
    expect(body.data).toEqual({ notImplemented: null });
    expect(body.errors![0]!).toMatchObject({
      message: "An internal runtime error occurred while executing the function.",
      extensions: { code: "INTERNAL_ERROR" },
    });
    expect(records[0]!.error!.message).toMatch(/no exported function "not-implemented"/);
  });

  it("returns logs in extensions and error-level logs also as errors with a level", async () => {
    const { post } = setup();
    const { body } = await post('{ greeting: logStuff(name: "Bob") }');
    expect(body.data).toEqual({ greeting: "done Bob" });
    expect(body.extensions!.invocations.greeting.logs).toEqual([
      { level: "info", message: "hello Bob" },
      { level: "warning", message: "careful" },
      { level: "error", message: "something odd happened" },
    ]);
    expect(body.errors).toEqual([
      { message: "something odd happened", path: ["greeting"], extensions: { level: "error" } },
    ]);
  });

  it("rejects invalid arguments before calling the function", async () => {
    const { post, invoker } = setup();
    const { body } = await post('{ pairUp(a: "x", b: 1) { item1 } } ');
    expect(body.errors).toBeUndefined();
    const bad = await post("query($m: MeasurementsInput!) { echoMeasurements(m: $m) { small } }", {
      m: {
        count: 1,
        big: "1",
        ratio: 1,
        precise: 1,
        small: 500,
        mid: 1,
        int: 1,
        word: 1,
        flag: true,
        initial: "x",
      },
    });
    expect(bad.body.data).toEqual({ echoMeasurements: null });
    expect(bad.body.errors![0]!.message).toMatch(/argument "m"\.small: expected an integer in -128\.\.127/);
    expect(invoker.calls.map((c) => c.name)).toEqual(["pair-up"]);
  });

  it("reports a result that does not match the WIT type", async () => {
    const { post } = setup();
    const { body } = await post("{ badResult }");
    expect(body.data).toEqual({ badResult: null });
    expect(body.errors![0]!.extensions!.code).toBe("INVALID_RESULT");
  });

  it("gives every call a unique, time-sortable execution id", async () => {
    const { post, records } = setup();
    await post("{ a: getter b: getter c: getter }");
    await post("{ d: getter }");
    const ids = records.map((r) => r.executionId);
    expect(new Set(ids).size).toBe(4);
    expect(records.at(-1)!.executionId > records[0]!.executionId).toBe(true);
    const generated = Array.from({ length: 1000 }, () => newExecutionId());
    expect(new Set(generated).size).toBe(1000);
    expect([...generated].sort()).toEqual(generated);
    expect(Math.abs(executionIdTime(generated[0]!).getTime() - Date.now())).toBeLessThan(5_000);
  });

  it("refuses a request with thousands of aliases before calling anything", async () => {
    const { post, invoker } = setup();
    const aliases = Array.from({ length: 5000 }, (_, i) => `a${i}: person(id: ${i}) { id }`).join(" ");
    const { body } = await post(`{ ${aliases} }`);
    expect(body.data).toBeUndefined();
    expect(body.errors?.[0]?.message).toMatch(
      /Aliases limit of 32 exceeded, found 5000|Token limit of 5000 exceeded/,
    );
    expect(invoker.calls).toHaveLength(0);
  });

  it("bounds the function calls of one request, whatever the query's shape", async () => {
    const records: ExecutionRecord[] = [];
    const invoker = newTestInvoker();
    const handler = createGraphQLHandler({
      world: testWorld,
      invoker,
      onExecution: (e) => records.push(e),
      limits: { maxAliases: 100, maxCalls: 3 },
    });
    const query = `{ ${Array.from({ length: 5 }, (_, i) => `a${i}: person(id: ${i}) { id }`).join(" ")} }`;
    const res = await handler.fetch(
      new Request("http://localhost/graphql", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ query }),
      }),
    );
    const body = (await res.json()) as GraphQLBody;
    expect(invoker.calls).toHaveLength(3);
    expect(body.errors?.map((e) => e.extensions?.code)).toEqual(["RESOURCE_EXHAUSTED", "RESOURCE_EXHAUSTED"]);
    expect(body.errors?.[0]?.message).toBe(
      "this request calls more than 3 functions, the limit per request; split it into several requests",
    );
  });

  it("refuses documents too deep, too costly or too long", async () => {
    const { post, invoker } = setup();
    const deep = `{ person(id: 1) ${"{ address ".repeat(20)}{ city }${" }".repeat(20)} }`;
    const tooDeep = await post(deep);
    expect(tooDeep.body.errors?.[0]?.message).toMatch(/Query depth limit of 16 exceeded/);
    const long = await post(`{ person(id: 1) { id ${"firstName ".repeat(6000)} } }`);
    expect(long.body.errors?.[0]?.message).toMatch(/Token limit of 5000 exceeded/);
    expect(invoker.calls).toHaveLength(0);
  });

  it("serves any endpoint path and answers introspection", async () => {
    const { handler } = setup();
    const res = await handler.fetch(
      new Request("http://localhost/api/v2/gql?query=%7B__typename%7D", {
        headers: { accept: "application/json" },
      }),
    );
    expect(await res.json()).toEqual({ data: { __typename: "Query" } });
    expect(handler.sdl).toContain("type Query {");
  });

  it("serves only the listed functions on a scoped endpoint: the others can be neither called nor seen", async () => {
    const { handler, invoker } = setup();
    const post = async (query: string) => {
      const res = await handler.fetch(
        new Request("http://localhost/public/graphql", {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json" },
          body: JSON.stringify({ query }),
        }),
        {},
        ["person"],
      );
      return (await res.json()) as GraphQLBody;
    };
    expect((await post('{ person(id: "9007199254740993") { firstName } }')).data).toEqual({
      person: { firstName: "Ada" },
    });
    const other = await post('mutation { addPerson(input: { firstName: "x" }) { id } }');
    expect(other.data ?? null).toBeNull();
    expect(other.errors?.[0]?.message).toBe("Schema is not configured to execute mutation operation.");
    const query = await post("{ failSoftly }");
    expect(query.errors?.[0]?.message).toMatch(/^Cannot query field "failSoftly" on type "Query"/);
    const fields = await post("{ __schema { queryType { fields { name } } mutationType { name } } }");
    expect(fields.data).toEqual({
      __schema: { queryType: { fields: [{ name: "person" }] }, mutationType: null },
    });
    // Types only the other functions use are not in its schema either.
    const types = await post("{ __schema { types { name } } }");
    const names = (types.data as { __schema: { types: { name: string }[] } }).__schema.types.map(
      (t) => t.name,
    );
    expect(names).toContain("Person");
    expect(names).not.toContain("PersonInput");
    expect(invoker.calls.map((c) => c.name)).toEqual(["get-person"]);
    // The same handler still serves every function where no list applies.
    expect(handler.sdl).toMatch(/addPerson/);
  });
});
