/**
 * Typed client for the platform's control-plane HTTP API (the contract shared with `platform/`).
 * Every call sends the admin token; failures become `ApiError` carrying the contract's error code so
 * views can show the server's message and the app can return to sign-in on 401.
 */

export type AppStatus = "running" | "idle" | "not-deployed";

export interface App {
  name: string;
  /** The app's GraphQL endpoint (…/graphql). */
  url: string;
  status: AppStatus;
  activeDeploymentId: string | null;
  createdAt: string;
  lastRequestAt: string | null;
  functions: string[];
  /** A ready-to-run operation on the live deployment's schema, required arguments filled; null without one. */
  exampleOperation: string | null;
  /** Where the live deployment's pages are served; null when it has no front end. */
  siteUrl: string | null;
}

export interface EnvVar {
  name: string;
  maskedValue: string;
  updatedAt: string;
}

/** A variable the app's manifest needs (filled into a connection placeholder). */
export interface RequiredEnvVar {
  variable: string;
  connection: string;
  placeholder: string;
  set: boolean;
}

export interface ApiKey {
  id: string;
  name: string;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

/**
 * "active": production, live; "previous": production, a rollback target; "preview": the live preview of
 * its branch; "failed": rejected at deploy.
 */
export type DeploymentStatus = "active" | "previous" | "failed" | "preview";

/** What a deployment's static site holds (the files Vite wrote, not their precompressed siblings). */
export interface DeploymentSite {
  files: number;
  bytes: number;
  hasIndex: boolean;
}

export interface Deployment {
  id: string;
  status: DeploymentStatus;
  createdAt: string;
  source: "cli" | "action" | "api";
  message: string | null;
  functions: string[];
  /** The branch it was deployed from, when the deploy named one. */
  branch: string | null;
  /** Its preview's name when deployed from a branch other than main; null for production. */
  preview: string | null;
  /** Where a live preview answers (pages and functions); null otherwise. */
  previewUrl: string | null;
  /** Its static site; null when it has none. */
  site: DeploymentSite | null;
}

export interface ExecutionLog {
  level: string;
  message: string;
}

export interface Execution {
  executionId: string;
  function: string;
  status: "success" | "error";
  durationMs: number;
  startedAt: string;
  logs: ExecutionLog[];
  error: string | null;
  /** The graph database's `@lambda` field (`Type.field`) the call served; null for API calls. */
  lambda?: string | null;
}

export interface ActivityPage {
  executions: Execution[];
  nextCursor: string | null;
}

export interface ActivityFilter {
  status?: "success" | "error";
  function?: string;
  before?: string;
  limit?: number;
}

/** Dgraph `schema {}` response shape. */
export interface GraphSchema {
  schema: {
    predicate: string;
    type?: string;
    index?: boolean;
    tokenizer?: string[];
    list?: boolean;
    reverse?: boolean;
    upsert?: boolean;
    count?: boolean;
    lang?: boolean;
  }[];
  types: { name: string; fields: { name: string }[] }[];
}

/** The app's GraphQL schema: the SDL as given and Dgraph's generated schema (null when none is set). */
export interface GraphQLSchemaState {
  schema: string | null;
  generatedSchema: string | null;
}

/** One `@lambda` field of the app's graph, or one trellis.json `lambdas` entry, and the function serving it. */
export interface LambdaField {
  /** `Type.field`. */
  field: string;
  /** The function trellis.json maps it to; null when none. */
  function: string | null;
  declared: "schema+manifest" | "schema" | "manifest";
  /** The active deployment exports `function`. */
  functionExists: boolean;
  /** Why no app function serves it; null when one does. */
  problem: string | null;
}

/** The app's graph as an Apollo Federation subgraph (GET …/graph/federation). */
export interface GraphFederation {
  /** Some type has `@key`. */
  enabled: boolean;
  /** What `_service { sdl }` answers a gateway; null when federation is off. */
  sdl: string | null;
  schemaError: string | null;
  deploymentId: string | null;
  manifestError: string | null;
  lambdaFields: LambdaField[];
}

/** One reason a GraphQL schema was refused: Dgraph's text, and where in the SDL when it is known. */
export interface SchemaProblem {
  message: string;
  line: number | null;
  column: number | null;
}

export interface GraphQLRequest {
  query: string;
  variables?: Record<string, unknown> | null;
  operationName?: string | null;
}

/** A GraphQL response, as the server sent it. */
export interface GraphQLResponse {
  data?: Record<string, unknown> | null;
  errors?: { message: string; locations?: { line: number; column: number }[]; path?: unknown[] }[];
  extensions?: Record<string, unknown>;
}

export type ApiErrorCode =
  | "NOT_FOUND"
  | "BAD_REQUEST"
  | "UNAUTHORIZED"
  | "CONFLICT"
  | "DEPLOY_REJECTED"
  | "INTERNAL"
  | "NETWORK";

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ApiErrorCode,
    message: string,
    /** A refused GraphQL schema's problems, each at its SDL line. */
    readonly problems: SchemaProblem[] = [],
  ) {
    super(message);
    this.name = "ApiError";
  }
}

