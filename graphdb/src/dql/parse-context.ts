import type { VariableMap } from "./query-variables.ts";
import type { TokenStream } from "./token-stream.ts";

/** State shared by the sub-parsers of one request. */
export interface ParseContext {
  readonly ts: TokenStream;
  readonly vars: VariableMap;
  /** The request text (math expressions keep their source text). */
  readonly input: string;
}
