/** The prefix of every variable Trellis reads for an app. */
export const ENV_PREFIX = "TRELLIS_";

/**
 * The environment variable that fills `{{placeholder}}` of connection `connection`:
 * `TRELLIS_<CONNECTION>_<PLACEHOLDER>`, the connection name upper-cased with `-` → `_`, the placeholder as
 * written (case-sensitive, as Modus reads it). `openai-like` + `API_KEY` → `TRELLIS_OPENAI_LIKE_API_KEY`.
 */
export function envVarName(connection: string, placeholder: string): string {
  return `${ENV_PREFIX}${connection.toUpperCase().replaceAll("-", "_")}_${placeholder}`;
}

/** The variable holding app secret `name` (`TRELLIS_APP_<NAME>`), the only secrets guests may read. */
export function appSecretVarName(name: string): string {
  return `${ENV_PREFIX}APP_${name}`;
}
