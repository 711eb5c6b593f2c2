/** The files of a build directory that `trellis build` writes and the runtime and platform read. */

/** The WebAssembly component: with the manifest, all a deployment is trusted with. */
export const COMPONENT_FILE = "app.wasm";
/** jco's glue and core modules, made from the component (by `trellis build`, and again by the platform). */
export const TRANSPILED_DIR = "transpiled";

/**
 * The front end, when trellis.json has `web`: `build/static/` holds the files exactly as Vite wrote them
 * (`index.html`, hashed assets under `assets/`, public files at their own paths), and next to each text
 * file where compression helps, its precompressed siblings `<file>.br` and `<file>.gz`
 * (`STATIC_ENCODINGS`). A sibling exists only when it is smaller than the file. Paths are relative to
 * this folder and use `/`.
 */
export const STATIC_DIR = "static";
/** The page served at `/` (and, with `web.spaFallback`, for paths that match no file). */
export const STATIC_INDEX_FILE = "index.html";
/** Vite's `build.assetsDir`: every file under it has a content hash in its name (cache it forever). */
export const STATIC_ASSETS_DIR = "assets";
/**
 * Vite's manifest (`build.manifest: true`), relative to `STATIC_DIR`: source entry → hashed output file
 * and its css/assets/imports. Build metadata for tools, not a page (the platform need not serve it).
 */
export const STATIC_VITE_MANIFEST = ".vite/manifest.json";
/** Precompressed siblings, in order of preference: `Content-Encoding` value → file suffix. */
export const STATIC_ENCODINGS = [
  { encoding: "br", suffix: ".br" },
  { encoding: "gzip", suffix: ".gz" },
] as const;
/** The most files a site may have, counting the files Vite wrote (not their `.br`/`.gz` siblings). */
export const STATIC_MAX_FILES = 10_000;
/** The most bytes a site may have, counting the files Vite wrote (not their `.br`/`.gz` siblings). */
export const STATIC_MAX_BYTES = 100 * 1024 * 1024;
