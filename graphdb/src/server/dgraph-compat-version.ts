/**
 * The version both servers report (HTTP /health, gRPC CheckVersion); clients only check
 * `^v\d+\.\d+\.\d+` (and "1.0." for the legacy API).
 */
export const DGRAPH_COMPAT_VERSION = "v25.0.0";
