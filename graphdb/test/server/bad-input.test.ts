/**
 * Robustness acceptance: thousands of generated malformed DQL, RDF, JSON and schema bodies each get an
 * error envelope (or, when a mutated body happens to still be valid, a success); the server never
 * crashes; committed data is unchanged.
 *
 * Bodies are derived from valid examples by a seeded PRNG (deterministic): truncation, insertion,
 * deletion and swapping of characters (braces, quotes, backslashes, unicode, NUL), grammar tokens, huge
 * numbers, deep nesting, repeated chunks, invalid UTF-8 bytes, wrong content types and encodings. The
 * real server runs in-process over the real engine, so an unhandled rejection or uncaught exception is
 * seen by this test's process listeners.
 *
 * Keeping "data unchanged" meaningful: mutations of the existing predicates are sent without commitNow
 * and aborted when they succeed; the commitNow mutations and all /alter bodies are confined to a `fz_`
 * predicate namespace (bodies that could reach the known data are counted and skipped). Before and after,
 * a dump of every known predicate (values, langs, facets, reverse edges, index lookups and schema) must
 * be byte-identical, and predicates created since must hold no data outside the `fz_` sandbox.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGraphDB, type GraphDBHandle } from "../../src/index.ts";
import { operationFromBody } from "../../src/server/alter-operation.ts";
import { createHttpServer, type HttpServer } from "../../src/server/http-server.ts";
import { SeededRandom } from "../seeded-random.ts";
import { post, type RawResponse, request } from "./http-client.ts";

/** Bodies per kind (DQL, JSON query, RDF, JSON mutation, schema text, protojson). */
const PER_KIND = 1000;
/** Extra commitNow mutation bodies per format, confined to the fz_ namespace. */
const COMMIT_NOW_PER_FORMAT = 150;
const CONCURRENCY = 8;
const SEED = 0x5eed_f00d;

// ------------------------------------------------------------------------------------------------
// Known data

const KNOWN_SCHEMA = `
k.name: string @index(exact, term, trigram) .
k.bio: string @lang @index(fulltext) .
k.email: string @index(exact) @upsert .
k.age: int @index(int) .
k.score: float @index(float) .
k.alive: bool @index(bool) .
k.born: datetime @index(year) .
k.loc: geo @index(geo) .
k.friend: [uid] @reverse @count .
k.tags: [string] @index(term) .
type KPerson {
  k.name
  k.age
  k.friend
}
`;
const KNOWN_PREDICATES = [
  "k.name",
  "k.bio",
  "k.email",
  "k.age",
  "k.score",
  "k.alive",
  "k.born",
  "k.loc",
  "k.friend",
  "k.tags",
];
const FIRST_NAMES = ["Alice", "Bob", "Carol", "Dave", "Eve", "Frank", "Grace", "Heidi", "Ivan", "Judy"];
const PEOPLE = 30;

function knownPeople(): unknown[] {
  return Array.from({ length: PEOPLE }, (_, i) => ({
    uid: `_:p${i}`,
    "dgraph.type": "KPerson",
    "k.name": `${FIRST_NAMES[i % FIRST_NAMES.length]} ${i}`,
    ...(i % 2 === 0 ? { "k.bio": `Plain bio ${i}` } : {}),
    "k.bio@en": `Likes graphs, number ${i}`,
    "k.bio@fr": `Aime les graphes, numéro ${i}`,
    "k.email": `p${i}@example.com`,
    "k.age": 18 + ((i * 7) % 50),
    "k.score": i * 1.25,
    "k.alive": i % 3 !== 0,
    "k.born": `19${70 + (i % 30)}-0${1 + (i % 9)}-1${i % 9}T10:00:00Z`,
    "k.loc": { type: "Point", coordinates: [i, i / 2] },
    "k.tags": [`t${i % 5}`, "all"],
    "k.friend": [
      {
        uid: `_:p${(i + 1) % PEOPLE}`,
        "k.friend|weight": (i % 4) / 4,
        "k.friend|since": "2020-01-01T00:00:00Z",
      },
      { uid: `_:p${(i * 3 + 2) % PEOPLE}` },
    ],
  }));
}

/** Every known predicate in full, plus index lookups and the schema: the "committed data" fingerprint. */
const DUMP_QUERY = `{
  d_name(func: has(k.name)) { uid k.name }
  d_bio(func: has(k.bio)) { uid k.bio@en k.bio@fr k.bio }
  d_bio_en(func: has(k.bio@en)) { uid k.bio@en k.bio@fr k.bio }
  d_bio_fr(func: has(k.bio@fr)) { uid k.bio@fr }
  d_email(func: has(k.email)) { uid k.email }
  d_age(func: has(k.age)) { uid k.age }
  d_score(func: has(k.score)) { uid k.score }
  d_alive(func: has(k.alive)) { uid k.alive }
  d_born(func: has(k.born)) { uid k.born }
  d_loc(func: has(k.loc)) { uid k.loc }
  d_tags(func: has(k.tags)) { uid k.tags }
  d_type(func: has(dgraph.type)) { uid dgraph.type }
  d_friend(func: has(k.friend)) { uid c: count(k.friend) k.friend { uid } }
  d_rev(func: has(k.friend)) { uid ~k.friend { uid } }
  i_terms(func: anyofterms(k.name, "${FIRST_NAMES.join(" ")}"), orderasc: k.name) { uid }
  i_exact(func: eq(k.email, ${JSON.stringify(Array.from({ length: PEOPLE }, (_, i) => `p${i}@example.com`))})) { uid }
  i_age(func: ge(k.age, 0), orderdesc: k.age) { uid }
  i_score(func: lt(k.score, 1000.0), orderasc: k.score) { uid }
  i_alive(func: eq(k.alive, true)) { uid }
  i_born(func: ge(k.born, "1900")) { uid }
  i_tags(func: anyofterms(k.tags, "t0 t1 t2 t3 t4 all")) { uid }
  i_text(func: anyoftext(k.bio@en, "graphs")) { uid }
  i_rx1(func: regexp(k.name, /lic/)) { uid }
  i_rx2(func: regexp(k.name, /^Eve [0-9]+$/)) { uid }
  i_count(func: ge(count(k.friend), 1)) { uid }
  i_kind(func: type(KPerson)) { uid }
}`;
const SCHEMA_DUMP = `schema(pred: [${KNOWN_PREDICATES.join(", ")}]) { type index tokenizer reverse count list upsert lang }`;

