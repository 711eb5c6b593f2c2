/** N-Quad input that arrives in pieces (bulk files, request streams): chunks cut anywhere → edges. */
import type { Edge } from "./edge.ts";
import { LineParser, type NQuadOptions, parseLines } from "./rdf-parser.ts";

/**
 * Incremental N-Quad parsing for large inputs: feed text chunks cut anywhere; each call parses the complete
 * lines so far and keeps a trailing partial line for the next call.
 */
export class NQuadChunkParser {
  private rest = "";
  private readonly parser: LineParser;

  constructor(options: NQuadOptions = {}) {
    this.parser = new LineParser(options.op ?? "set", options.iriAsBlank === true);
  }

  /** Parses the complete lines now available; appends to and returns `out`. */
  push(chunk: string, out: Edge[] = []): Edge[] {
    const text = this.rest.length > 0 ? this.rest + chunk : chunk;
    const last = text.lastIndexOf("\n");
    if (last < 0) {
      this.rest = text;
      return out;
    }
    this.rest = text.slice(last + 1);
    parseLines(this.parser, text, 0, last, out);
    return out;
  }

  /** Parses the final line (input need not end with a newline). */
  end(out: Edge[] = []): Edge[] {
    const text = this.rest;
    this.rest = "";
    parseLines(this.parser, text, 0, text.length, out);
    return out;
  }
}

/** Parses a stream of text or UTF-8 chunks, yielding the edges of each chunk (empty batches are skipped). */
export async function* parseNQuadsStream(
  source: AsyncIterable<string | Uint8Array>,
  options: NQuadOptions = {},
): AsyncGenerator<Edge[]> {
  const parser = new NQuadChunkParser(options);
  const decoder = new TextDecoder();
  for await (const chunk of source) {
    const edges = parser.push(typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true }));
    if (edges.length > 0) yield edges;
  }
  const edges = parser.push(decoder.decode());
  parser.end(edges);
  if (edges.length > 0) yield edges;
}
