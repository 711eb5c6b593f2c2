/** One problem in a manifest, at a JSON path like `connections.my-api.baseUrl` (or `file:line:col`). */
export interface ManifestProblem {
  path: string;
  message: string;
}

/** Every problem found in a manifest at once, one `<path>: <message>` line each. */
export class ManifestError extends Error {
  override name = "ManifestError";
  constructor(
    readonly problems: ManifestProblem[],
    readonly file = "trellis.json",
  ) {
    super(
      `invalid ${file} (${problems.length} problem${problems.length === 1 ? "" : "s"}):\n` +
        problems.map((p) => `  ${p.path}: ${p.message}`).join("\n"),
    );
  }
}
