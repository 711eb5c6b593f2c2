/** POST|PUT /alter — schema changes and drops (Dgraph's `alterHandler`). */
import { operationFromBody, validateOperation } from "../alter-operation.ts";
import type { ApiHandler } from "../api-endpoint.ts";
import { fromEngineError, toJson } from "../envelope.ts";
import { refuseSimpleWrite } from "../simple-write-guard.ts";

export const alterHandler: ApiHandler = async ({ params, headers, body, engine }) => {
  refuseSimpleWrite(
    headers,
    "/alter",
    "application/json (an Operation) or application/dql (schema text)",
    "Error",
  );
  const op = operationFromBody((await body()).toString("utf8"));
  // As in Dgraph, the query parameter decides, whatever the body said.
  op.runInBackground = params.bool("runInBackground");
  // Not a Dgraph parameter: the same `timeout` as /query's, bounding an index build.
  const timeoutMs = params.durationMs("timeout");
  if (timeoutMs !== 0) op.timeoutMs = timeoutMs;
  validateOperation(op);
  try {
    await engine.alter(op);
  } catch (e) {
    throw fromEngineError(e, "Error", false);
  }
  return { json: toJson({ data: { code: "Success", message: "Done" } }) };
};