/** Control-plane client bound to one admin token; `onUnauthorized` runs on any 401. */
export class ApiClient {
  constructor(
    private readonly token: string,
    private readonly onUnauthorized: (message: string) => void = () => {},
    private readonly baseUrl = "",
  ) {}

  checkSession(): Promise<{ ok: true }> {
    return this.request("GET", "/api/session");
  }

  async listApps(): Promise<App[]> {
    return (await this.request<{ apps: App[] }>("GET", "/api/apps")).apps;
  }

  createApp(name: string): Promise<{ app: App; deployToken: string }> {
    return this.request("POST", "/api/apps", { name });
  }

  async getApp(app: string): Promise<App> {
    return (await this.request<{ app: App }>("GET", `/api/apps/${enc(app)}`)).app;
  }

  async deleteApp(app: string): Promise<void> {
    await this.request("DELETE", `/api/apps/${enc(app)}`);
  }

  listEnv(app: string): Promise<{ vars: EnvVar[]; required: RequiredEnvVar[] }> {
    return this.request("GET", `/api/apps/${enc(app)}/env`);
  }

  async setEnv(app: string, name: string, value: string): Promise<EnvVar> {
    return (await this.request<{ var: EnvVar }>("PUT", `/api/apps/${enc(app)}/env/${enc(name)}`, { value }))
      .var;
  }

  async deleteEnv(app: string, name: string): Promise<void> {
    await this.request("DELETE", `/api/apps/${enc(app)}/env/${enc(name)}`);
  }

  async listKeys(app: string): Promise<ApiKey[]> {
    return (await this.request<{ keys: ApiKey[] }>("GET", `/api/apps/${enc(app)}/keys`)).keys;
  }

  createKey(app: string, name: string): Promise<{ key: ApiKey; secret: string }> {
    return this.request("POST", `/api/apps/${enc(app)}/keys`, { name });
  }

  async revokeKey(app: string, id: string): Promise<void> {
    await this.request("DELETE", `/api/apps/${enc(app)}/keys/${enc(id)}`);
  }

  async rotateDeployToken(app: string): Promise<string> {
    return (await this.request<{ deployToken: string }>("POST", `/api/apps/${enc(app)}/deploy-token`))
      .deployToken;
  }

  async listDeployments(app: string): Promise<Deployment[]> {
    return (await this.request<{ deployments: Deployment[] }>("GET", `/api/apps/${enc(app)}/deployments`))
      .deployments;
  }

  async rollback(app: string, deploymentId: string): Promise<Deployment> {
    const path = `/api/apps/${enc(app)}/deployments/${enc(deploymentId)}/rollback`;
    return (await this.request<{ deployment: Deployment }>("POST", path)).deployment;
  }

  /** Removes a deployment other than the live one, such as a preview (its URL stops answering). */
  async removeDeployment(app: string, deploymentId: string): Promise<Deployment> {
    const path = `/api/apps/${enc(app)}/deployments/${enc(deploymentId)}`;
    return (await this.request<{ deployment: Deployment }>("DELETE", path)).deployment;
  }

