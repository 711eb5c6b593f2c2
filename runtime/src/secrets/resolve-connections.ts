import { parseGrpcTarget } from "@trellis/graphdb";
import type { Connection, Manifest } from "../manifest/manifest-schema.ts";
import { fillPlaceholders } from "../manifest/placeholder.ts";
import { envVarName } from "./env-var-name.ts";
import { MissingSecretsError } from "./missing-secrets-error.ts";
import { requiredVariables } from "./required-variables.ts";

/** Connections with every placeholder filled. Host-side only: these values never enter a guest. */
export type ResolvedConnections = Record<string, Connection>;

/**
 * Fills every placeholder from `env`, or throws MissingSecretsError naming every unset variable (an empty
 * value counts as set). Filled addresses are checked here so a bad secret fails at startup; their errors
 * show the manifest's text, never the secret.
 */
export function resolveConnections(
  manifest: Manifest,
  env: Record<string, string | undefined>,
): ResolvedConnections {
  const missing = requiredVariables(manifest).filter((v) => env[v.variable] === undefined);
  if (missing.length > 0) throw new MissingSecretsError(missing);

  const out: ResolvedConnections = {};
  for (const [name, conn] of Object.entries(manifest.connections)) {
    const fill = (value: string) => fillPlaceholders(value, (p) => env[envVarName(name, p)]);
    if (conn.type === "http") {
      out[name] = {
        ...conn,
        headers: mapValues(conn.headers, fill),
        queryParameters: mapValues(conn.queryParameters, fill),
      };
    } else if (conn.type === "relationaldb") {
      const connStr = fill(conn.connStr);
      checkFilled(name, "connStr", conn.connStr, connStr, () => {
        const url = new URL(connStr);
        if (!/^(postgres|postgresql|mysql|mariadb):$/.test(url.protocol))
          throw new Error("unsupported scheme");
      });
      out[name] = { type: "relationaldb", connStr };
    } else {
      const grpcTarget = fill(conn.grpcTarget);
      checkFilled(name, "grpcTarget", conn.grpcTarget, grpcTarget, () => parseGrpcTarget(grpcTarget));
      out[name] =
        conn.key === undefined
          ? { type: "graphdb", grpcTarget }
          : { type: "graphdb", grpcTarget, key: fill(conn.key) };
    }
  }
  return out;
}

function mapValues(record: Record<string, string>, f: (v: string) => string): Record<string, string> {
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, f(v)]));
}

function checkFilled(connection: string, field: string, template: string, filled: string, check: () => void) {
  try {
    check();
  } catch (e) {
    const message = (e as Error).message;
    const reason = filled === "" ? message : message.replaceAll(filled, template);
    throw new Error(
      `connections.${connection}.${field}: ${JSON.stringify(template)} is not valid once its placeholders are filled: ${reason}`,
    );
  }
}