// ------------------------------------------------------------------------------------------------
// Valid seeds

const DQL_SEEDS = [
  '{ q(func: eq(k.name, "Alice 0")) { uid k.name k.age k.friend { k.name } } }',
  "{ q(func: has(k.name), orderasc: k.name, first: 5, offset: 2) { k.name k.email } }",
  "query q($a: string, $n: int = 3) { q(func: eq(k.name, $a), first: $n) { k.name } }",
  '{ q(func: anyofterms(k.name, "Alice Bob")) @filter(gt(k.age, 20) AND NOT eq(k.alive, false)) { k.name count(k.friend) } }',
  "{ var(func: has(k.age)) { a as k.age } q() { total: sum(val(a)) avg: avg(val(a)) } }",
  "{ q(func: has(k.friend)) @cascade { k.name ~k.friend { k.name } } }",
  "{ q(func: type(KPerson)) @normalize { n: k.name k.friend { f: k.name } } }",
  "{ q(func: between(k.age, 20, 40)) { k.name k.bio@en:fr s as k.score d: math(s * 2 + 1) } }",
  "{ q(func: regexp(k.name, /^Ali.*$/i)) { k.name } }",
  '{ q(func: anyoftext(k.bio@en, "graphs")) { k.bio@en } }',
  "{ q(func: ge(count(k.friend), 2)) { k.name k.friend { k.name } } }",
  "{ q(func: uid(0x1)) { expand(_all_) { expand(_all_) } } }",
  '{ q(func: allofterms(k.tags, "all t1")) { uid } }',
  "schema(pred: [k.name, k.age]) { type index tokenizer }",
  '{ f as var(func: eq(k.email, "p1@example.com")) q(func: uid(f)) { k.name } }',
  '{ q(func: eq(k.born, "1971-02-11T10:00:00Z")) { k.born } }',
  "{ q(func: has(k.name)) @filter(uid_in(k.friend, 0x2)) { uid } }",
  '{ q(func: eq(k.name, "Alice 0")) { ...F } } fragment F { k.name k.age }',
  "{ q(func: has(k.score), orderdesc: k.score) @filter(lt(k.score, 10.5) OR has(k.loc)) { k.score } }",
];

/** Valid DQL the engine refuses ("not supported yet"): still good material for the parser. */
const DQL_PARSE_ONLY_SEEDS = [
  "{ q(func: uid(0x1, 0x2)) @recurse(depth: 3, loop: false) { k.name k.friend } }",
  "{ q(func: near(k.loc, [1.0, 2.0], 100000)) { k.name } }",
  "{ q(func: ge(count(k.friend), 2)) { k.name k.friend @facets(weight) { k.name } } }",
  "{ q(func: has(k.tags)) @groupby(k.age) { count(uid) } }",
  "{ q(func: uid(0x1)) { k.friend @facets(orderdesc: weight) { k.name } } }",
  "{ path as shortest(from: 0x1, to: 0x5) { k.friend } q(func: uid(path)) { k.name } }",
];
const DQL_FUZZ_SEEDS = [...DQL_SEEDS, ...DQL_PARSE_ONLY_SEEDS];

const QUERY_VARS = { $a: "Alice 0", $n: "2" };

const RDF_SEEDS = [
  '{ set {\n _:x <k.name> "Zed" .\n _:x <k.age> "33"^^<xs:int> .\n _:x <k.friend> <0x1> (since=2021-01-01T00:00:00, weight=0.25) .\n _:x <dgraph.type> "KPerson" .\n} }',
  "{ delete {\n <0x1> <k.name> * .\n <0x2> <k.friend> <0x3> .\n} }",
  '{ set {\n <0x2> <k.bio> "bonjour"@fr .\n <0x2> <k.score> "1.5e3"^^<xs:float> .\n <0x3> <k.loc> "{\\"type\\":\\"Point\\",\\"coordinates\\":[1.5,2.5]}"^^<geo:geojson> .\n} delete {\n <0x4> * * .\n} }',
  'upsert {\n query {\n q(func: eq(k.email, "p1@example.com")) { v as uid n as k.name }\n }\n mutation @if(eq(len(v), 1)) {\n set {\n uid(v) <k.name> val(n) .\n uid(v) <k.alive> "false" .\n }\n }\n mutation @if(NOT eq(len(v), 1)) {\n delete {\n uid(v) <k.email> * .\n }\n }\n}',
  '{ set {\n <0x5> <k.tags> "x" .\n <0x5> <k.born> "2001-02-03"^^<xs:dateTime> .\n _:b <k.email> "new@example.com" .\n} }',
  '{ set {\n <0x1> <k.name> "Al\\"ice\\u00e9\\t" .\n <0x6> <k.alive> "true"^^<xs:boolean> .\n} }',
];

const JSON_MUTATION_SEEDS = [
  '{"set": [{"uid": "_:x", "k.name": "Zed", "k.age": 33, "k.friend": [{"uid": "0x1", "k.friend|weight": 0.3}], "dgraph.type": "KPerson"}]}',
  '{"delete": {"uid": "0x1", "k.name": null, "k.friend": [{"uid": "0x2"}]}}',
  '{"query": "{ q(func: eq(k.email, \\"p2@example.com\\")) { v as uid } }", "cond": "@if(gt(len(v), 0))", "set": {"uid": "uid(v)", "k.bio@en": "updated", "k.loc": {"type": "Point", "coordinates": [3, 4]}}}',
  '{"mutations": [{"set": [{"uid": "0x3", "k.tags": ["a", "b"]}]}, {"delete": [{"uid": "0x4"}]}]}',
  '{"set": {"k.name": "Nested", "k.friend": {"k.name": "Inner", "k.friend": [{"k.name": "Deeper", "k.score": 1e3, "k.alive": true}]}}}',
  '{"set": [{"uid": "0x6", "k.born": "2020-01-01T00:00:00Z", "k.score": -0.5}], "delete": [{"uid": "0x7", "k.age": null}]}',
];

