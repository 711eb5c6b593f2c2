/**
 * The API explorer served at /explorer: one dependency-free HTML page (no build step) that lists the
 * app's functions, calls them over the app's GraphQL endpoint and tests connections. It reads
 * /explorer/api/{endpoints,functions,connections}. Data is only ever inserted with textContent.
 *
 * The page is the package's `assets/explorer.html` with its stylesheet and script (`explorer.css`,
 * `explorer.js`) inlined, so it is served as one response. `../../assets/` is the same folder from `src/`
 * (sources) and from `dist/` (compiled, packed), so no build step copies it.
 */
import { readFileSync } from "node:fs";

const ASSETS = new URL("../../assets/", import.meta.url);

function asset(name: string): string {
  return readFileSync(new URL(name, ASSETS), "utf8");
}

/** The explorer's script, exported so tests can check it parses. */
export function explorerScript(): string {
  return asset("explorer.js");
}

let page: string | undefined;

/** The complete explorer page. */
export function explorerPageHtml(): string {
  page ??= inline(
    inline(
      asset("explorer.html"),
      `<link rel="stylesheet" href="explorer.css">`,
      `<style>\n${asset("explorer.css")}</style>`,
    ),
    `<script src="explorer.js"></script>`,
    `<script>\n${explorerScript()}</script>`,
  );
  return page;
}

function inline(html: string, tag: string, replacement: string): string {
  if (!html.includes(tag)) throw new Error(`explorer.html has no ${tag}`);
  return html.replace(tag, () => replacement);
}
