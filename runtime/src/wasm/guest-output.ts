import type { LogEntry, LogLevel } from "./host-calls.ts";

/**
 * Turns what the guest writes to WASI stdout/stderr into log lines of the current call. preview2-shim
 * writes guest stdout/stderr straight to `process.stdout`/`process.stderr` of the thread it runs in, so
 * in an instance worker (which prints nothing else) replacing their `write` captures exactly the guest.
 * stderr lines are warnings, not errors: Go's `log` package writes there by default.
 */
export class GuestOutput {
  private readonly partial: Record<"stdout" | "stderr", string> = { stdout: "", stderr: "" };
  private readonly decoder = new TextDecoder();
  /** The last stderr lines of the call, kept for trap messages (a guest panic explains the trap). */
  private stderrTail: string[] = [];
  /** The first line of the call that reports a crash (`panic: …`, `fatal error: …`), for the same. */
  private crashLine: string | undefined;

  constructor(private readonly sink: () => { push(entry: LogEntry): void }) {
    this.capture(process.stdout, "stdout");
    this.capture(process.stderr, "stderr");
  }

  private capture(stream: NodeJS.WriteStream, name: "stdout" | "stderr"): void {
    stream.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      const text = typeof chunk === "string" ? chunk : this.decoder.decode(chunk);
      const lines = (this.partial[name] + text).split("\n");
      this.partial[name] = lines.pop() ?? "";
      for (const line of lines) this.emit(name, line);
      const callback = rest.find((r) => typeof r === "function") as (() => void) | undefined;
      callback?.();
      return true;
    }) as typeof stream.write;
  }

  private emit(name: "stdout" | "stderr", line: string): void {
    if (line.trim() === "") return;
    const level: LogLevel = name === "stdout" ? "info" : "warning";
    this.sink().push({ level, message: line });
    if (name === "stderr") {
      this.stderrTail = [...this.stderrTail.slice(-4), line];
      if (this.crashLine === undefined && CRASH_LINE.test(line)) this.crashLine = line.trim();
    }
  }

  /**
   * Flushes unterminated lines at the end of a call and returns (then forgets) what stderr said: the
   * crash line if there was one, then the last lines.
   */
  endCall(): string[] {
    for (const name of ["stdout", "stderr"] as const) {
      if (this.partial[name] !== "") this.emit(name, this.partial[name]);
      this.partial[name] = "";
    }
    const tail =
      this.crashLine && !this.stderrTail.includes(this.crashLine)
        ? [this.crashLine, "…", ...this.stderrTail]
        : this.stderrTail;
    this.stderrTail = [];
    this.crashLine = undefined;
    return tail;
  }
}

/** How Go (and TinyGo) report a crash: `panic: <value>`, `fatal error: <reason>`. */
const CRASH_LINE = /^\s*(panic: |fatal error: |runtime: out of memory)/;
