import { describe, expect, it } from "vitest";
import { runIndexJobs } from "../../src/engine/index-token-jobs.ts";
import { GALAXY_KEYS, keyString } from "../../src/store/keys.ts";
import { getTokenizer } from "../../src/tokenizer/registry.ts";

/** The galaxy's keys: the layout every store had before namespaces. */
const indexKey = GALAXY_KEYS.indexKey.bind(GALAXY_KEYS);

describe("index token jobs", () => {
  it("group subjects by index key, keys in byte order, uids ascending and unique", () => {
    const tokenizers = ["term", "exact", "trigram"];
    const job = {
      keys: GALAXY_KEYS,
      predicate: "name",
      tokenizers,
      subjects: Float64Array.from([3, 3, 9, 12]),
      values: ["Red Film", "Rote Film", "red one", "Film"],
      langs: ["", "de", "", ""],
    };
    const [r] = runIndexJobs([job]);
    const got = new Map<string, number[]>();
    for (let i = 0; i + 1 < r.keyOffsets.length; i++) {
      const key = r.keys.subarray(r.keyOffsets[i], r.keyOffsets[i + 1]);
      got.set(keyString(key), Array.from(r.uids.subarray(r.offsets[i], r.offsets[i + 1])));
    }
    // The same grouping computed token by token with the tokenizers' byte tokens.
    const want = new Map<string, Set<number>>();
    for (let i = 0; i < job.values.length; i++) {
      for (const name of tokenizers) {
        for (const t of getTokenizer(name)!.tokens({ type: "string", value: job.values[i] }, job.langs[i])) {
          const ks = keyString(indexKey("name", t));
          if (!want.has(ks)) want.set(ks, new Set());
          want.get(ks)!.add(job.subjects[i]);
        }
      }
    }
    const keys = [...got.keys()];
    expect(keys).toEqual([...want.keys()].sort());
    for (const [ks, uids] of got) expect(uids).toEqual([...want.get(ks)!].sort((a, b) => a - b));
    expect(
      got.get(
        keyString(indexKey("name", getTokenizer("term")!.tokens({ type: "string", value: "film" })[0])),
      ),
    ).toEqual([3, 12]);
  });

  it("refuses a token too long for a key, as a mutation would", () => {
    const job = {
      keys: GALAXY_KEYS,
      predicate: "name",
      tokenizers: ["exact"],
      subjects: Float64Array.from([1]),
      values: ["x".repeat(5000)],
      langs: [""],
    };
    expect(() => runIndexJobs([job])).toThrow("value in the mutation is too large for the index");
  });
});
