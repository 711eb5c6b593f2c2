import type { Manifest } from "../manifest/manifest-schema.ts";

/**
 * An endpoint may serve only some of the app's functions (`"functions": [...]` in trellis.json): a public
 * endpoint a web page calls without a key, beside the keyed `/graphql` that serves them all. Its GraphQL
 * schema holds only those fields (and the types they use), so the others can neither be called nor seen.
 */

/** The functions each endpoint path serves, for the endpoints that list them. */
export function functionsByPath(manifest: Manifest): ReadonlyMap<string, readonly string[]> {
  const out = new Map<string, readonly string[]>();
  for (const endpoint of Object.values(manifest.endpoints)) {
    if (endpoint.functions !== undefined) out.set(endpoint.path, endpoint.functions);
  }
  return out;
}

/**
 * Why the endpoints' `functions` cannot be served by functions of these names (GraphQL field names), or
 * undefined when they can. Checked when an app is built, deployed and loaded.
 */
export function endpointFunctionsProblem(
  manifest: Manifest,
  functions: readonly string[],
): string | undefined {
  const known = new Set(functions);
  for (const [name, endpoint] of Object.entries(manifest.endpoints)) {
    const unknown = (endpoint.functions ?? []).filter((f) => !known.has(f));
    if (unknown.length === 0) continue;
    const available = functions.length > 0 ? functions.join(", ") : "none";
    return `trellis.json endpoint "${name}" lists functions the app does not export (${unknown.join(", ")}); its functions are: ${available}`;
  }
  return undefined;
}
