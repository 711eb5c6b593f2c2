/** POST /commit — commit or abort a transaction (Dgraph's `commitHandler`). */
import type { ApiHandler } from "../api-endpoint.ts";
import { fromEngineError, RequestError, toJson, txnJson } from "../envelope.ts";
import { type GoJsonError, type GoJsonValue, parseGoJson } from "../go-json.ts";
import { refuseSimpleWrite } from "../simple-write-guard.ts";

/** Go `json.Unmarshal` into `[]string`; undefined when that fails. */
function asStringList(value: GoJsonValue): string[] | undefined {
  if (value.kind === "null") return [];
  if (value.kind !== "array") return undefined;
  const out: string[] = [];
  for (const item of value.items) {
    if (item.kind === "string") out.push(item.value);
    else if (item.kind === "null") out.push("");
    else return undefined;
  }
  return out;
}

/**
 * The commit body: a JSON array of keys (what dgraph-js-http sends) or `{"keys":[…],"preds":[…]}`.
 * Errors are Go's plain json texts (no line/character), as Dgraph returns them here.
 */
export function decodeCommitBody(text: string): { keys: string[]; preds: string[] } {
  let root: GoJsonValue;
  try {
    root = parseGoJson(text);
  } catch (e) {
    throw new RequestError((e as GoJsonError).message);
  }
  const list = asStringList(root);
  if (list) return { keys: list, preds: [] };
  if (root.kind !== "object") {
    throw new RequestError(`json: cannot unmarshal ${root.kind} into Go value of type map[string][]string`);
  }
  const fields: Record<string, string[]> = {};
  for (const [name, value] of root.entries) {
    const strings = asStringList(value);
    if (!strings) {
      const bad =
        value.kind === "array" ? value.items.find((i) => i.kind !== "string" && i.kind !== "null") : value;
      throw new RequestError(
        `json: cannot unmarshal ${bad?.kind ?? value.kind} into Go value of type ${value.kind === "array" ? "string" : "[]string"}`,
      );
    }
    fields[name] = strings;
  }
  return { keys: fields.keys ?? [], preds: fields.preds ?? [] };
}

export const commitHandler: ApiHandler = async ({ params, headers, body, engine }) => {
  refuseSimpleWrite(headers, "/commit", "application/json", "ErrorInvalidRequest");
  const startTs = params.uint64("startTs");
  if (startTs === 0) throw new RequestError("startTs parameter is mandatory while trying to commit");
  const abort = params.bool("abort");

  if (abort) {
    let txn: Awaited<ReturnType<typeof engine.commit>>;
    try {
      txn = await engine.commit({ startTs, abort: true });
    } catch (e) {
      throw fromEngineError(e, "ErrorInvalidRequest", false);
    }
    if (!txn.aborted && txn.commit_ts) throw new RequestError("transaction could not be aborted");
    return { json: toJson({ code: "Success", message: "Done" }) };
  }

  const { keys, preds } = decodeCommitBody((await body()).toString("utf8"));
  let txn: Awaited<ReturnType<typeof engine.commit>>;
  try {
    txn = await engine.commit({ startTs, keys, preds });
  } catch (e) {
    throw fromEngineError(e, "ErrorInvalidRequest", false);
  }
  return {
    json: toJson({
      data: { code: "Success", message: "Done" },
      extensions: { txn: txnJson({ ...txn, keys: [], preds: [] }) },
    }),
  };
};
