/**
 * The GraphQL API of each namespace: its schema, kept in the database as Dgraph keeps it (a
 * `dgraph.graphql` node holding the input SDL), and the execution of operations against it.
 *
 * A schema update builds and checks the new schema, alters the DQL schema, stores the SDL, and only then
 * switches what is served; a rejected schema leaves the previous one serving. Each request reads the stored
 * SDL (one indexed lookup), so a drop through DQL (`drop_all` clears it, `DATA` keeps it) or an update by
 * another server instance is seen at once.
 */
import {
  type DocumentNode,
  type ExecutionResult,
  execute,
  GraphQLError,
  getOperationAST,
  parse,
  specifiedRules,
  type ValidationRule,
  validate,
} from "graphql";
import { DgraphError } from "../core/errors.ts";
import type { GraphEngine } from "../engine/engine-api.ts";
import { fieldResolver, typeResolver } from "./execution/field-resolver.ts";
import { httpLambdaCaller, LambdaBatcher, type LambdaCaller } from "./execution/lambda-caller.ts";
import { type MutationWebhook, mutationWebhook } from "./execution/mutation-webhook.ts";
import { OperationContext } from "./execution/operation-context.ts";
import type { OutboundFetch } from "./execution/outbound-fetch.ts";
import { type PlainQueryPlan, planPlainQuery, runPlainQuery } from "./execution/plain-query.ts";
import { withRemoteResponses } from "./execution/remote-response.ts";
import { LiveQuery } from "./live-query.ts";
import { nestingProblem } from "./nesting-depth.ts";
import { DEFAULT_GRAPHQL_LIMITS, type GraphQLOperationLimits, limitRules } from "./operation-limits.ts";
import { buildGraphQLSchema, type GraphQLSchemaBuild } from "./schema/build-graphql-schema.ts";
import {
  checkSchemaSize,
  DEFAULT_GRAPHQL_SCHEMA_LIMITS,
  type GraphQLSchemaLimits,
} from "./schema/schema-size.ts";

const SCHEMA_XID = "dgraph.graphql.schema";

export interface GraphQLRequest {
  query: string;
  variables?: Record<string, unknown> | null;
  operationName?: string | null;
  /** The incoming request's headers (lower-case names), for `@custom(http: {forwardHeaders})`. */
  headers?: Record<string, string | undefined>;
}

export interface StoredSchema {
  /** The schema node's uid (`0x…`), Dgraph's `gqlSchema.id`. */
  id: string;
  schema: string;
}

export interface GraphQLServiceOptions {
  /** Per-operation time budget in ms (each DQL query of it is bounded by it). */
  timeoutMs?: number;
  /** Bounds on one operation (defaults: DEFAULT_GRAPHQL_LIMITS). */
  limits?: Partial<GraphQLOperationLimits>;
  /** A Dgraph lambda server for `@lambda` fields (Dgraph's `--graphql lambda-url`). */
  lambdaUrl?: string;
  /** Resolves `@lambda` fields in-process (takes precedence over `lambdaUrl`). */
  lambda?: LambdaCaller;
  /**
   * How a tenant's schema reaches other servers: `@custom(http:)` endpoints and the JWKS URLs of
   * `# Dgraph.Authorization` (default `fetch`: anywhere, as Dgraph). A multi-tenant host passes a fetch
   * under its egress policy (the platform: `@trellis/runtime`'s `createGuardedFetch`).
   */
  fetch?: OutboundFetch;
  /** Largest answer read from such a server (default 32 MiB, DEFAULT_MAX_REMOTE_ANSWER_BYTES). */
  maxRemoteAnswerBytes?: number;
  /**
   * Run plain queries (generated query fields over stored data) along a precomputed plan instead of
   * through graphql-js's resolvers (default true; the answers are the same, false is for comparing).
   */
  plainQueries?: boolean;
  /**
   * Bounds on a schema's size, checked before it is built (updates and stored schemas alike): SDL bytes
   * (default 256 KiB), types (200) and fields (2,000).
   */
  schemaLimits?: Partial<GraphQLSchemaLimits>;
}

