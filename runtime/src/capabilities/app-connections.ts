/**
 * The app's declared connections with their secrets filled in, as the capabilities reach them. Secrets are
 * resolved once, at creation (missing ones fail startup by name, or with `defer` fail only the calls
 * through the connections that need them); guests get response bodies and rows, never these settings.
 */
import type { Connection, Manifest } from "../manifest/manifest-schema.ts";
import { MissingSecretsError } from "../secrets/missing-secrets-error.ts";
import { type RequiredVariable, requiredVariables } from "../secrets/required-variables.ts";
import { type ResolvedConnections, resolveConnections } from "../secrets/resolve-connections.ts";

export class AppConnections {
  /** Variables that were unset at creation (only with `missingSecrets: "defer"`). */
  readonly missing: RequiredVariable[];
  /** The connections whose variables are all set, with their secrets filled. */
  readonly resolved: ResolvedConnections;
  /** Connections that cannot be used, with the variables each one lacks. */
  readonly unconfigured: ReadonlyMap<string, RequiredVariable[]>;
  private closed = false;

  /** Throws MissingSecretsError when a placeholder's variable is not set, unless `missingSecrets` is `defer`. */
  constructor(
    manifest: Manifest,
    env: Record<string, string | undefined>,
    missingSecrets: "throw" | "defer",
  ) {
    this.missing = requiredVariables(manifest).filter((v) => env[v.variable] === undefined);
    if (this.missing.length > 0 && missingSecrets !== "defer") throw new MissingSecretsError(this.missing);
    const unconfigured = new Map<string, RequiredVariable[]>();
    for (const v of this.missing)
      unconfigured.set(v.connection, [...(unconfigured.get(v.connection) ?? []), v]);
    this.unconfigured = unconfigured;
    this.resolved = resolveConnections(
      {
        ...manifest,
        connections: Object.fromEntries(
          Object.entries(manifest.connections).filter(([name]) => !unconfigured.has(name)),
        ),
      },
      env,
    );
  }

  /** Throws MissingSecretsError when connection `name` lacks variables. */
  requireConfigured(name: string): void {
    const vars = this.unconfigured.get(name);
    if (vars) throw new MissingSecretsError(vars);
  }

  /** Connection `name`, which must be declared, configured and of `type`; throws once closed. */
  get<T extends Connection["type"]>(name: string, type: T): Extract<Connection, { type: T }> {
    if (this.closed) throw new Error("the app's connections are closed");
    this.requireConfigured(name);
    const conn = Object.hasOwn(this.resolved, name) ? this.resolved[name] : undefined;
    if (!conn) throw new Error(`no connection "${name}" in trellis.json`);
    if (conn.type !== type) throw new Error(`connection "${name}" is a ${conn.type} connection, not ${type}`);
    return conn as Extract<Connection, { type: T }>;
  }

  /** From now on `get` refuses. */
  close(): void {
    this.closed = true;
  }
}
