/**
 * `respFormat=rdf` (Dgraph's query/outputrdf.go): every selection below the blocks' roots written as
 * N-Quads `<0x1> <pred> object .`, selection by selection. Uid edges are written only when the edge
 * has a nested selection; numbers are quoted; geo values are skipped. `count(uid)`, `@normalize`,
 * `@ignorereflex` and `checkpwd` are refused, as Dgraph does.
 */
import { DgraphError } from "../../core/errors.ts";
import type { TypedValue } from "../../core/scalar.ts";
import { containsUid } from "../../posting/uid-list.ts";
import type { SubGraph } from "../subgraph.ts";
import { countFieldName, internalFieldName } from "./field-names.ts";
import { valueJson } from "./value-json.ts";

function validate(sg: SubGraph): void {
  if (sg.groupBy !== undefined) throw new DgraphError("groupby is not supported in rdf output format");
  if (sg.kind === "countUid") throw new DgraphError("uid count is not supported in the rdf output format");
  if (sg.normalize) throw new DgraphError("normalize directive is not supported in the rdf output format");
  if (sg.ignoreReflex)
    throw new DgraphError("ignorereflex directive is not supported in the rdf output format");
  if (sg.kind === "checkpwd")
    throw new DgraphError("chkpwd function is not supported in the rdf output format");
  if (sg.facets !== undefined && !sg.expandAll) {
    throw new DgraphError("facets are not supported in the rdf output format");
  }
}

function subject(uid: number): string {
  return `<0x${uid.toString(16)}>`;
}

/** The object text of a value (Dgraph's getObjectVal); undefined when it is not written. */
function objectText(v: TypedValue, schemaType: SubGraph["schemaType"]): string | undefined {
  if (v.type === "geo") return undefined;
  const text = valueJson(v, schemaType);
  if (text === undefined) return undefined;
  if (v.type === "uid") return `<${JSON.parse(text)}>`;
  if ((v.type === "int" || v.type === "float") && schemaType !== "default") return `"${text}"`;
  return text;
}

function line(s: number, pred: string, object: string): string {
  return `${subject(s)} <${pred}> ${object} .\n`;
}

function selectionRdf(sg: SubGraph): string {
  validate(sg);
  let out = "";
  const src = sg.src;
  for (let i = 0; i < src.length; i++) {
    const uid = src[i];
    if (sg.isInternal()) {
      const v = sg.uidToVal?.get(uid);
      const text = v === undefined ? undefined : objectText(v, undefined);
      if (text !== undefined) out += line(uid, internalFieldName(sg), text);
      continue;
    }
    if (sg.counts !== undefined) {
      out += line(uid, countFieldName(sg), `"${sg.counts[i]}"`);
      continue;
    }
    const row = sg.rows[i];
    if (row !== undefined && row.length > 0 && sg.children.length > 0) {
      for (const dst of row) if (containsUid(sg.dest, dst)) out += line(uid, sg.fieldName(), subject(dst));
      continue;
    }
    const vals = sg.values[i];
    if (vals === undefined) continue;
    for (const p of vals) {
      const text = objectText(p.value, sg.schemaType);
      if (text !== undefined) out += line(uid, sg.fieldName(), text);
    }
  }
  for (const child of sg.children) out += selectionRdf(child);
  return out;
}

/** N-Quads of executed blocks (var blocks included, as Dgraph does). */
export function encodeRdf(blocks: readonly SubGraph[]): string {
  let out = "";
  for (const sg of blocks) {
    validate(sg);
    for (const child of sg.children) out += selectionRdf(child);
  }
  return out;
}
