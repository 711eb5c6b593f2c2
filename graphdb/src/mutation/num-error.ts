import { DgraphError } from "../core/errors.ts";
import { type NumberFailure, numErrorText } from "../types/strconv.ts";

/** Go's `*strconv.NumError` as a DgraphError, quoting the input as the mutation parsers always have. */
export function numError(fn: string, s: string, failure: NumberFailure): DgraphError {
  return new DgraphError(numErrorText(fn, s, failure, "json"));
}
