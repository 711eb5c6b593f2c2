/**
 * The assertions both starter templates (TypeScript and Go) must pass once served by `trellis dev`: they
 * expose the same API, one function per connection kind, so one set of tests holds them to it.
 */
import { expect, it } from "vitest";
import type { LoopbackApis } from "./loopback-apis.ts";

export interface TemplateGraphQLBody {
  data?: Record<string, unknown> | null;
  errors?: { message: string; path?: string[]; extensions?: { code?: string } }[];
  extensions?: { invocations?: Record<string, { executionId: string }> };
}

export interface TemplateApiContext {
  gql(query: string): Promise<TemplateGraphQLBody>;
  apis: LoopbackApis;
  /** The value .env.dev.local gave the connections' API_KEY placeholders. */
  apiKey: string;
}

/**
 * Registers the connection-kind tests; `context` is read when they run (after beforeAll). The app must add
 * `addNote(text)`, writing through a MariaDB connection and counting the notes.
 */
export function itServesTheTemplateApi(context: () => TemplateApiContext): void {
  it("serves a pure function, with an execution id per call", async () => {
    const r = await context().gql('{ sayHello(name: "Trellis") }');
    expect(r.errors).toBeUndefined();
    expect(r.data).toEqual({ sayHello: "Hello, Trellis!" });
    expect(r.extensions?.invocations?.sayHello?.executionId).toMatch(/^[0-9a-v]{20}$/);
  });

  it("calls an http connection with the bearer header filled from .env.dev.local", async () => {
    const { gql, apis, apiKey } = context();
    const r = await gql("{ quote { text author } }");
    expect(r.errors).toBeUndefined();
    expect(r.data).toEqual({ quote: { text: "you asked /quotes/random", author: "Loopback" } });
    expect(apis.seenAuth).toContain(`Bearer ${apiKey}`);
  });

  it("queries PostgreSQL and MariaDB through relationaldb connections", async () => {
    const { gql } = context();
    const pg = await gql("{ tableCount }");
    expect(pg.errors).toBeUndefined();
    expect(typeof pg.data?.tableCount).toBe("number");
    const first = await gql('mutation { addNote(text: "one") }');
    const second = await gql('mutation { addNote(text: "two") }');
    expect(first.errors).toBeUndefined();
    expect(second.data?.addNote).toBe((first.data?.addNote as number) + 1);
  });

  it("mutates and queries the embedded graph database over gRPC", async () => {
    const { gql } = context();
    const added = await gql('mutation { addPerson(name: "Ada", age: 36) }');
    expect(added.errors).toBeUndefined();
    expect(added.data?.addPerson).toMatch(/^0x[0-9a-f]+$/);
    const people = await gql("{ people { uid name age } }");
    expect(people.errors).toBeUndefined();
    expect(people.data?.people).toContainEqual({ uid: added.data?.addPerson, name: "Ada", age: 36 });
  });

  it("invokes a model through an OpenAI-compatible server", async () => {
    const { gql, apis } = context();
    const r = await gql('{ generateText(prompt: "hi there") }');
    expect(r.errors).toBeUndefined();
    expect(r.data).toEqual({ generateText: "echo: hi there" });
    expect(apis.modelBodies.at(-1)?.model).toBe("gpt-4o-mini");
  });
}
