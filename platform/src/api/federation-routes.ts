import { loadManifest } from "@trellis/runtime";
import type { FastifyInstance } from "fastify";
import type { GraphOperations } from "../graph/graph-operations.ts";
import { type LambdaFieldRow, lambdaFieldMap } from "../graph/lambda-field-map.ts";
import type { PlatformContext } from "../platform-context.ts";

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
      const current = await ctx.graph.currentGraphQLSchema(namespace);
      if (current !== undefined) {
        schemaFields = current.lambdaFields;
        view.enabled = current.federated;
      }
    } catch (err) {
      view.schemaError = (err as Error).message;
    }
    if (view.enabled) view.sdl = await serviceSdl(ctx.graph, namespace);

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
async function serviceSdl(graph: GraphOperations, namespace: number): Promise<string> {
  const res = JSON.parse(await graph.executeGraphQL(namespace, { query: "{ _service { sdl } }" })) as {
    data?: { _service?: { sdl?: unknown } } | null;
    errors?: { message: string }[];
  };
  const sdl = res.data?._service?.sdl;
  if (res.errors?.length || typeof sdl !== "string") {
    const reason = res.errors?.map((e) => e.message).join("; ") ?? "no SDL in the answer";
    throw new Error(`the app's graph did not answer _service { sdl }: ${reason}`);
  }
  return sdl;
}
