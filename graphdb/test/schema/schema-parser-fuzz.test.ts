import { describe, expect, it } from "vitest";
import { DgraphError } from "../../src/core/errors.ts";
import { parseSchema, validateAlterAgainstPredefined } from "../../src/schema/schema-parser.ts";
import { seededRandom } from "../seeded-random.ts";

const SEED_SCHEMA = `# seed
name: string @index(term, exact) @lang @upsert .
age: int @index(int) .
friend: [uid] @reverse @count .
<http://x/y>: dateTime @index(year) .
loc: geo @index(geo) .
vec: float32vector @index(hnsw(metric: "euclidean")) .
[0x1] email: string @index(hash) @unique @noconflict .
dgraph.type: [string] @index(exact) .
type Person {
  name
  age: int
  <~friend>
}
`;

const FRAGMENTS = [
  " ",
  "\n",
  "\r\n",
  "\t",
  ":",
  ".",
  "@",
  "(",
  ")",
  "[",
  "]",
  "{",
  "}",
  ",",
  "!",
  "<",
  ">",
  '"',
  "\\",
  "#",
  "0x",
  "1",
  "type",
  "index",
  "reverse",
  "lang",
  "upsert",
  "count",
  "string",
  "int",
  "uid",
  "[uid]",
  "exact",
  "term",
  "hnsw",
  "metric",
  '"cosine"',
  "dgraph.",
  "é",
  "😀",
  "\u0000",
  "\uffff",
  "\ud800",
  "~",
  "_",
  "-",
  "$",
];

function mutate(text: string, rnd: () => number): string {
  let s = text;
  const edits = 1 + Math.floor(rnd() * 6);
  for (let e = 0; e < edits; e++) {
    const at = Math.floor(rnd() * (s.length + 1));
    const op = rnd();
    if (op < 0.35) {
      s = s.slice(0, at) + FRAGMENTS[Math.floor(rnd() * FRAGMENTS.length)] + s.slice(at);
    } else if (op < 0.65) {
      s = s.slice(0, at) + s.slice(at + 1 + Math.floor(rnd() * 8));
    } else if (op < 0.85) {
      const from = Math.floor(rnd() * s.length);
      s = s.slice(0, at) + s.slice(from, from + Math.floor(rnd() * 20)) + s.slice(at);
    } else {
      s = s.slice(0, at) + String.fromCharCode(Math.floor(rnd() * 0x3000)) + s.slice(at + 1);
    }
  }
  return s;
}

describe("parseSchema under fuzzing", () => {
  it("throws nothing but DgraphErrors on thousands of mutated schemas", () => {
    const rnd = seededRandom(20240611);
    let accepted = 0;
    let rejected = 0;
    for (let i = 0; i < 5000; i++) {
      const text = mutate(SEED_SCHEMA, rnd);
      try {
        const parsed = parseSchema(text);
        validateAlterAgainstPredefined(parsed);
        accepted++;
      } catch (e) {
        if (!(e instanceof DgraphError))
          throw new Error(`non-Dgraph error for ${JSON.stringify(text)}: ${String(e)}`);
        expect(e.code).toBe("Error");
        expect(e.message.length).toBeGreaterThan(0);
        // "Invalid schema: …" is parseSchema's safety net for internal failures: it must never be needed
        expect(e.message.startsWith("Invalid schema: "), e.message).toBe(false);
        rejected++;
      }
    }
    expect(accepted).toBeGreaterThan(0);
    expect(rejected).toBeGreaterThan(0);
  });

  it("throws nothing but DgraphErrors on random byte soup", () => {
    const rnd = seededRandom(99);
    for (let i = 0; i < 2000; i++) {
      let text = "";
      const len = Math.floor(rnd() * 60);
      for (let k = 0; k < len; k++) text += FRAGMENTS[Math.floor(rnd() * FRAGMENTS.length)];
      try {
        parseSchema(text);
      } catch (e) {
        if (!(e instanceof DgraphError))
          throw new Error(`non-Dgraph error for ${JSON.stringify(text)}: ${String(e)}`);
        expect(e.message.startsWith("Invalid schema: "), e.message).toBe(false);
      }
    }
  });
});
