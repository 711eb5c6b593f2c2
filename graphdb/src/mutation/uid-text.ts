/** Uids written as text (`<0x1a>`, `<26>` in N-Quads, `"uid"` values in JSON), with Dgraph's range checks. */
import { DgraphError } from "../core/errors.ts";
import { MAX_UID } from "../core/scalar.ts";
import { goParseUint, quickUint } from "../types/strconv.ts";
import type { NodeRef } from "./edge.ts";
import { numError } from "./num-error.ts";

/** The node of a parsed uid; throws Dgraph's error for 0 and for uids above `MAX_UID`. */
export function uidRef(uid: number, text: string): NodeRef {
  if (uid === 0) throw new DgraphError("UID must to be greater than 0");
  if (uid > MAX_UID) throw uidLimitError(text);
  return { kind: "uid", uid };
}

function uidLimitError(text: string): DgraphError {
  return new DgraphError(`Uid: [${text}] is above the largest supported uid [${MAX_UID}]`);
}

/**
 * A uid as written in JSON `"uid"` values and IRIs (Go `strconv.ParseUint(s, 0, 64)`): returns 0 for zero
 * (JSON treats that as "no uid"), throws Dgraph's strconv error on bad text.
 */
export function parseUidText(text: string): number {
  const quick = quickUint(text);
  if (quick !== undefined) return quick;
  const parsed = goParseUint(text);
  if (typeof parsed === "string") throw numError("ParseUint", text, parsed);
  if (parsed > BigInt(MAX_UID)) throw uidLimitError(text);
  return Number(parsed);
}
