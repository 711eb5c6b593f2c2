import { checkIndexKeyLength } from "../core/errors.ts";
import type { NamespaceKeys } from "../store/keys.ts";
import { getTokenizer, tokenKeysOf } from "../tokenizer/registry.ts";

/**
 * Index additions of one string predicate gathered by a bulk-loader flush: the subjects, in ascending
 * order, and the string values (with language tags) each of them gains. Tokenizing them in one pass per
 * tokenizer and sorting the keys once is cheaper than a map entry per (token, value) as the flush goes.
 */
export interface IndexJob {
  /** The keys of the predicate's namespace. */
  keys: NamespaceKeys;
  predicate: string;
  tokenizers: string[];
  subjects: Float64Array;
  values: string[];
  langs: string[];
}

/**
 * One predicate's index additions, in key order: index key `i` (`keys[keyOffsets[i]..keyOffsets[i+1])`)
 * gains the uids `uids[offsets[i]..offsets[i+1])`, ascending and unique.
 */
export interface IndexJobResult {
  predicate: string;
  keys: Uint8Array;
  keyOffsets: Uint32Array;
  offsets: Uint32Array;
  uids: Float64Array;
}

/** Tokenizes the jobs' values and groups the subjects by token. */
export function runIndexJobs(jobs: IndexJob[]): IndexJobResult[] {
  return jobs.map(runJob);
}

function runJob(job: IndexJob): IndexJobResult {
  // One map per tokenizer (their tokens never collide: each starts with its tokenizer's id), each smaller
  // and kinder to the cache than one for all.
  const maps: Map<string, number[]>[] = [];
  let total = 0;
  for (const name of job.tokenizers) {
    const byToken = new Map<string, number[]>();
    maps.push(byToken);
    const tok = getTokenizer(name);
    if (tok === undefined) throw new Error(`Invalid tokenizer ${name}`);
    for (let i = 0; i < job.subjects.length; i++) {
      const value = { type: "string" as const, value: job.values[i] };
      const keys = tokenKeysOf(tok, value, job.langs[i]);
      const subject = job.subjects[i];
      for (const ts of keys) {
        const list = byToken.get(ts);
        if (list === undefined) {
          byToken.set(ts, [subject]);
          total++;
        } else if (list[list.length - 1] !== subject) {
          // Subjects arrive in ascending order: a repeat (two values, one token) is always the last one.
          list.push(subject);
          total++;
        }
      }
    }
  }
  // Latin1 strings sort as their bytes do, and each tokenizer's tokens share their first byte (its id):
  // each map's keys sorted, the maps taken in id order, give the keys in the order they are written in.
  const groups = maps
    .filter((m) => m.size > 0)
    .map((m) => ({ m, tokens: [...m.keys()].sort() }))
    .sort((a, b) => a.tokens[0].charCodeAt(0) - b.tokens[0].charCodeAt(0));
  const prefix = job.keys.indexKey(job.predicate, new Uint8Array(0));
  let count = 0;
  let keyBytes = 0;
  for (const { tokens } of groups) {
    for (const ts of tokens) {
      checkIndexKeyLength(prefix.length + ts.length);
      keyBytes += prefix.length + ts.length;
    }
    count += tokens.length;
  }
  const keys = new Uint8Array(keyBytes);
  const keyOffsets = new Uint32Array(count + 1);
  const offsets = new Uint32Array(count + 1);
  const uids = new Float64Array(total);
  let t = 0;
  let k = 0;
  let at = 0;
  for (const { m, tokens } of groups) {
    for (const ts of tokens) {
      keys.set(prefix, k);
      k += prefix.length;
      for (let c = 0; c < ts.length; c++) keys[k++] = ts.charCodeAt(c);
      keyOffsets[++t] = k;
      for (const u of m.get(ts)!) uids[at++] = u;
      offsets[t] = at;
    }
  }
  return { predicate: job.predicate, keys, keyOffsets, offsets, uids };
}
