/**
 * The in-process `keepEmptyNodes` query option: a node whose selection yields nothing is written as `{}`
 * instead of being dropped (Dgraph's rule, kept when the option is absent), at the root and under edges,
 * so the GraphQL layer keeps every node of a list without selecting a uid at every level.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GraphDB } from "../../src/index.ts";
import { openTestEngine, setNow } from "../engine/engine-fixture.ts";

let engine: GraphDB;
let cleanup: () => Promise<void>;
let uids: Record<string, string>;

beforeAll(async () => {
  ({ engine, cleanup } = openTestEngine());
  await engine.alter({ schema: "name: string .\nnote: string .\nfriend: [uid] .\nbest: uid ." });
  uids = await setNow(
    engine,
    `_:a <name> "A" .
_:a <friend> _:b .
_:a <friend> _:c .
_:a <best> _:c .
_:b <name> "B" .
_:c <friend> _:a .
_:e <note> "selected by nobody" .`,
  );
});

afterAll(async () => cleanup());

async function run(query: string, keepEmptyNodes?: boolean) {
  const r = await engine.query({ query, keepEmptyNodes });
  return JSON.parse(r.json) as Record<string, unknown>;
}

describe("keepEmptyNodes", () => {
  const query = () =>
    `{ q(func: uid(${uids.a}, ${uids.c}, ${uids.e})) { name friend { name } best { name } } }`;

  it("drops nodes whose selection yields nothing by default, as Dgraph", async () => {
    expect(await run(query())).toEqual({
      q: [{ name: "A", friend: [{ name: "B" }] }, { friend: [{ name: "A" }] }],
    });
  });

  it("writes them as {} at the root and under list and single edges when asked", async () => {
    expect(await run(query(), true)).toEqual({
      q: [{ name: "A", friend: [{ name: "B" }, {}], best: {} }, { friend: [{ name: "A" }] }, {}],
    });
  });
});
