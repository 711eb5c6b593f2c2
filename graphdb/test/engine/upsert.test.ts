import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openTestEngine, q, setNow } from "./engine-fixture.ts";

let t: ReturnType<typeof openTestEngine>;
beforeEach(async () => {
  t = openTestEngine();
  await t.engine.alter({ schema: "email: string @index(exact) @upsert .\nname: string .\nage: int ." });
});
afterEach(async () => {
  await t.cleanup();
});

const upsert = (setNquads: string, cond?: string) => ({
  query: '{ q(func: eq(email, "a@b.c")) { v as uid } }',
  mutations: [{ setNquads, cond }],
  commitNow: true,
});

describe("upserts", () => {
  it("creates one node keyed uid(v) when the variable is empty, then updates it in place", async () => {
    const e = t.engine;
    const first = await e.mutate(upsert('uid(v) <email> "a@b.c" .\nuid(v) <name> "First" .'));
    expect(Object.keys(first.uids)).toEqual(["uid(v)"]);
    expect(JSON.parse(first.queriesJson ?? "null")).toEqual({ q: [] });
    const second = await e.mutate(upsert('uid(v) <name> "Second" .'));
    expect(second.uids).toEqual({});
    expect(JSON.parse(second.queriesJson ?? "null")).toEqual({ q: [{ uid: first.uids["uid(v)"] }] });
    expect(await q(e, '{ q(func: eq(email, "a@b.c")) { name } }')).toEqual({ q: [{ name: "Second" }] });
  });

  it("runs a mutation only when its @if condition on len(v) holds", async () => {
    const e = t.engine;
    const cond = "@if(eq(len(v), 0))";
    await e.mutate(upsert('_:n <email> "a@b.c" .\n_:n <name> "Created" .', cond));
    await e.mutate(upsert('_:n <email> "a@b.c" .\n_:n <name> "Duplicate" .', cond));
    const out = (await q(e, '{ q(func: eq(email, "a@b.c")) { name } }')) as { q: unknown[] };
    expect(out).toEqual({ q: [{ name: "Created" }] });
  });

  it("expands uid(v) to every uid of the variable and substitutes val(x) per subject", async () => {
    const e = t.engine;
    await setNow(e, '_:a <name> "A" .\n_:a <age> "10" .\n_:b <name> "B" .\n_:b <age> "20" .');
    await e.mutate({
      query: "{ q(func: has(age)) { v as uid  a as age } }",
      mutations: [{ setNquads: "uid(v) <name> val(a) ." }],
      commitNow: true,
    });
    const out = (await q(e, "{ q(func: has(age), orderasc: age) { name } }")) as { q: { name: string }[] };
    expect(out.q.map((x) => x.name)).toEqual(["10", "20"]);
  });

  it("deletes through uid(v) and drops delete N-Quads whose variable is empty", async () => {
    const e = t.engine;
    await setNow(e, '_:a <email> "a@b.c" .\n_:a <name> "A" .');
    await e.mutate({
      query: '{ q(func: eq(email, "a@b.c")) { v as uid } w as var(func: eq(email, "none")) }',
      mutations: [{ delNquads: "uid(v) <name> * .\nuid(w) <name> * ." }],
      commitNow: true,
    });
    expect(await q(e, '{ q(func: eq(email, "a@b.c")) { name email } }')).toEqual({ q: [{ email: "a@b.c" }] });
  });

  it("refuses an upsert whose query defines variables the mutations never use", async () => {
    await expect(
      t.engine.mutate({
        query: "{ q(func: has(name)) { v as uid } }",
        mutations: [{ setNquads: '_:a <name> "x" .' }],
      }),
    ).rejects.toThrow(/defined but not used/);
  });
});
