/** A one-line progress indicator on stderr (redrawn in place on a TTY, sparse lines otherwise). */

export class Progress {
  private lastDraw = 0;
  private readonly started = performance.now();
  private readonly tty = process.stderr.isTTY === true;

  constructor(private readonly label: string) {}

  update(done: number, total: number, unit = ""): void {
    const now = performance.now();
    const final = done >= total;
    if (!final && now - this.lastDraw < (this.tty ? 200 : 5000)) return;
    this.lastDraw = now;
    const pct = total > 0 ? Math.floor((100 * done) / total) : 100;
    const secs = (now - this.started) / 1000;
    const rate = secs > 0 ? Math.round(done / secs) : 0;
    const line = `  ${this.label}: ${done.toLocaleString("en-US")}/${total.toLocaleString("en-US")}${unit} (${pct}%, ${secs.toFixed(1)} s, ${rate.toLocaleString("en-US")}${unit}/s)`;
    if (this.tty) process.stderr.write(`\r\x1b[K${line}${final ? "\n" : ""}`);
    else process.stderr.write(`${line}\n`);
  }

  done(message?: string): void {
    const secs = ((performance.now() - this.started) / 1000).toFixed(1);
    if (this.tty) process.stderr.write("\r\x1b[K");
    process.stderr.write(`  ${this.label}: ${message ?? "done"} (${secs} s)\n`);
  }
}

export function log(message: string): void {
  process.stderr.write(`${message}\n`);
}
