/**
 * @trellis/runtime — builds apps into WebAssembly components, loads them in a sandboxed worker pool, and
 * serves their functions as GraphQL. Used by the `trellis` CLI (@trellis/cli) and by the platform.
 */

// Serving the graph database's @lambda fields with an app's functions
export {
  type AppLambdaOptions,
  createAppLambdaCaller,
  DEFAULT_MAX_LAMBDA_PARENTS,
  LambdaFunctionError,
  lambdaMapProblem,
} from "./app/app-lambda-caller.ts";
export {
  STATIC_ASSETS_DIR,
  STATIC_DIR,
  STATIC_ENCODINGS,
  STATIC_INDEX_FILE,
  STATIC_MAX_BYTES,
  STATIC_MAX_FILES,
  STATIC_VITE_MANIFEST,
} from "./app/build-layout.ts";
// Loading and serving built apps
export type { LoadAppOptions, LoadedApp } from "./app/load-app.ts";
export { COMPONENT_FILE, InvalidBuildError, loadApp, TRANSPILED_DIR, validateBuild } from "./app/load-app.ts";
export {
  type LimitCeilings,
  type PrepareBuildOptions,
  type PreparedBuild,
  prepareUploadedBuild,
} from "./app/prepare-build.ts";
// Users' JWTs on `auth: "jwt"` endpoints (dev server and platform gateway alike)
export { JWT_ENV, type JwtSettings, JwtSettingsError, readJwtSettings } from "./auth/jwt-settings.ts";
export {
  createJwtVerifier,
  JwtRejected,
  type JwtVerifier,
  type JwtVerifierOptions,
  looksLikeJwt,
} from "./auth/jwt-verifier.ts";
// Connections and the host side of the WIT `host` interface
export type { ConnectionStatus, HostDispatcher } from "./capabilities/host-dispatcher.ts";
export { createHostDispatcher } from "./capabilities/host-dispatcher.ts";
// Building
export type { BuildOptions, BuildSummary } from "./compiler/build-app.ts";
export { buildApp, detectLanguage } from "./compiler/build-app.ts";
export { GoSignatureError } from "./compiler/go/go-builder.ts";
export { checkGoToolchain, GoToolchainError } from "./compiler/go/go-toolchain.ts";
export { BuildError } from "./compiler/ts-build-error.ts";
// Deploying
export type {
  DeployBuildOptions,
  DeployBuildResult,
  DeploymentRecord,
  RemovePreviewOptions,
} from "./deploy/deploy-client.ts";
export { DeployError, deployBuild, packBuild, removePreview } from "./deploy/deploy-client.ts";
export { type BuildStatus, type DevApp, type DevServer, startDevServer } from "./dev/dev-server.ts";
// Egress: where deployed apps' connections may go
export { type AllowEntry, EgressAllowError, parseEgressAllow } from "./egress/egress-allow.ts";
export {
  type EgressMode,
  type EgressOptions,
  EgressPolicy,
  type HostResolver,
  PERMISSIVE_EGRESS,
} from "./egress/egress-policy.ts";
export { EGRESS_ALLOW_SETTING, EgressRefusedError, egressRefusal } from "./egress/egress-refused.ts";
export { createGuardedFetch, type GuardedFetch, type OutboundFetch } from "./egress/guarded-fetch.ts";
export { connectGuarded, GuardedSocket } from "./egress/guarded-socket.ts";
export { exampleOperation } from "./graphql/example-operation.ts";
export { newExecutionId } from "./graphql/execution-id.ts";
// GraphQL
export type { ExecutionErrorCode, ExecutionRecord } from "./graphql/execution-record.ts";
export { createGraphQLHandler, type RequestAuth } from "./graphql/graphql-handler.ts";
export { DEFAULT_OPERATION_LIMITS, type OperationLimits } from "./graphql/operation-limits.ts";
export { buildAppSchema, SchemaBuildError } from "./graphql/schema-builder.ts";
export { SCHEMA_FILE_NAME } from "./graphql/schema-file.ts";
// Manifest and secrets
export { loadManifest, MANIFEST_FILE } from "./manifest/load-manifest.ts";
export { ManifestError } from "./manifest/manifest-error.ts";
export type { Connection, Manifest } from "./manifest/manifest-schema.ts";
export { parseManifest } from "./manifest/parse-manifest.ts";
// Memory bounds of requests
export {
  appMemoryPool,
  DEFAULT_MEMORY_LIMITS,
  MEMORY_LIMIT_SETTINGS,
  type MemoryLimits,
  type MemoryPool,
  memoryLimitsFromEnv,
  RequestMemory,
  totalMemoryPool,
} from "./memory/memory-budget.ts";
// Scaffolding apps from the starter templates
export {
  type AppLanguage,
  createApp,
  NewAppError,
  type NewAppOptions,
  parseLanguage,
  TEMPLATE_ROOT,
} from "./scaffold/create-app.ts";
export { VENDOR_DIR, type VendoredPackage, vendorTrellisPackages } from "./scaffold/vendor-packages.ts";
export { envFileNames, loadEnvFiles } from "./secrets/env-files.ts";
export { appSecretVarName, envVarName } from "./secrets/env-var-name.ts";
export { MissingSecretsError } from "./secrets/missing-secrets-error.ts";
export type { RequiredVariable } from "./secrets/required-variables.ts";
export { requiredVariables } from "./secrets/required-variables.ts";
// WebAssembly host
export type { FunctionInvoker, InvokeOutcome } from "./wasm/function-invoker.ts";
export type { HostCalls, JwtClaims, LogEntry } from "./wasm/host-calls.ts";
export { transpileComponent } from "./wasm/transpile-component.ts";
export {
  createWorkerPool,
  type WorkerPoolInvoker,
  type WorkerPoolOptions,
  type WorkerPoolStats,
} from "./wasm/worker-pool.ts";
export { parseWorldWit, readAppWorld, WitParseError } from "./wit/wit-parser.ts";
export type { AppWorld, WitFunction, WitType } from "./wit/wit-types.ts";
