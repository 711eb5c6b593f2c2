import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { type ParseError, parse } from "jsonc-parser";

export interface RequiredVariable {
  variable: string;
  connection: string;
  placeholder: string;
}

/** Connection fields never substituted (addresses are configuration, not secrets). */
const NOT_SUBSTITUTED = new Set(["type", "baseUrl", "endpoint"]);
const PLACEHOLDER =
  /\{\{\s*(?:base64\(\s*([A-Za-z0-9_]+)\s*:\s*([A-Za-z0-9_]+)\s*\)|([A-Za-z0-9_]+))\s*\}\}/g;

/** The env var that fills `{{placeholder}}` of `connection`: TRELLIS_<CONNECTION>_<PLACEHOLDER>. */
export function variableName(connection: string, placeholder: string): string {
  return `TRELLIS_${connection.toUpperCase().replace(/-/g, "_")}_${placeholder}`;
}

/**
 * The env vars a build's manifest (`trellis.json`, or `modus.json`) asks for, one per placeholder in its
 * connections. Empty when the build has no readable manifest: the console then only lists saved vars.
 */
export async function requiredVariables(buildDir: string): Promise<RequiredVariable[]> {
  let text: string | undefined;
  for (const file of ["trellis.json", "modus.json"]) {
    text = await readFile(join(buildDir, file), "utf8").catch(() => undefined);
    if (text !== undefined) break;
  }
  if (text === undefined) return [];
  const errors: ParseError[] = [];
  const manifest = parse(text, errors, { allowTrailingComma: true }) as { connections?: unknown } | undefined;
  if (errors.length > 0 || typeof manifest?.connections !== "object" || manifest.connections === null)
    return [];
  const found = new Map<string, RequiredVariable>();
  for (const [connection, config] of Object.entries(manifest.connections as Record<string, unknown>)) {
    for (const value of stringsOf(config, true)) {
      for (const m of value.matchAll(PLACEHOLDER)) {
        for (const placeholder of [m[1], m[2], m[3]].filter((p): p is string => p !== undefined)) {
          const variable = variableName(connection, placeholder);
          found.set(variable, { variable, connection, placeholder });
        }
      }
    }
  }
  return [...found.values()].sort((a, b) => a.variable.localeCompare(b.variable));
}

function stringsOf(value: unknown, top: boolean): string[] {
  if (typeof value === "string") return [value];
  if (typeof value !== "object" || value === null) return [];
  return Object.entries(value).flatMap(([k, v]) =>
    top && NOT_SUBSTITUTED.has(k) ? [] : stringsOf(v, false),
  );
}
