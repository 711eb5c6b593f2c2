/** The files of a build directory that `trellis build` writes and the runtime and platform read. */

/** The WebAssembly component: with the manifest, all a deployment is trusted with. */
export const COMPONENT_FILE = "app.wasm";
/** jco's glue and core modules, made from the component (by `trellis build`, and again by the platform). */
export const TRANSPILED_DIR = "transpiled";
