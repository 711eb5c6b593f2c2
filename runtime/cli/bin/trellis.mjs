#!/usr/bin/env node
// Through the repository's `npm run trellis -- …`, npm runs this from the repository's root: paths are
// the user's, relative to where they typed the command (INIT_CWD), as with the bin itself.
if (process.env.npm_lifecycle_event === "trellis" && process.env.INIT_CWD)
  process.chdir(process.env.INIT_CWD);
// Runs the compiled package (dist/); in a checkout of the repository, `npm run build` writes it.
const entry = new URL("../dist/cli.js", import.meta.url);
const cli = await import(entry.href).catch((error) => {
  if (error?.code !== "ERR_MODULE_NOT_FOUND" || error.url !== entry.href) throw error;
  console.error("trellis: dist/ is missing; in a checkout of the Trellis repository, run `npm run build`.");
  process.exit(1);
});
process.exitCode = await cli.runCli(process.argv.slice(2));