export class GraphQLService {
  private readonly builds = new Map<number, GraphQLSchemaBuild>();
  /** Stored schemas that failed to build, per namespace, with the error each request gets. */
  private readonly broken = new Map<number, { input: string; error: DgraphError }>();
  private readonly documents = new Map<string, DocumentNode>();
  private readonly validated = new WeakMap<GraphQLSchemaBuild, Set<string>>();
  /** Plain-query plans per schema build, by operation name and text (null: the operation has none). */
  private readonly plans = new WeakMap<GraphQLSchemaBuild, Map<string, PlainQueryPlan | null>>();
  /** Schema updates served since start (Dgraph's `schemaUpdateCounter`). */
  schemaUpdates = 0;

  /** Namespaces with no commit since their stored schema was read (kept only when the engine reports commits). */
  private readonly unchanged = new Set<number>();
  /** Commits seen per namespace, to tell whether one came in while the stored schema was read. */
  private readonly changes = new Map<number, number>();
  private readonly limits: GraphQLOperationLimits;
  private readonly lambda: LambdaCaller | undefined;
  private readonly webhook: MutationWebhook | undefined;
  private readonly rules: readonly ValidationRule[];
  private readonly schemaLimits: GraphQLSchemaLimits;

  constructor(
    private readonly engine: GraphEngine,
    private readonly options: GraphQLServiceOptions = {},
  ) {
    this.limits = { ...DEFAULT_GRAPHQL_LIMITS, ...options.limits };
    this.schemaLimits = { ...DEFAULT_GRAPHQL_SCHEMA_LIMITS, ...options.schemaLimits };
    engine.onChange?.((namespace) => {
      this.unchanged.delete(namespace);
      this.changes.set(namespace, (this.changes.get(namespace) ?? 0) + 1);
    });
    this.lambda = options.lambda ?? (options.lambdaUrl ? httpLambdaCaller(options.lambdaUrl) : undefined);
    this.webhook = mutationWebhook(options);
    this.rules = [...specifiedRules, ...limitRules(this.limits)];
  }

  /** The stored schema of a namespace, or undefined when none is set. */
  async storedSchema(namespace: number): Promise<StoredSchema | undefined> {
    const res = await this.engine.query({
      namespace,
      query: `{ s(func: eq(dgraph.graphql.xid, "${SCHEMA_XID}")) { uid dgraph.graphql.schema } }`,
    });
    const row = (JSON.parse(res.json) as { s?: { uid: string; "dgraph.graphql.schema"?: string }[] }).s?.[0];
    if (row === undefined || !row["dgraph.graphql.schema"]) return undefined;
    return { id: row.uid, schema: row["dgraph.graphql.schema"] };
  }

  /** The namespace's schema as served now (built from the stored SDL), or undefined. */
  async current(namespace: number): Promise<GraphQLSchemaBuild | undefined> {
    // Nothing committed in the namespace since the stored schema was last read: it is still the same.
    if (this.unchanged.has(namespace)) {
      const broken = this.broken.get(namespace);
      if (broken !== undefined) throw broken.error;
      return this.builds.get(namespace);
    }
    const changes = this.changes.get(namespace) ?? 0;
    const stored = await this.storedSchema(namespace);
    // Only if no commit came in while it was read (without a change feed, every request reads it).
    if (this.engine.onChange !== undefined && (this.changes.get(namespace) ?? 0) === changes) {
      this.unchanged.add(namespace);
    }
    if (stored === undefined) {
      this.builds.delete(namespace);
      this.broken.delete(namespace);
      return undefined;
    }
    const cached = this.builds.get(namespace);
    if (cached !== undefined && cached.input === stored.schema) return cached;
    this.builds.delete(namespace);
    const broken = this.broken.get(namespace);
    if (broken !== undefined && broken.input === stored.schema) throw broken.error;
    let build: GraphQLSchemaBuild;
    try {
      checkSchemaSize(stored.schema, this.schemaLimits);
      build = buildGraphQLSchema(stored.schema);
    } catch (e) {
      if (!(e instanceof DgraphError)) throw e;
      // Stored by a path that does not check it (a bulk load, an older server): never served, and not
      // built again on every request.
      const error = new DgraphError(
        `The stored GraphQL schema does not build, so it is not served: ${e.message}. ` +
          "Set a valid schema with /admin/schema (updateGQLSchema).",
        "Error",
      );
      this.broken.set(namespace, { input: stored.schema, error });
      throw error;
    }
    this.broken.delete(namespace);
    this.builds.set(namespace, build);
    return build;
  }

