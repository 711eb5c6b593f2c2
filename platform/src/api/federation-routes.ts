import { GraphQLService } from "@trellis/graphdb";
import { loadManifest } from "@trellis/runtime";
import type { FastifyInstance } from "fastify";
import { type LambdaFieldRow, lambdaFieldMap, schemaLambdaFields } from "../graph/lambda-field-map.ts";
import type { PlatformContext } from "../platform-context.ts";

/** Time budget of the `_service` query. */
const SERVICE_QUERY_TIMEOUT_MS = 10_000;

/** `GET /api/apps/:app/graph/federation`: what the console's Federation panel shows. */
export interface FederationView {
  /** Some type of the app's GraphQL schema has `@key`: the namespace is an Apollo Federation subgraph. */
  enabled: boolean;
  /** What `_service { sdl }` answers a gateway; null when federation is off. */
  sdl: string | null;
  /** The stored GraphQL schema no longer builds (it is not served); null otherwise. */
  schemaError: string | null;
  /** The active deployment whose manifest and functions are compared; null when nothing is deployed. */
  deploymentId: string | null;
  /** The active deployment's manifest could not be read (its `lambdas` count as none); null otherwise. */
  manifestError: string | null;
  /** Every `@lambda` field of the schema and every manifest `lambdas` entry, matched. */
  lambdaFields: LambdaFieldRow[];
}

/**
 * The console's Federation panel of the Graph tab: whether the app's graph namespace is a federation
 * subgraph, the SDL a gateway composes, and which app function serves each `@lambda` field.
 */
export function federationRoutes(api: FastifyInstance, ctx: PlatformContext): void {
  // Its own service over the platform's engine: it reads the stored schema on every request, as the
  // Graph tab's service does, so both always show the same schema.
  const graphql = new GraphQLService(ctx.graph, { timeoutMs: SERVICE_QUERY_TIMEOUT_MS });

  api.get<{ Params: { app: string } }>("/api/apps/:app/graph/federation", async (request) => {
    const { app } = request.params;
    const record = await ctx.store.requireApp(app);
    const { namespace } = await ctx.namespaces.of(app);
    const view: FederationView = {
      enabled: false,
      sdl: null,
      schemaError: null,
      deploymentId: record.activeDeploymentId,
      manifestError: null,
      lambdaFields: [],
    };

    let schemaFields: string[] = [];
    try {
      const build = await graphql.current(namespace);
      if (build !== undefined) {
        schemaFields = schemaLambdaFields(build.schema);
        view.enabled = build.federated;
      }
    } catch (err) {
      view.schemaError = (err as Error).message;
    }
    if (view.enabled) view.sdl = await serviceSdl(graphql, namespace);

    let lambdas: Record<string, string> = {};
    let functions: string[] = [];
    if (record.activeDeploymentId !== null) {
      const deployment = await ctx.store.getDeployment(app, record.activeDeploymentId);
      functions = deployment?.functions ?? [];
      try {
        const buildDir = await ctx.files.buildDir(app, record.activeDeploymentId);
        lambdas = (await loadManifest(buildDir)).manifest.lambdas;
      } catch (err) {
        view.manifestError = (err as Error).message;
      }
    }
    view.lambdaFields = lambdaFieldMap(schemaFields, lambdas, functions);
    return view;
  });
}

/** Asks the namespace's GraphQL API what a gateway asks: `_service { sdl }`. */
async function serviceSdl(graphql: GraphQLService, namespace: number): Promise<string> {
  const res = await graphql.execute(namespace, { query: "{ _service { sdl } }" });
  const sdl = (res.data as { _service?: { sdl?: unknown } } | null | undefined)?._service?.sdl;
  if (res.errors?.length || typeof sdl !== "string") {
    const reason = res.errors?.map((e) => e.message).join("; ") ?? "no SDL in the answer";
    throw new Error(`the app's graph did not answer _service { sdl }: ${reason}`);
  }
  return sdl;
}
