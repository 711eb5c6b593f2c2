/**
 * Positions in lexer and parser errors, as Dgraph writes them: lines count from 1, columns are 0-based
 * UTF-8 byte offsets within the line.
 */

/** `line L column C: text` — an error at a token. */
export function atLineColumn(line: number, column: number, text: string): string {
  return `line ${line} column ${column}: ${text}`;
}

/** `while lexing <input> at line L column C: text` — a lexer error; the whole input is quoted, as in Dgraph. */
export function whileLexing(input: string, line: number, column: number, text: string): string {
  return `while lexing ${input} at ${atLineColumn(line, column, text)}`;
}

/**
 * UTF-8 byte column of a UTF-16 offset, counted incrementally from the last position asked on the same
 * line, so that a lexer asking at every token stays linear in the input.
 */
export class ByteColumns {
  private lineStart = -1;
  private pos = 0;
  private bytes = 0;

  constructor(private readonly input: string) {}

  /** The byte column of `pos` on the line that starts at `lineStart`. */
  at(lineStart: number, pos: number): number {
    if (this.lineStart !== lineStart || this.pos > pos) {
      this.lineStart = lineStart;
      this.pos = lineStart;
      this.bytes = 0;
    }
    this.bytes += Buffer.byteLength(this.input.slice(this.pos, pos), "utf8");
    this.pos = pos;
    return this.bytes;
  }
}