  /** Builds a schema as an update would, checked against this server's settings; throws GraphQLSchemaError. */
  checkSchema(sdl: string): GraphQLSchemaBuild {
    checkSchemaSize(sdl, this.schemaLimits);
    return buildGraphQLSchema(sdl, { lambdaConfigured: this.lambda !== undefined });
  }

  /** Validates, applies and stores a new schema; throws GraphQLSchemaError and changes nothing when invalid. */
  async updateSchema(
    namespace: number,
    sdl: string,
  ): Promise<{ build: GraphQLSchemaBuild; stored: StoredSchema }> {
    const build = this.checkSchema(sdl);
    await this.engine.alter({ namespace, schema: build.dqlSchema });
    const uid = await this.engine.putGraphQLSchema(namespace, sdl);
    this.builds.set(namespace, build);
    this.broken.delete(namespace);
    this.schemaUpdates++;
    const stored = (await this.storedSchema(namespace)) ?? { id: uid, schema: sdl };
    return { build, stored };
  }

  /**
   * Runs one GraphQL operation and answers the response as JSON text, as a server sends it (a plain
   * query's text is written directly, without a response object to stringify).
   */
  async executeJson(namespace: number, request: GraphQLRequest): Promise<string> {
    const prepared = await this.prepare(namespace, request);
    if ("errors" in prepared) return JSON.stringify(prepared);
    const result = await this.runEither(prepared, namespace, request);
    return typeof result === "string" ? result : JSON.stringify(result);
  }

  /** Runs one GraphQL operation against the namespace's schema (a subscription answers once). */
  async execute(namespace: number, request: GraphQLRequest): Promise<ExecutionResult> {
    const prepared = await this.prepare(namespace, request);
    if ("errors" in prepared) return prepared;
    return this.run(prepared, namespace, request);
  }

  /**
   * A subscription (`@withSubscription` types): its answer now, then a new answer after each commit in the
   * namespace that changes it; it ends when the schema changes, as Dgraph's do. Any other operation answers
   * once, as `execute` does.
   */
  async subscribe(
    namespace: number,
    request: GraphQLRequest,
  ): Promise<AsyncIterableIterator<ExecutionResult> | ExecutionResult> {
    const prepared = await this.prepare(namespace, request);
    if ("errors" in prepared) return prepared;
    const operation = getOperationAST(prepared.document, request.operationName ?? undefined);
    if (operation?.operation !== "subscription") return this.run(prepared, namespace, request);
    if (this.engine.onChange === undefined) {
      return { errors: [new GraphQLError("subscriptions need an engine that reports its commits")] };
    }
    return new LiveQuery({
      run: () => this.run(prepared, namespace, request),
      stillServed: async () => (await this.current(namespace)) === prepared.build,
      onChange: (listener) =>
        (this.engine.onChange as NonNullable<GraphEngine["onChange"]>)((ns) => {
          if (ns === namespace) listener();
        }),
    });
  }

