/**
 * A build that cannot produce a component. `diagnostics` are `file:line:col: message` lines (paths relative
 * to the app directory), all of them at once, so an author fixes every problem in one pass.
 */
export class BuildError extends Error {
  readonly diagnostics: string[];

  constructor(summary: string, diagnostics: string[] = []) {
    super(diagnostics.length > 0 ? `${summary}\n${diagnostics.join("\n")}` : summary);
    this.name = "BuildError";
    this.diagnostics = diagnostics;
  }
}
