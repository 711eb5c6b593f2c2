/** A small social graph shared by the executor tests. */
import { type EngineGraph, engineGraph, type Triple } from "./engine-graph.ts";

export const PEOPLE_SCHEMA = `
name: string @index(exact, term, trigram, fulltext) @lang .
age: int @index(int) .
friend: [uid] @reverse @count .
boss: uid @reverse .
nick: [string] .
balance: default .
dob: datetime @index(year) .
score: float @index(float) .
alive: bool .
email: string @index(hash) .
pw: password .
bio: string .
type Person {
  name
  age
  friend
  boss
}
`;

const v = (s: number, p: string, value: string | number | boolean, lang?: string): Triple =>
  lang === undefined ? { s, p, value } : { s, p, value, lang };
const e = (s: number, p: string, uid: number): Triple => ({ s, p, uid });

export const PEOPLE_TRIPLES: Triple[] = [
  v(1, "name", "Alice"),
  v(1, "name", "Alicia", "fr"),
  v(1, "age", 30),
  e(1, "friend", 2),
  e(1, "friend", 3),
  e(1, "friend", 4),
  e(1, "boss", 5),
  v(1, "nick", "Al"),
  v(1, "nick", "Ally"),
  v(1, "dob", "1990-05-01"),
  v(1, "score", 1.5),
  v(1, "alive", true),
  v(1, "email", "alice@example.com"),
  v(1, "pw", "secret123"),
  v(1, "balance", "110"),
  v(1, "dgraph.type", "Person"),
  v(2, "name", "Bob"),
  v(2, "age", 25),
  e(2, "friend", 1),
  e(2, "friend", 3),
  v(2, "dob", "1985-01-01"),
  v(2, "score", 2.25),
  v(2, "dgraph.type", "Person"),
  v(3, "name", "Carol"),
  v(3, "age", 35),
  e(3, "friend", 4),
  v(3, "dob", "2001-07-04T10:00:00Z"),
  v(3, "dgraph.type", "Person"),
  v(4, "name", "Dave"),
  v(4, "name", "David", "en"),
  v(5, "name", "Eve"),
  v(5, "age", 40),
  v(6, "name", "Mallory <x> & y"),
  v(6, "age", 25),
  v(6, "bio", "line1\nline2\u2028"),
];

/** The people graph on a real engine (closed when the test file ends, see engine-graph.ts). */
export function peopleGraph(): Promise<EngineGraph> {
  return engineGraph(PEOPLE_SCHEMA, PEOPLE_TRIPLES);
}
