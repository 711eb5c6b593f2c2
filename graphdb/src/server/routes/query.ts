/** POST /query — DQL queries (Dgraph's `queryHandler`). */
import type { QueryRequest } from "../../engine/engine-api.ts";
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
  dgraphJsonErrorText,
  type GoJsonError,
  type GoJsonValue,
  parseGoJson,
  structField,
  typeError,
} from "../go-json.ts";

const UNSUPPORTED =
  "Unsupported Content-Type. Supported content types are application/json, application/graphql+-,application/dql";

const PARAMS_TYPE =
  'struct { Query string "json:\\"query\\""; Variables map[string]string "json:\\"variables\\"" }';

/** `{"query": "...", "variables": {"$a": "x"}}` decoded as Go decodes it into Dgraph's params struct. */
export function decodeQueryJson(text: string): { query: string; vars?: Record<string, string> } {
  let root: GoJsonValue;
  try {
    root = parseGoJson(text);
  } catch (e) {
    throw new RequestError(dgraphJsonErrorText(text, e as GoJsonError));
  }
  const errors: GoJsonError[] = [];
  let query = "";
  let vars: Record<string, string> | undefined;
  if (root.kind === "object") {
    const q = structField(root, "query");
    if (q?.kind === "string") query = q.value;
    else if (q && q.kind !== "null") errors.push(typeError(text, q, "string"));
    const v = structField(root, "variables");
    if (v?.kind === "object") {
      vars = {};
      for (const [name, value] of v.entries) {
        if (value.kind === "string") vars[name] = value.value;
        else if (value.kind === "null") vars[name] = "";
        else errors.push(typeError(text, value, "string"));
      }
    } else if (v && v.kind !== "null") {
      errors.push(typeError(text, v, "map[string]string"));
    }
  } else if (root.kind !== "null") {
    errors.push(typeError(text, root, PARAMS_TYPE));
  }
  if (errors.length > 0) throw new RequestError(dgraphJsonErrorText(text, errors[0]));
  return { query, vars };
}

export const queryHandler: ApiHandler = async ({ params, headers, body, engine }) => {
  const debug = params.bool("debug");
  const timeoutMs = params.durationMs("timeout");
  const startTs = params.uint64("startTs");
  const text = (await body()).toString("utf8");

  const media = parseMediaType(headers[ORIGINAL_CONTENT_TYPE] as string | undefined);
  checkCharset(media);
  let query: string;
  let vars: Record<string, string> | undefined;
  switch (media.type) {
    case "application/json":
      ({ query, vars } = decodeQueryJson(text));
      break;
    case "application/graphql+-":
    case "application/dql":
      query = text;
      break;
    default:
      throw new RequestError(UNSUPPORTED);
  }

  const req: QueryRequest = { query, vars, startTs, debug };
  if (timeoutMs !== 0) req.timeoutMs = timeoutMs;
  if (startTs === 0) {
    if (params.bool("be")) req.bestEffort = req.readOnly = true;
    if (params.bool("ro")) req.readOnly = true;
  }
  const respFormat = params.get("respFormat");
  if (respFormat !== "" && respFormat !== "json" && respFormat !== "rdf") {
    throw new RequestError(`invalid value [${respFormat}] for parameter respFormat`);
  }
  if (respFormat === "rdf") req.respFormat = "rdf";
  if (query.trim() === "") throw new RequestErrorWithData("empty request");

  let res: Awaited<ReturnType<typeof engine.query>>;
  try {
    res = await engine.query(req);
  } catch (e) {
    throw fromEngineError(e, "ErrorInvalidRequest", true);
  }
  const data = respFormat === "rdf" ? JSON.stringify(res.rdf ?? "") : res.json;
  const extensions = JSON.stringify({
    server_latency: latencyJson(res.latency) ?? {},
    txn: txnJson(res.txn) ?? {},
    metrics: { num_uids: sortedRecord(res.metrics ?? {}) },
  });
  return {
    json: htmlSafe(`{"data":${data},"extensions":${extensions}}`),
    headers: { "dgraph-touchedUids": String(res.metrics?._total ?? 0) },
  };
};
