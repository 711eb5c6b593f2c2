/** POST /mutate — mutations and upserts (Dgraph's `mutationHandler`). */
import type { MutateRequest, MutationInput } from "../../engine/engine-api.ts";
import { parseMutationBlock } from "../../mutation/mutation-block.ts";
import type { ApiHandler } from "../api-endpoint.ts";
import { checkCharset, parseMediaType } from "../body.ts";
import { ORIGINAL_CONTENT_TYPE } from "../content-type-header.ts";
import {
  fromEngineError,
  htmlSafe,
  latencyJson,
  RequestError,
  RequestErrorWithData,
  sortedRecord,
  txnJson,
} from "../envelope.ts";
import {
  arrayItems,
  dgraphJsonErrorText,
  type GoJsonError,
  type GoJsonValue,
  mapEntry,
  objectMembers,
  parseGoJson,
  type RawSpan,
  rawText,
  typeError,
} from "../go-json.ts";

const UNSUPPORTED = "Unsupported Content-Type. Supported content types are application/json, application/rdf";
const MAP_TYPE = "map[string]*alpha.skipJSONUnmarshal";

function parseJson(text: string): GoJsonValue {
  try {
    return parseGoJson(text);
  } catch (e) {
    throw new RequestError(dgraphJsonErrorText(text, e as GoJsonError));
  }
}

/** Go's `strconv.Unquote` of a raw JSON value, as Dgraph applies it to `query` and `cond`. */
function unquote(text: string, value: GoJsonValue): string {
  if (value.kind !== "string" || rawText(text, value).includes("\\/"))
    throw new RequestError("invalid syntax");
  return value.value;
}

/** One `{set, delete, cond}` object; undefined when it has neither set nor delete (ignored, as in Dgraph). */
function extractMutation(text: string, obj: GoJsonValue & { kind: "object" }): MutationInput | undefined {
  const set = mapEntry(obj, "set");
  const del = mapEntry(obj, "delete");
  const cond = mapEntry(obj, "cond");
  const mu: MutationInput = {};
  if (set && set.kind !== "null") mu.setJson = rawText(text, set);
  if (del && del.kind !== "null") mu.deleteJson = rawText(text, del);
  if (cond && cond.kind !== "null") mu.cond = unquote(text, cond);
  return mu.setJson === undefined && mu.deleteJson === undefined ? undefined : mu;
}

/** The JSON mutation body: top-level `set`/`delete`/`cond`, `query`, and a `mutations` array. */
export function decodeMutateJson(text: string): { query?: string; mutations: MutationInput[] } {
  return decodeMutateJsonFast(text) ?? decodeMutateJsonExact(text);
}

type Decoded = { query?: string; mutations: MutationInput[] };

/**
 * The common case without building a tree: `JSON.parse` validates (its grammar is Go's), then only the
 * top-level members are located. Returns undefined whenever Go would report an error, so that the exact
 * decoder produces Dgraph's text.
 */
