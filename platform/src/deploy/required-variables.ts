import { loadManifest, requiredVariables as manifestVariables } from "@trellis/runtime";

export interface RequiredVariable {
  variable: string;
  connection: string;
  placeholder: string;
}

/**
 * The env vars a deployed build's manifest asks for (the runtime's own rules: which fields take
 * placeholders, how a variable is named), one entry per variable. Empty when the manifest cannot be read:
 * the console then only lists saved vars.
 */
export async function requiredVariables(buildDir: string): Promise<RequiredVariable[]> {
  const { manifest } = await loadManifest(buildDir);
  const found = new Map<string, RequiredVariable>();
  for (const { variable, connection, placeholder } of manifestVariables(manifest)) {
    found.set(variable, { variable, connection, placeholder });
  }
  return [...found.values()].sort((a, b) => a.variable.localeCompare(b.variable));
}
