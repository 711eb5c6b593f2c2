/** What the resolvers of one GraphQL operation share: the schema build and access to the data. */
import type { GraphEngine } from "../../engine/engine-api.ts";
import type { GraphQLSchemaBuild } from "../schema/build-graphql-schema.ts";
import { AuthSession } from "./auth-filter.ts";
import { type CustomCall, callCustomHttp } from "./custom-http.ts";
import { DqlTransaction, type ReadOptions } from "./dql-transaction.ts";
import { type JwksFetch, verifiedClaims } from "./jwt-claims.ts";
import type { LambdaBatcher } from "./lambda-caller.ts";
import type { MutationWebhook } from "./mutation-webhook.ts";
import { TickBatcher } from "./tick-batcher.ts";

export class OperationContext {
  /** Set when a root mutation failed: the later ones of the operation are not executed (as Dgraph). */
  mutationFailed = false;

  constructor(
    readonly build: GraphQLSchemaBuild,
    readonly engine: GraphEngine,
    readonly namespace: number,
    readonly timeoutMs: number | undefined,
    /** How `@lambda` fields are resolved; undefined when no lambda server is configured. */
    readonly lambdas?: LambdaBatcher,
    /** The incoming request's headers (lower-case names), for `@custom(http: {forwardHeaders})`. */
    readonly headers: Record<string, string | undefined> = {},
    /** Where `@lambdaOnMutate` events go; undefined when no lambda server is configured. */
    readonly webhook?: MutationWebhook,
    /** How `@custom(http:)` endpoints and JWK sets are fetched, and the largest answer read. */
    readonly outbound: JwksFetch = {},
  ) {}

  /** `@custom(http:)` calls of a type's field in BATCH mode, gathered per level. */
  readonly customBatches = new TickBatcher<
    { call: Omit<CustomCall, "values">; values: Record<string, unknown> },
    unknown
  >(async (_key, inputs) =>
    callCustomHttp({ ...inputs[0].call, ...this.outbound, values: inputs.map((i) => i.values) }),
  );

  /** The operation's verified JWT claims and `@auth` rules, once `authorize` has run. */
  auth: AuthSession | undefined;
  private authorizing: Promise<AuthSession> | undefined;

  /** Verifies the request's JWT (once per operation); throws with Dgraph's reason when it is refused. */
  authorize(): Promise<AuthSession> {
    this.authorizing ??= verifiedClaims(this.build.authorization, this.headers, this.outbound).then(
      (claims) => {
        this.auth = new AuthSession(this.build, claims);
        return this.auth;
      },
    );
    return this.authorizing;
  }

  /** A new transaction (each root mutation gets its own, as in Dgraph). */
  transaction(): DqlTransaction {
    return new DqlTransaction(this.engine, this.namespace, this.timeoutMs);
  }

  /** A read in a transaction of its own. */
  async read(dql: string, options?: ReadOptions): Promise<Record<string, unknown>> {
    return this.transaction().query(dql, options);
  }
}