  listActivity(app: string, filter: ActivityFilter = {}): Promise<ActivityPage> {
    const params = new URLSearchParams({ limit: String(filter.limit ?? 50) });
    if (filter.before) params.set("before", filter.before);
    if (filter.status) params.set("status", filter.status);
    if (filter.function) params.set("function", filter.function);
    return this.request("GET", `/api/apps/${enc(app)}/activity?${params}`);
  }

  /** DQL in the app's own namespace of the platform's graph database. */
  graphQuery(app: string, query: string): Promise<unknown> {
    return this.request("POST", `/api/apps/${enc(app)}/graph/query`, { query });
  }

  graphSchema(app: string): Promise<GraphSchema> {
    return this.request("GET", `/api/apps/${enc(app)}/graph/schema`);
  }

  /** The app's graph as Dgraph's export files in a .tar.gz: the archive and its file name. */
  async graphExport(app: string, format: "rdf" | "json"): Promise<{ blob: Blob; filename: string }> {
    const path = `/api/apps/${enc(app)}/graph/export?format=${format}`;
    const res = await fetch(this.baseUrl + path, { headers: { Authorization: `Bearer ${this.token}` } });
    if (!res.ok) {
      const body = (await res.json().catch(() => undefined)) as { error?: { message?: string } } | undefined;
      const message = body?.error?.message ?? `GET ${path} failed with HTTP ${res.status}`;
      if (res.status === 401) this.onUnauthorized(message);
      throw new ApiError(res.status, codeForStatus(res.status), message);
    }
    const disposition = res.headers.get("content-disposition") ?? "";
    const filename = /filename="([^"]+)"/.exec(disposition)?.[1] ?? `${app}-export.tar.gz`;
    return { blob: await res.blob(), filename };
  }

  async graphDrop(app: string, allDataAndSchema: boolean): Promise<void> {
    await this.request("POST", `/api/apps/${enc(app)}/graph/drop`, { allDataAndSchema });
  }

  /** The app's GraphQL schema (its generated API), in its own namespace. */
  graphqlSchema(app: string): Promise<GraphQLSchemaState> {
    return this.request("GET", `/api/apps/${enc(app)}/graph/graphql-schema`);
  }

  /** Applies a GraphQL schema; a refused one throws an ApiError carrying its `problems`. */
  async setGraphqlSchema(app: string, schema: string): Promise<{ generatedSchema: string }> {
    return this.request("PUT", `/api/apps/${enc(app)}/graph/graphql-schema`, { schema });
  }

  /** Federation on or off, the `_service` SDL, and which app functions serve the `@lambda` fields. */
  graphFederation(app: string): Promise<GraphFederation> {
    return this.request("GET", `/api/apps/${enc(app)}/graph/federation`);
  }

  /** Runs a GraphQL operation against the app's generated API. */
  graphql(app: string, request: GraphQLRequest): Promise<GraphQLResponse> {
    return this.request("POST", `/api/apps/${enc(app)}/graph/graphql`, request);
  }

  private async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { Authorization: `Bearer ${this.token}` };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    let res: Response;
    try {
      res = await fetch(this.baseUrl + path, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (err) {
      throw new ApiError(
        0,
        "NETWORK",
        `Cannot reach the platform (${(err as Error).message}). Is it running?`,
      );
    }
    if (res.status === 204) return undefined as T;
    const text = await res.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    if (!res.ok) {
      const error = (
        json as { error?: { code?: ApiErrorCode; message?: string; problems?: SchemaProblem[] } } | undefined
      )?.error;
      const message = error?.message ?? `${method} ${path} failed with HTTP ${res.status}`;
      const problems = Array.isArray(error?.problems) ? error.problems : [];
      const apiError = new ApiError(res.status, error?.code ?? codeForStatus(res.status), message, problems);
      if (res.status === 401) this.onUnauthorized(message);
      throw apiError;
    }
    return json as T;
  }
}

function enc(segment: string): string {
  return encodeURIComponent(segment);
}

function codeForStatus(status: number): ApiErrorCode {
  if (status === 401) return "UNAUTHORIZED";
  if (status === 404) return "NOT_FOUND";
  if (status === 409) return "CONFLICT";
  if (status >= 400 && status < 500) return "BAD_REQUEST";
  return "INTERNAL";
}
