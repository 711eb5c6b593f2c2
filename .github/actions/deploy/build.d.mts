/** Bundles the action into `outfile` (default dist/index.js); resolves to the file written. */
export function bundleAction(outfile?: string): Promise<string>;
