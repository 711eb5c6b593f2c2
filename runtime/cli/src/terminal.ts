import ora, { type Ora } from "ora";
import pc from "picocolors";

/**
 * Human output of the CLI: a spinner per long step when stderr is a terminal, plain `• step` lines
 * otherwise (CI logs, tests), and errors that say what to do next.
 */
export interface Terminal {
  step<T>(label: string, work: () => Promise<T>): Promise<T>;
  info(line: string): void;
  success(line: string): void;
  warn(line: string): void;
  error(line: string): void;
}

export function createTerminal(
  out: NodeJS.WritableStream = process.stdout,
  err: NodeJS.WriteStream = process.stderr,
): Terminal {
  const interactive = Boolean(err.isTTY) && !process.env.CI;
  const write = (s: NodeJS.WritableStream, line: string) => s.write(`${line}\n`);
  return {
    async step(label, work) {
      const started = Date.now();
      let spinner: Ora | undefined;
      if (interactive) spinner = ora({ text: label, stream: err }).start();
      else write(err, pc.dim(`• ${label}…`));
      try {
        const result = await work();
        const took = pc.dim(`(${Date.now() - started} ms)`);
        if (spinner) spinner.succeed(`${label} ${took}`);
        else write(err, `${pc.green("✔")} ${label} ${took}`);
        return result;
      } catch (e) {
        if (spinner) spinner.fail(label);
        else write(err, `${pc.red("✖")} ${label}`);
        throw e;
      }
    },
    info: (line) => write(out, line),
    success: (line) => write(out, `${pc.green("✔")} ${line}`),
    warn: (line) => write(err, `${pc.yellow("!")} ${line}`),
    error: (line) => write(err, `${pc.red("✖")} ${line}`),
  };
}
