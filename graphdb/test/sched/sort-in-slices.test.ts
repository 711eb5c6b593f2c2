import { describe, expect, it } from "vitest";
import { sortInSlices } from "../../src/sched/sort-in-slices.ts";

type Item = [string, number];
const byKey = (x: Item, y: Item) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0);

describe("sortInSlices", () => {
  it("sorts as Array#sort does, stably, pausing between steps of a large array", async () => {
    for (const n of [0, 1, 5, 4096, 4097, 10_000, 100_003]) {
      // Many equal keys: stability shows in the second element.
      const items = Array.from({ length: n }, (_, i): Item => [String((i * 7919) % 1000), i]);
      const expected = [...items].sort(byKey);
      let pauses = 0;
      const sorted = await sortInSlices([...items], byKey, () => {
        pauses++;
        return undefined;
      });
      expect(sorted).toEqual(expected);
      if (n > 10_000) expect(pauses).toBeGreaterThan(20);
    }
  });

  it("gives the event loop back when a pause asks for it", async () => {
    const items = Array.from({ length: 50_000 }, (_, i): Item => [String(50_000 - i), i]);
    let turns = 0;
    let done = false;
    const sorting = sortInSlices(
      items,
      byKey,
      () => new Promise<void>((resume) => setImmediate(resume)),
    ).then((sorted) => {
      done = true;
      return sorted;
    });
    while (!done) {
      turns++;
      await new Promise((resume) => setImmediate(resume));
    }
    expect((await sorting)[0]).toEqual(["1", 49_999]);
    expect(turns).toBeGreaterThan(5);
  });
});