  /** The schema, the parsed and validated document, or the errors that stop the operation. */
  private async prepare(
    namespace: number,
    request: GraphQLRequest,
  ): Promise<{ build: GraphQLSchemaBuild; document: DocumentNode } | { errors: GraphQLError[] }> {
    let build: GraphQLSchemaBuild | undefined;
    try {
      build = await this.current(namespace);
    } catch (e) {
      if (e instanceof DgraphError) return { errors: [new GraphQLError(e.message)] };
      throw e;
    }
    if (build === undefined) {
      return {
        errors: [
          new GraphQLError(
            "Not resolving queries. There's no GraphQL schema in Dgraph. Use the /admin API to add a GraphQL schema",
          ),
        ],
      };
    }
    if (request.query.length > this.limits.maxQueryLength) {
      return {
        errors: [
          new GraphQLError(
            `Query text of ${request.query.length} characters exceeds the limit of ${this.limits.maxQueryLength}`,
          ),
        ],
      };
    }
    const nesting = nestingProblem(request.query, request.variables, this.limits.maxNesting);
    if (nesting !== undefined) return { errors: [new GraphQLError(nesting)] };
    let document: DocumentNode;
    try {
      document = this.parseCached(request.query);
    } catch (e) {
      return { errors: [e instanceof GraphQLError ? e : new GraphQLError(String(e))] };
    }
    // A document valid against a build stays valid against it: validate each text once per schema.
    let valid = this.validated.get(build);
    if (valid === undefined) this.validated.set(build, (valid = new Set()));
    if (!valid.has(request.query)) {
      const errors = validate(build.schema, document, this.rules);
      if (errors.length > 0) return { errors: [...errors] };
      if (valid.size < 1000) valid.add(request.query);
    }
    return { build, document };
  }

  private async run(
    prepared: { build: GraphQLSchemaBuild; document: DocumentNode },
    namespace: number,
    request: GraphQLRequest,
  ): Promise<ExecutionResult> {
    const result = await this.runEither(prepared, namespace, request);
    return typeof result === "string" ? (JSON.parse(result) as ExecutionResult) : result;
  }

  /** The response: a plain query's JSON text (plain-query.ts), else graphql-js's result. */
  private async runEither(
    prepared: { build: GraphQLSchemaBuild; document: DocumentNode },
    namespace: number,
    request: GraphQLRequest,
  ): Promise<ExecutionResult | string> {
    const context = () =>
      new OperationContext(
        prepared.build,
        this.engine,
        namespace,
        this.options.timeoutMs,
        this.lambda === undefined ? undefined : new LambdaBatcher(this.lambda, namespace),
        request.headers,
        this.webhook,
        { fetch: this.options.fetch, maxAnswerBytes: this.options.maxRemoteAnswerBytes },
      );
    const plan = this.plainPlan(prepared, request);
    if (plan !== undefined) {
      const { schema } = prepared.build;
      const result = await runPlainQuery(
        plan,
        schema,
        prepared.document,
        context(),
        request.variables ?? undefined,
      );
      if (result !== undefined) return result;
    }
    const ctx = context();
    withRemoteResponses(prepared.build.schema);
    return execute({
      schema: prepared.build.schema,
      document: prepared.document,
      variableValues: request.variables ?? undefined,
      operationName: request.operationName ?? undefined,
      contextValue: ctx,
      fieldResolver,
      typeResolver,
    });
  }

  /** The operation's plain-query plan (plain-query.ts), worked out once per schema and text. */
  private plainPlan(
    prepared: { build: GraphQLSchemaBuild; document: DocumentNode },
    request: GraphQLRequest,
  ): PlainQueryPlan | undefined {
    if (this.options.plainQueries === false) return undefined;
    let plans = this.plans.get(prepared.build);
    if (plans === undefined) this.plans.set(prepared.build, (plans = new Map()));
    const key = `${request.operationName ?? ""}\u0000${request.query}`;
    let plan = plans.get(key);
    if (plan === undefined) {
      const { schema, model } = prepared.build;
      plan = planPlainQuery(schema, model, prepared.document, request.operationName ?? undefined) ?? null;
      if (plans.size >= 1000) plans.delete(plans.keys().next().value as string);
      plans.set(key, plan);
    }
    return plan ?? undefined;
  }

  private parseCached(query: string): DocumentNode {
    let doc = this.documents.get(query);
    if (doc === undefined) {
      doc = parse(query, { maxTokens: this.limits.maxTokens });
      if (this.documents.size >= 1000) this.documents.delete(this.documents.keys().next().value as string);
      this.documents.set(query, doc);
    }
    return doc;
  }
}
