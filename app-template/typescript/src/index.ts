/**
 * Every exported function becomes a GraphQL field: `getQuote` → `Query.quote`, `addPerson` →
 * `Mutation.addPerson`. Use plain types: string, boolean, number (or i32, u64… from @trellis/sdk),
 * arrays, `T | null`, interfaces and string enums. Throw to return a GraphQL error.
 */
import { graph, http, type i32, models, sql } from "@trellis/sdk";

export interface Quote {
  text: string;
  author: string;
}

export interface Person {
  uid: string;
  name: string;
  age: i32 | null;
}

/** A pure function: no connection needed. */
export function sayHello(name: string): string {
  return `Hello, ${name}!`;
}

/** HTTP through the `quotes` connection (its Authorization header is added by the host). */
export function getQuote(): Quote {
  const response = http.fetch("https://api.example.com/quotes/random");
  if (!response.ok) throw new Error(`quote service answered ${response.status} ${response.statusText}`);
  return response.json<Quote>();
}

/** SQL on the `db` connection. */
export function getTableCount(): i32 {
  const rows = sql.query<{ count: number }>(
    "db",
    "select count(*)::int as count from information_schema.tables where table_schema = $1",
    ["public"],
  );
  return rows[0]?.count ?? 0;
}

/** DQL on the `graph` connection: everyone added with addPerson, by name. */
export function listPeople(): Person[] {
  const data = graph.query<{ people: Person[] }>(
    "graph",
    "{ people(func: type(Person), orderasc: name) { uid name age } }",
  );
  return data.people.map((p) => ({ uid: p.uid, name: p.name, age: p.age ?? null }));
}

/** A mutation on the `graph` connection; returns the new node's uid. */
export function addPerson(name: string, age?: i32): string {
  const result = graph.mutate("graph", {
    setJson: { uid: "_:person", "dgraph.type": "Person", name, ...(age === undefined ? {} : { age }) },
  });
  return result.uids.person ?? "";
}

/** The `text-generator` model (an OpenAI-compatible chat endpoint). */
export function generateText(prompt: string): string {
  return models.chat("text-generator", [
    { role: "system", content: "You are a helpful assistant. Answer in one short paragraph." },
    { role: "user", content: prompt },
  ]);
}