function decodeMutateJsonFast(text: string): Decoded | undefined {
  let root: unknown;
  try {
    root = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (root === null) return { mutations: [] };
  if (typeof root !== "object" || Array.isArray(root)) return undefined;
  const members = objectMembers(text, skipSpaces(text));
  const out: Decoded = { mutations: [] };
  const query = stringMember(text, members, "query");
  if (query === false) return undefined;
  if (query !== undefined) out.query = query;
  const top = fastMutation(text, members);
  if (top === false) return undefined;
  if (top) out.mutations.push(top);
  const list = members.get("mutations");
  if (list && text[list.start] !== "n") {
    if (text[list.start] !== "[") return undefined;
    for (const item of arrayItems(text, list.start)) {
      if (text[item.start] === "n") continue;
      if (text[item.start] !== "{") return undefined;
      const mu = fastMutation(text, objectMembers(text, item.start));
      if (mu === false) return undefined;
      if (mu) out.mutations.push(mu);
    }
  }
  return out;
}

function skipSpaces(text: string): number {
  return text.length - text.trimStart().length;
}

/** A string member (`query`, `cond`): undefined when absent or null, false when Go would fail. */
function stringMember(text: string, members: Map<string, RawSpan>, key: string): string | undefined | false {
  const span = members.get(key);
  if (!span || text[span.start] === "n") return undefined;
  const raw = text.slice(span.start, span.end);
  if (raw[0] !== '"' || raw.includes("\\/")) return false;
  return JSON.parse(raw) as string;
}

function fastMutation(text: string, members: Map<string, RawSpan>): MutationInput | undefined | false {
  const mu: MutationInput = {};
  const set = members.get("set");
  const del = members.get("delete");
  if (set && text[set.start] !== "n") mu.setJson = text.slice(set.start, set.end);
  if (del && text[del.start] !== "n") mu.deleteJson = text.slice(del.start, del.end);
  const cond = stringMember(text, members, "cond");
  if (cond === false) return false;
  if (cond !== undefined) mu.cond = cond;
  return mu.setJson === undefined && mu.deleteJson === undefined ? undefined : mu;
}

/** Decodes with Go semantics throughout; slower, used to produce the exact error for a bad body. */
function decodeMutateJsonExact(text: string): { query?: string; mutations: MutationInput[] } {
  const root = parseJson(text);
  if (root.kind === "null") return { mutations: [] };
  if (root.kind !== "object")
    throw new RequestError(dgraphJsonErrorText(text, typeError(text, root, MAP_TYPE)));
  const out: { query?: string; mutations: MutationInput[] } = { mutations: [] };
  const query = mapEntry(root, "query");
  if (query && query.kind !== "null") out.query = unquote(text, query);
  const top = extractMutation(text, root);
  if (top) out.mutations.push(top);
  const list = mapEntry(root, "mutations");
  if (list && list.kind !== "null") {
    // Dgraph decodes this value again on its own, so error positions are relative to it.
    const listText = rawText(text, list);
    const reparsed = parseGoJson(listText);
    if (reparsed.kind !== "array") {
      throw new RequestError(dgraphJsonErrorText(listText, typeError(listText, reparsed, `[]${MAP_TYPE}`)));
    }
    for (const item of reparsed.items) {
      if (item.kind === "null") continue;
      if (item.kind !== "object") {
        throw new RequestError(dgraphJsonErrorText(listText, typeError(listText, item, MAP_TYPE)));
      }
      const mu = extractMutation(listText, item);
      if (mu) out.mutations.push(mu);
    }
  }
  return out;
}

/** The RDF body: `{ set {…} delete {…} }` or `upsert { query {…} mutation @if(…) {…} }`. */
function decodeMutateRdf(text: string): { query?: string; mutations: MutationInput[] } {
  try {
    const block = parseMutationBlock(text);
    return { query: block.query, mutations: block.mutations.map((m) => ({ ...m })) };
  } catch (e) {
    throw new RequestError((e as Error).message);
  }
}

export const mutateHandler: ApiHandler = async ({ params, headers, body, engine }) => {
  const commitNow = params.bool("commitNow");
  const startTs = params.uint64("startTs");
  // Not a Dgraph parameter: the same `timeout` as /query's, bounding the mutation up to its commit.
  const timeoutMs = params.durationMs("timeout");
  const text = (await body()).toString("utf8");

  const parseStart = process.hrtime.bigint();
  const media = parseMediaType(headers[ORIGINAL_CONTENT_TYPE] as string | undefined);
  checkCharset(media);
  let decoded: { query?: string; mutations: MutationInput[] };
  switch (media.type) {
    case "application/json":
      decoded = decodeMutateJson(text);
      break;
    case "application/rdf":
      decoded = decodeMutateRdf(text);
      break;
    default:
      throw new RequestError(UNSUPPORTED);
  }
  const parsingNs = Number(process.hrtime.bigint() - parseStart);

  const { query, mutations } = decoded;
  if (mutations.length === 0 && (query ?? "").trim() === "") throw new RequestErrorWithData("empty request");
  const req: MutateRequest = { startTs, commitNow, mutations };
  if (query !== undefined && query.trim() !== "") req.query = query;
  if (timeoutMs !== 0) req.timeoutMs = timeoutMs;

  let res: Awaited<ReturnType<typeof engine.mutate>>;
  try {
    res = await engine.mutate(req);
  } catch (e) {
    throw fromEngineError(e, "ErrorInvalidRequest", true);
  }
  const txn = {
    ...res.txn,
    // With commitNow the keys are dropped: there is nothing left for the client to commit.
    keys: commitNow ? [] : [...(res.txn.keys ?? [])].sort(),
    preds: [...(res.txn.preds ?? [])].sort(),
  };
  const extensions = JSON.stringify({
    server_latency: latencyJson({ ...res.latency, parsing_ns: parsingNs }) ?? {},
    txn: txnJson(txn) ?? {},
  });
  const uids = mutations.length === 0 ? "null" : JSON.stringify(sortedRecord(res.uids ?? {}));
  const queries = res.queriesJson ?? "null";
  return {
    json: htmlSafe(
      `{"data":{"code":"Success","message":"Done","queries":${queries},"uids":${uids}},"extensions":${extensions}}`,
    ),
  };
};
