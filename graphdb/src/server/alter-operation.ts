/**
 * The `/alter` body: protobuf-JSON `api.Operation` when it decodes as one, otherwise schema text — and
 * Dgraph's structural checks on the operation.
 */
import type { AlterOperation } from "../engine/engine-api.ts";
import { RequestError } from "./envelope.ts";
import { type GoJsonValue, parseGoJson } from "./go-json.ts";

type DropOp = NonNullable<AlterOperation["dropOp"]>;
const DROP_OPS: readonly DropOp[] = ["NONE", "ALL", "DATA", "ATTR", "TYPE"];

/** protojson accepts the proto field name and its lowerCamel JSON name. */
const FIELD_NAMES: Record<string, keyof AlterOperation> = {
  schema: "schema",
  drop_attr: "dropAttr",
  dropAttr: "dropAttr",
  drop_all: "dropAll",
  dropAll: "dropAll",
  drop_op: "dropOp",
  dropOp: "dropOp",
  drop_value: "dropValue",
  dropValue: "dropValue",
  run_in_background: "runInBackground",
  runInBackground: "runInBackground",
};

function decodeField(field: keyof AlterOperation, value: GoJsonValue): AlterOperation[typeof field] | null {
  switch (field) {
    case "schema":
    case "dropAttr":
    case "dropValue":
      return value.kind === "string" ? value.value : null;
    case "dropAll":
    case "runInBackground":
      return value.kind === "bool" ? value.value : null;
    case "dropOp":
      if (value.kind === "string")
        return DROP_OPS.includes(value.value as DropOp) ? (value.value as DropOp) : null;
      if (value.kind === "number" && /^[0-4]$/.test(value.text)) return DROP_OPS[Number(value.text)];
      return null;
  }
}

/** Decodes `text` as a protojson Operation; undefined when it is not one (then the body is schema text). */
export function decodeOperationJson(text: string): AlterOperation | undefined {
  let root: GoJsonValue;
  try {
    root = parseGoJson(text);
  } catch {
    return undefined;
  }
  if (root.kind === "null") return {};
  if (root.kind !== "object") return undefined;
  const op: AlterOperation = {};
  for (const [name, value] of root.entries) {
    const field = FIELD_NAMES[name];
    if (field === undefined) return undefined;
    if (value.kind === "null") continue;
    const decoded = decodeField(field, value);
    if (decoded === null) return undefined;
    (op as Record<string, unknown>)[field] = decoded;
  }
  return op;
}

/** The `/alter` operation for a request body. */
export function operationFromBody(text: string): AlterOperation {
  return decodeOperationJson(text) ?? { schema: text };
}

/** Dgraph's checks on an Operation before anything runs (texts verbatim). */
export function validateOperation(op: AlterOperation): void {
  const dropOp = op.dropOp ?? "NONE";
  if (!op.schema && !op.dropAttr && !op.dropAll && dropOp === "NONE") {
    throw new RequestError("Operation must have at least one field set", "Error");
  }
  if ((op.dropAll || dropOp === "ALL") && dropOp === "DATA") {
    throw new RequestError("Only one of DropAll and DropData can be true", "Error");
  }
  if (dropOp === "DATA" && op.dropValue) {
    throw new RequestError("If DropOp is set to DATA, DropValue must be empty", "Error");
  }
  if (dropOp === "ATTR" && !op.dropValue) {
    throw new RequestError("If DropOp is set to ATTR, DropValue must not be empty", "Error");
  }
  if (dropOp === "TYPE" && !op.dropValue) {
    throw new RequestError("If DropOp is set to TYPE, DropValue must not be empty", "Error");
  }
}