const SCHEMA_SEEDS = [
  "fz_a: string @index(exact, term) @upsert .",
  "fz_b: [uid] @reverse @count .",
  "fz_c: int @index(int) .\nfz_d: float @index(float) .\nfz_e: datetime @index(hour) .",
  "fz_f: geo @index(geo) .\nfz_g: bool @index(bool) .\nfz_h: password .",
  "fz_i: string @lang @index(fulltext, trigram) .",
  "type FzT {\n  fz_a\n  fz_b\n}",
  "<fz_j>: [string] @index(hash) @noconflict .",
  'fz_k: float32vector @index(hnsw(metric: "euclidean", exponent: "4")) .',
  "fz_l: uid .\ntype FzU {\n  fz_l\n  fz_c\n}",
];

const OPERATION_SEEDS = [
  '{"schema": "fz_m: string @index(exact) ."}',
  '{"drop_attr": "fz_a"}',
  '{"dropAttr": "fz_b"}',
  '{"drop_op": "ATTR", "drop_value": "fz_c"}',
  '{"drop_op": "TYPE", "drop_value": "FzT"}',
  '{"dropOp": 4, "dropValue": "FzU"}',
  '{"schema": "fz_n: int .", "run_in_background": true}',
  '{"schema": "type FzV {\\n fz_m\\n}", "runInBackground": false}',
];

/** commitNow mutations: blank nodes and fz_ predicates only. */
const SANDBOX_RDF_SEEDS = [
  '{ set {\n _:s <fz_p> "hello" .\n _:s <fz_q> "12"^^<xs:int> .\n _:s <fz_r> _:t .\n _:t <fz_p> "there" .\n} }',
  '{ set {\n _:a <fz_p> "x" (w=1, s="y") .\n _:a <fz_s> "2.5"^^<xs:float> .\n} }',
];
const SANDBOX_JSON_SEEDS = [
  '{"set": [{"fz_p": "hello", "fz_q": 12, "fz_r": {"fz_p": "inner"}}, {"fz_p": "x", "fz_s": [1, 2, 3]}]}',
  '{"set": {"fz_p": "a\\u00e9\\n", "fz_t": true, "fz_u": {"fz_p": "b", "fz_u": {"fz_p": "c"}}}}',
];

