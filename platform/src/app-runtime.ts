import type { LambdaCaller } from "@trellis/graphdb";
import type { EgressOptions } from "@trellis/runtime";

/**
 * The seam between the platform and the function runtime. The platform never loads a build itself: it
 * asks an AppRuntime to validate a build directory and to serve it. `@trellis/runtime` implements it for
 * WebAssembly builds; the platform tests use a small graphql-yoga implementation.
 */

export interface LogLine {
  level: string;
  message: string;
}

/** One function execution, reported by a loaded app for the Activity view. */
export interface ExecutionRecord {
  executionId: string;
  function: string;
  status: "success" | "error";
  durationMs: number;
  /** ISO 8601 timestamp of the call's start. */
  startedAt: string;
  logs: LogLine[];
  error?: string;
  /** The graph database's `@lambda` field (`Type.field`) the call served; absent for gateway calls. */
  lambda?: string;
}

export interface LoadApp {
  appName: string;
  /** The app's decrypted env vars (names like TRELLIS_<CONNECTION>_<PLACEHOLDER>). */
  env: Record<string, string>;
  /**
   * The app's own namespace of the platform's graph database, as a `dgraph://` connection string with
   * its credentials: the app's `graphdb` connections to a loopback address (`localhost:9080`) go there.
   * Absent when the platform serves no graph database.
   */
  graphdb?: string;
  /**
   * Where the app's connections may go: the platform's egress policy (plain data). The runtime must
   * refuse what it refuses; absent means the `deployed` policy without allow entries.
   */
  egress?: EgressOptions;
  onExecution: (execution: ExecutionRecord) => void;
}

/** Who a request comes from, as the gateway verified it. */
export interface RequestAuth {
  /** The verified claims of the user JWT that authorized it; its function calls see them (`jwt-claims`). */
  jwtClaims?: Record<string, unknown>;
}

/** A build serving requests. */
export interface LoadedApp {
  /**
   * Answers a GraphQL request (the gateway has already authenticated it, `auth` says as whom) sent to the
   * declared endpoint at `endpointPath`: one that lists `functions` serves only those.
   */
  fetch(request: Request, auth?: RequestAuth, endpointPath?: string): Promise<Response>;
  /**
   * Serves the app's namespace's `@lambda` fields with its functions (trellis.json's `lambdas`); absent
   * when the runtime cannot. Each call is reported through `onExecution` like a GraphQL call.
   */
  lambda?: LambdaCaller;
  /** Releases workers and instances (scale to zero); the platform calls loadApp again on the next request. */
  unload(): Promise<void>;
  /** Final shutdown: like unload, and the app will not be used again. */
  close(): Promise<void>;
}

export interface AppRuntime {
  /**
   * Makes an uploaded build servable or rejects it with a clear message: trusts only its component and
   * manifest (never code that came with the upload), checks they load and generate a schema, and proves
   * the component instantiates and answers in a throwaway sandbox.
   */
  prepareBuild(buildDir: string): Promise<{ functions: string[] }>;
  loadApp(buildDir: string, options: LoadApp): Promise<LoadedApp>;
}
