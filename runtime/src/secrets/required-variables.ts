import type { Manifest } from "../manifest/manifest-schema.ts";
import { placeholderNames, scanPlaceholders } from "../manifest/placeholder.ts";
import { secretFields } from "../manifest/secret-fields.ts";
import { envVarName } from "./env-var-name.ts";

/** One environment variable a connection needs. */
export interface RequiredVariable {
  connection: string;
  /** Where the placeholder is, inside the connection (e.g. `headers.Authorization`). */
  field: string;
  placeholder: string;
  variable: string;
}

/** Every variable the manifest's placeholders read, in manifest order (what a console's env tab lists). */
export function requiredVariables(manifest: Manifest): RequiredVariable[] {
  const out: RequiredVariable[] = [];
  for (const [connection, conn] of Object.entries(manifest.connections)) {
    for (const { field, value } of secretFields(conn)) {
      for (const p of scanPlaceholders(value).placeholders) {
        for (const placeholder of placeholderNames(p)) {
          out.push({ connection, field, placeholder, variable: envVarName(connection, placeholder) });
        }
      }
    }
  }
  return out;
}