/** A body that could touch the known data (or ACL-ish/predefined names) is never sent committed. */
const TOUCHES_KNOWN = /k\.|0x|\*|delete|uid|dgraph|upsert|val\(|<\s*\d|KPerson/i;

// ------------------------------------------------------------------------------------------------
// Mutators

const CHARS = [
  "{",
  "}",
  "[",
  "]",
  "(",
  ")",
  "<",
  ">",
  '"',
  "'",
  "\\",
  ":",
  ";",
  ",",
  ".",
  "@",
  "*",
  "#",
  "$",
  "_",
  " ",
  "\n",
  "\t",
  "\r",
  "\0",
  "\u0001",
  "\u007f",
  "é",
  "😀",
  "\u2028",
  "\ufeff",
  "\uffff",
  "\ud800",
  "\\u",
  "\\u00",
  "\\x",
  "%",
  "^",
  "~",
  "|",
  "&",
  "=",
  "!",
  "/",
  "`",
];
const TOKENS = [
  "func:",
  "uid(",
  "has(",
  "eq(",
  "@filter(",
  "@facets",
  "@recurse",
  "@cascade",
  "@normalize",
  "@if(",
  "var(",
  "val(",
  "count(",
  "expand(_all_)",
  "as",
  "AND",
  "OR",
  "NOT",
  "set {",
  "delete {",
  "upsert {",
  "query {",
  "mutation {",
  "schema {",
  "_:",
  "<",
  "> ",
  " .",
  "^^<xs:int>",
  "^^<xs:dateTime>",
  "@en",
  '"',
  "*",
  "~",
  "$a",
  "first:",
  "orderasc:",
  "@index(",
  "@lang",
  "[uid]",
  "type ",
  "fragment ",
  "...",
  "math(",
  "shortest(",
  "regexp(",
  "/",
  "true",
  "null",
  "0x",
  "{",
  "}",
];
const JSON_TOKENS = [
  '"set":',
  '"delete":',
  '"uid":',
  '"query":',
  '"cond":',
  '"mutations":',
  '"variables":',
  '"schema":',
  '"drop_op":',
  '"drop_all":false',
  '"dropValue":',
  "null",
  "true",
  "-0",
  "1e999",
  "[",
  "]",
  "{",
  "}",
  ",",
  ":",
  '"',
  '\\"',
  "\\u0000",
  "\\ud800",
  '"_:x"',
  '"0xZZ"',
  '"k.friend|w":',
  '"@en"',
];
const HUGE_NUMBERS = [
  "99999999999999999999999999999999",
  "18446744073709551616",
  "-9223372036854775809",
  "1e999",
  "-1e-999",
  "0x" + "f".repeat(40),
  "NaN",
  "Infinity",
  "-0",
  "1.7976931348623157e309",
  "0.0000000000000000000001",
  "4294967296",
  "-1",
];
const INVALID_UTF8 = [
  [0xff],
  [0xfe],
  [0xc0, 0x80],
  [0xed, 0xa0, 0x80],
  [0xe2, 0x82],
  [0x80],
  [0xf8, 0x88, 0x80, 0x80, 0x80],
  [0xf4, 0x90, 0x80, 0x80],
  [0x00],
];

type Mutator = (s: string, rng: SeededRandom, tokens: readonly string[]) => string;

const at = (s: string, rng: SeededRandom) => rng.int(s.length + 1);

const MUTATORS: [weight: number, Mutator][] = [
  [3, (s, rng) => s.slice(0, rng.int(s.length))],
  [
    4,
    (s, rng) => {
      const i = at(s, rng);
      return s.slice(0, i) + s.slice(i + rng.range(1, 8));
    },
  ],
  [
    6,
    (s, rng) => {
      const i = at(s, rng);
      return s.slice(0, i) + rng.pick(CHARS) + s.slice(i);
    },
  ],
  [
    5,
    (s, rng, tokens) => {
      const i = at(s, rng);
      return s.slice(0, i) + rng.pick(tokens) + s.slice(i);
    },
  ],
  [
    3,
    (s, rng) => {
      if (s.length < 2) return s;
      const chars = [...s];
      const i = rng.int(chars.length);
      const j = rng.int(chars.length);
      [chars[i], chars[j]] = [chars[j], chars[i]];
      return chars.join("");
    },
  ],
  [
    2,
    (s, rng) => {
      const i = rng.int(s.length);
      const chunk = s.slice(i, i + rng.range(1, 40));
      const k = at(s, rng);
      return s.slice(0, k) + chunk + s.slice(k);
    },
  ],
  [
    3,
    (s, rng) => {
      const numbers = [...s.matchAll(/\d+(\.\d+)?/g)];
      if (numbers.length === 0) {
        const i = at(s, rng);
        return s.slice(0, i) + rng.pick(HUGE_NUMBERS) + s.slice(i);
      }
      const m = rng.pick(numbers);
      const start = m.index ?? 0;
      return s.slice(0, start) + rng.pick(HUGE_NUMBERS) + s.slice(start + m[0].length);
    },
  ],
  [
    1,
    (s, rng) => {
      const open = rng.pick([
        "{",
        "[",
        "(",
        "{ q(func: uid(1)) { ",
        '{"a":',
        "[[",
        "((",
        "@filter(",
        "k.friend { ",
      ]);
      // At most ~100 KB per insertion: long enough for deep nesting, short enough that the known quadratic
      // lexing of non-ASCII lines (see below) cannot stall the run.
      const depth = Math.min(rng.pick([64, 1000, 5000, 20000]), Math.floor(100_000 / open.length));
      const i = at(s, rng);
      const close = rng.chance(0.5)
        ? ""
        : open.replace(/[{[(]/g, (c) => ({ "{": "}", "[": "]", "(": ")" })[c] ?? c);
      return s.slice(0, i) + open.repeat(depth) + close.repeat(depth) + s.slice(i);
    },
  ],
  [
    1,
    (s, rng) => {
      const i = rng.int(s.length);
      const chunk = s.slice(i, i + rng.range(1, 12)) || "x";
      const k = at(s, rng);
      return s.slice(0, k) + chunk.repeat(rng.range(100, 4000)) + s.slice(k);
    },
  ],
  [
    2,
    (s, rng) => {
      const strings = [...s.matchAll(/"(?:[^"\\]|\\.)*"/g)];
      if (strings.length === 0) return s;
      const m = rng.pick(strings);
      const start = m.index ?? 0;
      const junk = rng.pick([
        '"\\',
        '"\\u12"',
        '"\\ud800"',
        '"\u0000"',
        '"\n"',
        `"${"\\".repeat(7)}"`,
        '""""',
        '"\'"',
      ]);
      return s.slice(0, start) + junk + s.slice(start + m[0].length);
    },
  ],
];
const TOTAL_WEIGHT = MUTATORS.reduce((n, [w]) => n + w, 0);

function mutateText(seed: string, rng: SeededRandom, tokens: readonly string[]): string {
  let s = seed;
  const ops = rng.range(1, 4);
  for (let n = 0; n < ops; n++) {
    let pick = rng.int(TOTAL_WEIGHT);
    for (const [w, m] of MUTATORS) {
      if (pick < w) {
        s = m(s, rng, tokens);
        break;
      }
      pick -= w;
    }
  }
  return s;
}

/** Byte-level damage: invalid UTF-8 sequences, NULs, a cut in the middle of a multi-byte character. */
function mutateBytes(text: string, rng: SeededRandom): Buffer {
  let bytes = Buffer.from(text, "utf8");
  if (!rng.chance(0.2)) return bytes;
  const ops = rng.range(1, 3);
  for (let n = 0; n < ops; n++) {
    const i = rng.int(bytes.length + 1);
    if (rng.chance(0.8)) {
      bytes = Buffer.concat([bytes.subarray(0, i), Buffer.from(rng.pick(INVALID_UTF8)), bytes.subarray(i)]);
    } else {
      bytes = bytes.subarray(0, i);
    }
  }
  return bytes;
}

/** Structural mutation of a parsed JSON document: values and keys replaced by odd ones. */
const ODD_VALUES: unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  1e308,
  -1e-308,
  2 ** 64,
  "",
  "0x",
  "0xZZ",
  "_:",
  "uid(",
  "uid(v)",
  "val(x)",
  "\u0000",
  "\ud800",
  "😀".repeat(50),
  "a".repeat(70_000),
  [],
  [[[[]]]],
  {},
  { uid: 5 },
  [null, 1, "x"],
  { "": "" },
  { "k.friend|": 1 },
  { type: "Point", coordinates: ["a"] },
  { type: "Polygon", coordinates: [[[1]]] },
];
const ODD_KEYS = [
  "",
  "uid",
  "set",
  "delete",
  "cond",
  "query",
  "variables",
  "mutations",
  "k.name@",
  "k.name@en@fr",
  "@en",
  "k.friend|",
  "|w",
  "~k.friend",
  "<k.name>",
  "k name",
  "dgraph.type",
  "$a",
  "$",
  "schema",
  "drop_op",
  "dropValue",
  "run_in_background",
  "expand(_all_)",
  "k.age\u0000",
];

function mutateJsonValue(value: unknown, rng: SeededRandom, depth = 0): unknown {
  if (rng.chance(0.15) || depth > 6) return rng.pick(ODD_VALUES);
  if (Array.isArray(value)) {
    const out = value.map((v) => mutateJsonValue(v, rng, depth + 1));
    if (rng.chance(0.2)) out.push(rng.pick(ODD_VALUES));
    return out;
  }
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (rng.chance(0.1)) continue;
      out[rng.chance(0.1) ? rng.pick(ODD_KEYS) : k] = mutateJsonValue(v, rng, depth + 1);
    }
    if (rng.chance(0.2)) out[rng.pick(ODD_KEYS)] = rng.pick(ODD_VALUES);
    return out;
  }
  if (typeof value === "string" && rng.chance(0.5)) return mutateText(value, rng, TOKENS);
  if (typeof value === "number" && rng.chance(0.5)) return rng.pick([-value, value * 1e300, 0.5, 2 ** 63]);
  return value;
}

// ------------------------------------------------------------------------------------------------
// Cases

type Route = "/query" | "/mutate" | "/alter";
type Kind =
  | "dql"
  | "json-query"
  | "rdf"
  | "json-mutation"
  | "schema"
  | "protojson"
  | "rdf-commit"
  | "json-commit";

interface Case {
  kind: Kind;
  route: Route;
  params: string;
  contentType?: string;
  contentEncoding?: string;
  body: Buffer;
  /** Send committed (only sandboxed bodies). */
  commitNow: boolean;
}

/** Wrong but well-formed Content-Types (and bad parameters, which the route parses itself). */
const WRONG_TYPES = [
  undefined,
  "",
  "text/plain",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=x",
  "application/json; charset=latin1",
  "application/dql; charset=utf-16",
  'application/json; charset="utf-8',
  "application/rdf; x",
  "application/graphql",
  "application/json+dql",
  "APPLICATION/JSON",
  "application/dql ; charset=UTF-8",
  "application/json; =x",
];
/** Content-Types that are not media types at all (see the known-bug test below). */
const MALFORMED_TYPES = [";", "application/", "/json", "\u00e9/\u00e9", "a b/c"];
const QUERY_PARAMS = [
  "",
  "",
  "",
  "",
  "?debug=true",
  "?respFormat=rdf",
  "?ro=true",
  "?be=true",
  "?timeout=1ms",
  "?timeout=1e9h",
  "?timeout=-1s",
  "?startTs=1",
  "?startTs=abc",
  "?startTs=18446744073709551616",
  "?startTs=999999999",
  "?respFormat=json&debug=1",
  "?debug=yes",
  "?respFormat=%00",
  "?hash=zz",
];

function generateCases(): { cases: Case[]; skipped: number } {
  const rng = new SeededRandom(SEED);
  const cases: Case[] = [];
  let skipped = 0;

  const finish = (c: Omit<Case, "body">, text: string, wrongTypeChance = 0.08) => {
    const body = mutateBytes(text, rng);
    const out: Case = { ...c, body };
    if (rng.chance(wrongTypeChance)) out.contentType = rng.pick(WRONG_TYPES);
    if (rng.chance(0.03)) {
      out.contentEncoding = rng.pick(["gzip", "gzip", "deflate", "identity, gzip", "GZIP"]);
      if (out.contentEncoding === "gzip" && rng.chance(0.5)) {
        const gz = gzipSync(body);
        out.body = gz.subarray(0, rng.range(0, gz.length));
      }
    }
    cases.push(out);
  };

  for (let i = 0; i < PER_KIND; i++) {
    const dqlType = rng.chance(0.2) ? "application/graphql+-" : "application/dql";
    finish(
      {
        kind: "dql",
        route: "/query",
        params: rng.pick(QUERY_PARAMS),
        contentType: dqlType,
        commitNow: false,
      },
      mutateText(rng.pick(DQL_FUZZ_SEEDS), rng, TOKENS),
    );

    // JSON query bodies: half with broken JSON, half well-formed JSON carrying a broken query or odd vars.
    const query = rng.pick(DQL_FUZZ_SEEDS);
    const jsonQuery = rng.chance(0.5)
      ? mutateText(JSON.stringify({ query, variables: QUERY_VARS }), rng, JSON_TOKENS)
      : JSON.stringify(
          mutateJsonValue({ query: mutateText(query, rng, TOKENS), variables: QUERY_VARS }, rng),
        );
    finish(
      {
        kind: "json-query",
        route: "/query",
        params: rng.pick(QUERY_PARAMS),
        contentType: "application/json",
        commitNow: false,
      },
      jsonQuery,
    );

    finish(
      { kind: "rdf", route: "/mutate", params: "", contentType: "application/rdf", commitNow: false },
      mutateText(rng.pick(RDF_SEEDS), rng, TOKENS),
    );

    const mu = rng.pick(JSON_MUTATION_SEEDS);
    const jsonMutation = rng.chance(0.5)
      ? mutateText(mu, rng, JSON_TOKENS)
      : JSON.stringify(mutateJsonValue(JSON.parse(mu), rng));
    finish(
      {
        kind: "json-mutation",
        route: "/mutate",
        params: "",
        contentType: "application/json",
        commitNow: false,
      },
      jsonMutation,
    );

    // /alter never changes the known predicates: bodies that could are skipped (and counted).
    const alterBodies: [Kind, string][] = [
      ["schema", mutateText(rng.pick(SCHEMA_SEEDS), rng, TOKENS)],
      [
        "protojson",
        rng.chance(0.5)
          ? mutateText(rng.pick(OPERATION_SEEDS), rng, JSON_TOKENS)
          : JSON.stringify(mutateJsonValue(JSON.parse(rng.pick(OPERATION_SEEDS)), rng)),
      ],
    ];
    for (const [kind, text] of alterBodies) {
      const before = cases.length;
      finish(
        { kind, route: "/alter", params: rng.chance(0.1) ? "?runInBackground=true" : "", commitNow: false },
        text,
        0,
      );
      const sent = cases[before];
      if (!alterIsSandboxed(sent.body.toString("utf8"))) {
        cases.pop();
        skipped++;
      }
    }
  }

  for (let i = 0; i < COMMIT_NOW_PER_FORMAT; i++) {
    for (const [kind, seeds, contentType, tokens] of [
      ["rdf-commit", SANDBOX_RDF_SEEDS, "application/rdf", TOKENS],
      ["json-commit", SANDBOX_JSON_SEEDS, "application/json", JSON_TOKENS],
    ] as const) {
      const text = mutateText(rng.pick(seeds), rng, tokens);
      const before = cases.length;
      finish({ kind, route: "/mutate", params: "?commitNow=true", contentType, commitNow: true }, text);
      if (TOUCHES_KNOWN.test(cases[before].body.toString("latin1"))) {
        cases.pop();
        skipped++;
      }
    }
  }

  // Interleave the kinds, so alters run among queries and mutations.
  for (let i = cases.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [cases[i], cases[j]] = [cases[j], cases[i]];
  }
  return { cases, skipped };
}

/** True when an /alter body, however the server reads it, can only touch the fz_ sandbox. */
function alterIsSandboxed(text: string): boolean {
  if (/k\.|dgraph|KPerson/i.test(text)) return false;
  let op: ReturnType<typeof operationFromBody>;
  try {
    op = operationFromBody(text);
  } catch {
    return true;
  }
  if (op.dropAll || op.dropOp === "ALL" || op.dropOp === "DATA") return false;
  const dropped = op.dropAttr || op.dropValue;
  return dropped === undefined || dropped === "" || /^fz/i.test(dropped);
}

// ------------------------------------------------------------------------------------------------

interface Outcome {
  ok: boolean;
  /** Error envelope code, when an error. */
  code?: string;
  message?: string;
  startTs?: number;
  /** Predicates a successful mutation touched (`txn.preds` without the "1-0-" prefix). */
  preds?: string[];
}

interface Failure {
  kind: Kind;
  contentType?: string;
  contentEncoding?: string;
  why: string;
  status: number;
  response: string;
  body: string;
}

/** The known deep-nesting bug (see the dedicated test): tallied apart from other internal failures. */
const STACK_OVERFLOW = /Maximum call stack size exceeded/;

/** Internal JavaScript failures surfacing as a message: they mean an unguarded path, not a Dgraph error. */
const INTERNAL =
  /TypeError|RangeError|ReferenceError|SyntaxError: Unexpected|Cannot read propert|is not a function|is not iterable|Maximum call stack|Invalid array length|Invalid string length|undefined|\[object /;

function classify(route: Route, res: RawResponse): Outcome | string {
  if (res.status !== 200) return `HTTP ${res.status}`;
  if (res.headers["content-type"] !== "application/json")
    return `content-type ${res.headers["content-type"]}`;
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(res.text);
  } catch {
    return "body is not JSON";
  }
  if (json === null || typeof json !== "object" || Array.isArray(json)) return "body is not an object";
  if ("errors" in json) {
    const errors = json.errors as { message?: unknown; extensions?: { code?: unknown } }[];
    if (!Array.isArray(errors) || errors.length === 0) return "errors is not a non-empty array";
    const [first] = errors;
    if (typeof first?.message !== "string") return "errors[0].message is not a string";
    if (typeof first.extensions?.code !== "string") return "errors[0].extensions.code is not a string";
    if ("data" in json && json.data !== null) return "error envelope with non-null data";
    return { ok: false, code: first.extensions.code, message: first.message };
  }
  const data = json.data as Record<string, unknown> | string | undefined;
  const txn = (json.extensions as { txn?: { start_ts?: unknown; preds?: unknown } } | undefined)?.txn;
  switch (route) {
    case "/query":
      if (data === null || (typeof data !== "object" && typeof data !== "string"))
        return "query success without data";
      if (typeof txn?.start_ts !== "number") return "query success without txn.start_ts";
      return { ok: true };
    case "/mutate":
      if (typeof data !== "object" || data?.code !== "Success") return "mutate success without data.code";
      if (typeof txn?.start_ts !== "number") return "mutate success without txn.start_ts";
      if (txn.preds !== undefined && !Array.isArray(txn.preds)) return "mutate txn.preds is not an array";
      return {
        ok: true,
        startTs: txn.start_ts,
        preds: ((txn.preds as string[] | undefined) ?? []).map((p) => p.replace(/^1-0-/, "")),
      };
    case "/alter":
      if (res.text !== '{"data":{"code":"Success","message":"Done"}}') return "unexpected alter body";
      return { ok: true };
  }
}

describe("bad input: malformed bodies never break the server or the data", () => {
  let dir: string;
  let db: GraphDBHandle;
  let server: HttpServer;
  let base: string;
  const processErrors: unknown[] = [];
  const onProcessError = (e: unknown) => processErrors.push(e);

  const dump = async (): Promise<string> => {
    const data = await post(base, "/query", "application/dql", DUMP_QUERY);
    const schema = await post(base, "/query", "application/dql", SCHEMA_DUMP);
    const d = JSON.parse(data.text) as { data: unknown; errors?: unknown };
    const s = JSON.parse(schema.text) as { data: unknown; errors?: unknown };
    expect(d.errors).toBeUndefined();
    expect(s.errors).toBeUndefined();
    return `${JSON.stringify(d.data)}\n${JSON.stringify(s.data)}`;
  };

  beforeAll(async () => {
    process.on("unhandledRejection", onProcessError);
    process.on("uncaughtException", onProcessError);
    dir = mkdtempSync(join(tmpdir(), "trellis-bad-input-"));
    db = createGraphDB({ dir });
    server = createHttpServer(db.engine, {});
    const { port } = await server.listen(0, "127.0.0.1");
    base = `http://127.0.0.1:${port}`;
    expect((await post(base, "/alter", undefined, KNOWN_SCHEMA)).json()).toEqual({
      data: { code: "Success", message: "Done" },
    });
    const seeded = await post(
      base,
      "/mutate?commitNow=true",
      "application/json",
      JSON.stringify({ set: knownPeople() }),
    );
    expect(Object.keys((seeded.json() as { data: { uids: object } }).data.uids)).toHaveLength(PEOPLE);
  });

  afterAll(async () => {
    process.off("unhandledRejection", onProcessError);
    process.off("uncaughtException", onProcessError);
    await server?.close();
    await db?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("starts from valid seeds and a meaningful dump", async () => {
    const broken: string[] = [];
    for (const q of DQL_SEEDS) {
      const res = await post(
        base,
        "/query",
        "application/json",
        JSON.stringify({ query: q, variables: QUERY_VARS }),
      );
      if ("errors" in (res.json() as object)) broken.push(`${q} -> ${res.text}`);
    }
    const mutations: [string, string][] = [
      ...RDF_SEEDS.map((b): [string, string] => ["application/rdf", b]),
      ...JSON_MUTATION_SEEDS.map((b): [string, string] => ["application/json", b]),
    ];
    for (const [type, body] of mutations) {
      const res = await post(base, "/mutate", type, body);
      const json = res.json() as { errors?: unknown; extensions?: { txn: { start_ts: number } } };
      if (json.errors) broken.push(`${body} -> ${res.text}`);
      else await post(base, `/commit?startTs=${json.extensions?.txn.start_ts}&abort=true`, undefined, "");
    }
    for (const body of [...SCHEMA_SEEDS, ...OPERATION_SEEDS]) {
      const res = await post(base, "/alter", undefined, body);
      if ("errors" in (res.json() as object)) broken.push(`${body} -> ${res.text}`);
    }
    for (const [type, body] of [
      ...SANDBOX_RDF_SEEDS.map((b) => ["application/rdf", b]),
      ...SANDBOX_JSON_SEEDS.map((b) => ["application/json", b]),
    ]) {
      expect(TOUCHES_KNOWN.test(body)).toBe(false);
      const res = await post(base, "/mutate?commitNow=true", type, body);
      if ("errors" in (res.json() as object)) broken.push(`${body} -> ${res.text}`);
    }
    expect(broken).toEqual([]);
    const snapshot = JSON.parse((await dump()).split("\n")[0]) as Record<string, unknown[]>;
    for (const [block, rows] of Object.entries(snapshot)) expect(rows.length, block).toBeGreaterThan(0);
  });

  it("answers every malformed body with an envelope, stays up and leaves committed data unchanged", async () => {
    const before = await dump();
    const schemaBefore = await predicateNames();
    const { cases, skipped } = generateCases();
    const failures: Failure[] = [];
    const internal: Failure[] = [];
    const tally = new Map<string, { ok: number; error: number }>();
    const codes = new Map<string, number>();
    let committed = 0;
    let aborted = 0;
    const slow: string[] = [];
    const sandboxPreds = new Set<string>();

    const fail = (c: Case, why: string, res: RawResponse) =>
      failures.push({
        kind: c.kind,
        contentType: c.contentType,
        contentEncoding: c.contentEncoding,
        why,
        status: res.status,
        response: res.text.slice(0, 300),
        body: c.body.toString("utf8").slice(0, 300),
      });

    const run = async (c: Case) => {
      const headers: Record<string, string> = {};
      if (c.contentType !== undefined) headers["content-type"] = c.contentType;
      if (c.contentEncoding !== undefined) headers["content-encoding"] = c.contentEncoding;
      const t0 = performance.now();
      const res = await request(base, `${c.route}${c.params}`, { headers, body: c.body });
      const ms = performance.now() - t0;
      if (ms > 2000) slow.push(`${Math.round(ms)} ms ${c.kind} (${c.body.length} bytes)`);
      const outcome = classify(c.route, res);
      if (typeof outcome === "string") return fail(c, outcome, res);
      const t = tally.get(c.kind) ?? { ok: 0, error: 0 };
      tally.set(c.kind, t);
      if (!outcome.ok) {
        t.error++;
        codes.set(outcome.code ?? "", (codes.get(outcome.code ?? "") ?? 0) + 1);
        if (INTERNAL.test(outcome.message ?? "")) {
          internal.push({
            kind: c.kind,
            why: outcome.message ?? "",
            status: res.status,
            response: "",
            body: c.body.toString("utf8").slice(0, 200),
          });
        }
        return;
      }
      t.ok++;
      if (c.route !== "/mutate") return;
      if (c.commitNow) {
        committed++;
        for (const p of outcome.preds ?? []) sandboxPreds.add(p);
        return;
      }
      // A mutated body that is still valid: its writes must never become visible.
      const abort = await post(base, `/commit?startTs=${outcome.startTs}&abort=true`, undefined, "");
      if (abort.text !== '{"code":"Success","message":"Done"}') fail(c, "abort after success failed", abort);
      aborted++;
    };

    const started = Date.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < cases.length) await run(cases[next++]);
      }),
    );
    const ms = Date.now() - started;

    const health = await request(base, "/health", { method: "GET" });
    expect(health.status).toBe(200);
    expect((health.json() as { status: string }[])[0].status).toBe("healthy");
    const after = await dump();

    // Predicates that appeared during the run hold no committed data, except those the sandboxed
    // commitNow mutations committed (fz_ names, possibly mangled by the fuzzer).
    const leaked: string[] = [];
    let unqueryable = 0;
    for (const p of (await predicateNames()).filter((n) => !schemaBefore.includes(n))) {
      if (sandboxPreds.has(p)) continue;
      if (/[<>"{}\s\\^|`]/.test(p)) {
        unqueryable++;
        continue;
      }
      const res = await post(base, "/query", "application/dql", `{ q(func: has(<${p}>), first: 1) { uid } }`);
      const data = (res.json() as { data?: { q?: unknown[] } }).data;
      if ((data?.q?.length ?? 0) > 0) leaked.push(p);
    }

    console.log(
      `bad input: ${cases.length} bodies in ${ms} ms (${skipped} generated bodies skipped as unsafe to commit), ` +
        `${aborted} valid mutations aborted, ${committed} sandbox mutations committed ` +
        `(${sandboxPreds.size} predicates), ${unqueryable} new predicate names not expressible in DQL\n` +
        `  requests over 2 s: ${slow.length}${slow
          .slice(0, 5)
          .map((x) => `\n    ${x}`)
          .join("")}\n` +
        `  per kind (ok/error): ${[...tally].map(([k, v]) => `${k} ${v.ok}/${v.error}`).join(", ")}\n` +
        `  error codes: ${[...codes].map(([k, v]) => `${k} ${v}`).join(", ")}\n` +
        `  internal-looking messages: ${internal.length} ` +
        `(${internal.filter((f) => STACK_OVERFLOW.test(f.why)).length} stack overflows: known go-json depth bug)` +
        internal
          .slice(0, 15)
          .map((f) => `\n    [${f.kind}] ${f.why.slice(0, 160)}  <= ${JSON.stringify(f.body.slice(0, 100))}`)
          .join(""),
    );

    expect(failures.slice(0, 10)).toEqual([]);
    expect(failures).toHaveLength(0);
    expect(processErrors).toEqual([]);
    expect(internal.filter((f) => !STACK_OVERFLOW.test(f.why)).slice(0, 10)).toEqual([]);
    expect(after).toBe(before);
    expect(leaked).toEqual([]);
    expect(cases.length).toBeGreaterThanOrEqual(6 * PER_KIND * 0.95);
    for (const kind of ["dql", "json-query", "rdf", "json-mutation", "schema", "protojson"]) {
      expect(tally.get(kind as Kind)?.error ?? 0, kind).toBeGreaterThan(PER_KIND / 2);
    }
  }, 120_000);

  // Known server bug (reported): a Content-Type that is not a media type at all is rejected by Fastify
  // before any route runs — HTTP 500 `Unsupported Media Type` (code Error), without the CORS headers, on
  // every endpoint, even /alter and /health, which Dgraph serves whatever the Content-Type says.
  // Flip to `it` once the server answers like Dgraph.
  it("answers Content-Types that are not media types with HTTP 200, like Dgraph", async () => {
    const invalid = {
      errors: [{ message: "Invalid Content-Type", extensions: { code: "ErrorInvalidRequest" } }],
    };
    for (const contentType of MALFORMED_TYPES) {
      const headers = { "content-type": contentType };
      const query = await request(base, "/query", { headers, body: "{ q(func: uid(1)) { uid } }" });
      expect(query.status, contentType).toBe(200);
      expect(query.headers["access-control-allow-origin"]).toBe("*");
      expect(query.json()).toEqual(invalid);
      const mutate = await request(base, "/mutate", { headers, body: '{ set { _:x <fz_ct> "x" . } }' });
      expect(mutate.status, contentType).toBe(200);
      expect(mutate.json()).toEqual(invalid);
      const alter = await request(base, "/alter", { headers, body: "fz_ct: string ." });
      expect(alter.json()).toEqual({ data: { code: "Success", message: "Done" } });
      const health = await request(base, "/health", { method: "GET", headers });
      expect(health.status).toBe(200);
    }
  });

  // Known server bug (reported): the server's Go-compatible JSON parser (go-json.ts) recurses without
  // Go's nesting limit (10000), so deep JSON on /query, /commit, /login (and malformed JSON on /mutate)
  // overflows the JS stack and the envelope says "Maximum call stack size exceeded". Go — and this
  // engine's own mutation parser — answer "invalid character '[' exceeded max depth". Flip once fixed.
  it("rejects JSON nested deeper than Go's limit with Go's error, not a stack overflow", async () => {
    const deep = "[".repeat(100_000) + "]".repeat(100_000);
    const maxDepth = "invalid character '[' exceeded max depth";
    const json = (res: RawResponse) => res.json() as { errors?: { message: string }[] };
    const query = json(await post(base, "/query", "application/json", deep));
    expect(query.errors?.[0].message).toMatch(
      /^Error parsing JSON at line 1, character \d+: invalid character '\[' exceeded max depth\n$/,
    );
    const mutate = json(await post(base, "/mutate", "application/json", `{"set":${"[".repeat(100_000)}`));
    expect(mutate.errors?.[0].message).toMatch(
      /^Error parsing JSON at line 1, character \d+: invalid character '\[' exceeded max depth\n$/,
    );
    expect(json(await post(base, "/commit?startTs=1", undefined, deep)).errors?.[0].message).toBe(maxDepth);
    expect(json(await post(base, "/login", undefined, deep)).errors?.[0].message).toBe(maxDepth);
  });

  // Known engine bug (reported): when the DQL text has any non-ASCII character, the lexer recomputes
  // each token's UTF-8 column from the start of its line (lexer.ts markStart), so a long line lexes in
  // quadratic time — one "é" turns a ~30 ms parse of this 600 KB query into seconds, and a few MB into
  // minutes of blocked event loop for every client. Flip to `it` once lexing is linear.
  it("lexes a long single-line query in linear time even with a non-ASCII character", async () => {
    const fields = Array.from({ length: 80_000 }, (_, i) => `f${i}`).join(" ");
    // The "%" fails the lexer after it has read every field, so only lexing is timed.
    const time = async (literal: string) => {
      const started = performance.now();
      const res = await post(
        base,
        "/query",
        "application/dql",
        `{ q(func: eq(k.name, "${literal}")) { ${fields} %`,
      );
      expect((res.json() as { errors: { message: string }[] }).errors[0].message).toContain(
        "Unrecognized character in lexText: U+0025 '%'",
      );
      return performance.now() - started;
    };
    await time("warm-up");
    const ascii = await time("e");
    const nonAscii = await time("é");
    expect(nonAscii).toBeLessThan(ascii * 10 + 500);
  });

  async function predicateNames(): Promise<string[]> {
    const res = await post(base, "/query", "application/dql", "schema {}");
    return ((res.json() as { data: { schema?: { predicate: string }[] } }).data.schema ?? []).map(
      (p) => p.predicate,
    );
  }
});
