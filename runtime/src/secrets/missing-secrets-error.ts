import type { RequiredVariable } from "./required-variables.ts";

/** Startup refuses to run with unfilled placeholders (Modus sends "" and fails later at the remote). */
export class MissingSecretsError extends Error {
  override name = "MissingSecretsError";
  constructor(readonly missing: RequiredVariable[]) {
    const lines = missing.map(
      (v) => `missing environment variable ${v.variable} (connection "${v.connection}", ${v.field})`,
    );
    super(
      `${lines.join("\n")}\n` +
        `Set ${missing.length === 1 ? "it" : "them"} in .env.dev.local in the app directory (NAME="value", one per line) ` +
        `for local development, or in the platform's environment variables for the app.`,
    );
  }

  /** The variable names, each once. */
  get variables(): string[] {
    return [...new Set(this.missing.map((v) => v.variable))];
  }
}
