import { buildApp } from "@trellis/runtime";
import pc from "picocolors";
import type { Terminal } from "./terminal.ts";

/** `trellis build [path]`: builds (printing each step as it starts) and lists the API it produced. */
export async function runBuild(appDir: string, term: Terminal): Promise<void> {
  const summary = await term.step("Building", () =>
    buildApp(appDir, { onStep: (step) => term.info(pc.dim(`  ${step}`)) }),
  );
  for (const w of summary.warnings) term.warn(w);
  term.success(
    `Built ${pc.bold(summary.name)} (${summary.language}, compiled with ${summary.compiler}) → ${summary.outDir} ${pc.dim(`${(summary.componentBytes / 1024).toFixed(0)} KiB component, ${summary.durationMs} ms`)}`,
  );
  term.info(`Functions:\n${summary.fields.map((f) => `  ${f}`).join("\n")}`);
  term.info(`Schema: ${summary.outDir}/schema.graphql`);
  const site = summary.site;
  if (site) {
    term.info(
      `Front end: ${summary.outDir}/static ${pc.dim(`${site.files} files, ${formatKiB(site.bytes)}; ${site.precompressed.files} precompressed (.br, .gz); ${site.durationMs} ms`)}`,
    );
  }
}

function formatKiB(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KiB`;
}
