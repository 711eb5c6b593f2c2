import type { LogEntry } from "./host-calls.ts";

/**
 * The log lines of one call (host `log` calls and the guest's stdout/stderr), bounded: once `maxBytes` of
 * messages are kept, further lines are counted, not kept, and one last line says how much was dropped.
 * A function printing in a loop costs the limit, not the platform's memory or its Activity storage.
 */
export class CallLog {
  readonly entries: LogEntry[] = [];
  private bytes = 0;
  private droppedLines = 0;
  private droppedBytes = 0;

  constructor(private readonly maxBytes: number) {}

  push(entry: LogEntry): void {
    const size = entry.message.length;
    if (this.droppedLines === 0 && this.bytes + size <= this.maxBytes) {
      this.entries.push(entry);
      this.bytes += size;
      return;
    }
    this.droppedLines++;
    this.droppedBytes += size;
  }

  /** The kept lines, and a warning line for what was dropped. */
  finish(): LogEntry[] {
    if (this.droppedLines === 0) return this.entries;
    return [
      ...this.entries,
      {
        level: "warning",
        message: `${this.droppedLines} more log lines (${this.droppedBytes} characters) were dropped: the limit is ${this.maxBytes} characters per call`,
      },
    ];
  }
}

/**
 * Roughly how many bytes a value takes once serialized (strings count their length), stopping as soon as
 * it passes `limit`: a guest's 500 MB result is refused in the worker instead of being copied to the main
 * thread and encoded as JSON there, where it would stall every app.
 */
export function sizeOver(value: unknown, limit: number): number | undefined {
  const total = roughSize(value, limit);
  return total > limit ? total : undefined;
}

/** Roughly how many bytes `value` takes once serialized, counted until the count passes `limit`. */
export function roughSize(value: unknown, limit = Number.POSITIVE_INFINITY): number {
  let total = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === "string") total += v.length + 2;
    else if (typeof v === "number" || typeof v === "bigint") total += 8;
    else if (typeof v === "boolean" || v === null || v === undefined) total += 4;
    else if (ArrayBuffer.isView(v)) total += v.byteLength * 4;
    else if (Array.isArray(v)) {
      total += 2;
      for (const item of v) stack.push(item);
    } else if (typeof v === "object") {
      for (const [key, item] of Object.entries(v)) {
        total += key.length + 4;
        stack.push(item);
      }
    }
    if (total > limit) return total;
  }
  return total;
}
