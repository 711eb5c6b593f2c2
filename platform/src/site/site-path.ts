/**
 * The file a request path names inside a static site, as a key of the site's index (`assets/app.js`,
 * `index.html`), or undefined when the path cannot name a file of the site. Decoded exactly once (so
 * `%252e%252e` stays the literal name `%2e%2e`); refused: malformed escapes, NUL and other control
 * characters, backslashes, and `.`/`..` segments. A path ending in `/` names that folder's `index.html`.
 *
 * The result is only ever looked up in the index built from the deployment's own files, never joined onto
 * a folder and opened, so no request can reach a file outside the deployment whatever this lets through.
 */
export function sitePath(url: string): string | undefined {
  const query = url.indexOf("?");
  const raw = query === -1 ? url : url.slice(0, query);
  if (!raw.startsWith("/")) return undefined;
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    return undefined;
  }
  if (/[\u0000-\u001f\u007f\\]/.test(decoded)) return undefined;
  const segments = decoded.split("/").slice(1);
  const folder = segments[segments.length - 1] === "";
  const parts = segments.filter((s) => s !== "");
  if (parts.some((s) => s === "." || s === "..")) return undefined;
  if (folder) parts.push("index.html");
  return parts.join("/");
}

/** Whether the last segment of a site path looks like a file name (has an extension): `app.js`, not `users`. */
export function looksLikeFile(path: string): boolean {
  const name = path.slice(path.lastIndexOf("/") + 1);
  return /\.[A-Za-z0-9]+$/.test(name);
}
