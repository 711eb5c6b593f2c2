/**
 * The host side of the WIT `host` interface: a registry of the capability units in this folder, created
 * over the app's manifest and environment. Each unit serves its host calls (and probes and closes its
 * connections); the dispatcher merges their calls into one `HostCalls`, and tests the connections.
 * Database pools and gRPC clients are created on first use and released by `close`.
 */

import { DEFAULT_MAX_RESPONSE_BYTES } from "../connections/http-connection.ts";
import { type EgressOptions, EgressPolicy } from "../egress/egress-policy.ts";
import { createGuardedFetch } from "../egress/guarded-fetch.ts";
import type { Manifest } from "../manifest/manifest-schema.ts";
import { MissingSecretsError } from "../secrets/missing-secrets-error.ts";
import type { RequiredVariable } from "../secrets/required-variables.ts";
import { roughSize } from "../wasm/call-log.ts";
import { HOST_CALLS, type HostCallContext, type HostCalls } from "../wasm/host-calls.ts";
import { AppConnections } from "./app-connections.ts";
import { appSecretCapability } from "./app-secret-capability.ts";
import { type ConnectionStatus, probeConnection } from "./connection-probe.ts";
import { graphCapability } from "./graph-capability.ts";
import { createHostCallTracer, type HostLogger } from "./host-call-tracer.ts";
import type { CapabilityContext, CapabilityFactory, ConnectionProbe } from "./host-capability.ts";
import { httpCapability } from "./http-capability.ts";
import { jwtClaimsCapability } from "./jwt-claims-capability.ts";
import { modelCapability } from "./model-capability.ts";
import { relationalCapability } from "./relational-capability.ts";

export type { ConnectionStatus } from "./connection-probe.ts";
export type { HostLogger } from "./host-call-tracer.ts";

/** Every capability unit. A new one is a file in this folder, listed here (its calls in HostCalls and host.wit). */
const CAPABILITIES = [
  httpCapability,
  relationalCapability,
  graphCapability,
  modelCapability,
  appSecretCapability,
  jwtClaimsCapability,
];

type ServedBy<F> = F extends CapabilityFactory<infer Name> ? Name : never;
/** The host calls the units serve: all of them, or createHostDispatcher does not compile (it names the missing one). */
type ServedCalls = Pick<HostCalls, ServedBy<(typeof CAPABILITIES)[number]>>;

export interface HostDispatcherOptions {
  manifest: Manifest;
  /** The app's environment (see loadEnvFiles): connection secrets and TRELLIS_APP_* app secrets. */
  env: Record<string, string | undefined>;
  logger?: HostLogger;
  /** Largest outbound HTTP response body (default 16 MiB). */
  maxResponseBytes?: number;
  /**
   * `throw` (default): creation fails with MissingSecretsError naming every unset variable. `defer`: the
   * app starts; calls through an affected connection fail with that error (the platform serves an app
   * whose env vars are not all set yet; `missingSecrets` lists them for the startup warning).
   */
  missingSecrets?: "throw" | "defer";
  /**
   * The graph database of the host the app runs on, as a `dgraph://` connection string with the app's
   * own credentials and namespace (the platform's per-app tenant). `graphdb` connections whose target is
   * a loopback address (`localhost:9080`, as the starter app declares) reach it instead of their declared
   * target and key; connections to other hosts are used as declared.
   */
  loopbackGraphdb?: string;
  /**
   * Where the app's connections may go (default: the `deployed` policy, which refuses loopback and
   * private addresses unless its `allow` entries open them); `trellis dev` passes `PERMISSIVE_EGRESS`.
   */
  egress?: EgressOptions;
}

export type HostDispatcher = HostCalls & {
  /** Variables that were unset at creation (only with `missingSecrets: "defer"`). */
  missingSecrets: RequiredVariable[];
  /** Probes every connection and model, in parallel. */
  testConnections(): Promise<ConnectionStatus[]>;
  /** Closes pools and gRPC channels; the dispatcher may not be used afterwards. */
  close(): Promise<void>;
};

/**
 * The host calls, each answer charged to the memory account of the request it serves (`ctx.memory`): an
 * answer that takes the request, its app or the server past a bound is refused (the guest gets the bound's
 * message as the call's error), and a request already past one makes no further host call.
 */
function chargedToRequests(calls: ServedCalls): ServedCalls {
  const charged: Record<string, unknown> = {};
  type AnyCall = (ctx: HostCallContext, ...args: unknown[]) => Promise<unknown>;
  for (const [name, call] of Object.entries(calls) as [keyof ServedCalls, AnyCall][]) {
    charged[name] = async (ctx: HostCallContext, ...args: unknown[]) => {
      const refusal = ctx.memory?.refusal();
      if (refusal !== undefined) throw new Error(refusal);
      const answer = await call(ctx, ...args);
      ctx.memory?.charge(roughSize(answer), `the answer of ${HOST_CALLS[name]}`);
      return answer;
    };
  }
  return charged as ServedCalls;
}

/** Creates the dispatcher; throws MissingSecretsError when a placeholder's variable is not set. */
export function createHostDispatcher(options: HostDispatcherOptions): HostDispatcher {
  const { manifest } = options;
  const connections = new AppConnections(manifest, options.env, options.missingSecrets ?? "throw");
  const egress = new EgressPolicy(options.egress);
  const outboundFetch = createGuardedFetch(egress);
  const context: CapabilityContext = {
    manifest,
    env: options.env,
    connections,
    trace: createHostCallTracer(options.logger),
    outbound: {
      timeoutMs: manifest.limits.timeoutMs,
      maxResponseBytes: options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
      fetch: outboundFetch,
    },
    egress,
    loopbackGraphdb: options.loopbackGraphdb,
  };
  const units = CAPABILITIES.map((create) => create(context));
  const calls: ServedCalls = chargedToRequests(Object.assign({}, ...units.map((unit) => unit.calls)));
  const probes = new Map<string, ConnectionProbe>();
  for (const unit of units) if (unit.probe) probes.set(unit.probe.type, unit.probe);

  return {
    ...calls,
    missingSecrets: connections.missing,
    async testConnections() {
      const unconfigured = [...connections.unconfigured].map(
        ([name, vars]): ConnectionStatus => ({
          name,
          type: manifest.connections[name].type,
          reachable: false,
          authenticated: false,
          detail: new MissingSecretsError(vars).message.split("\n")[0],
          ms: 0,
        }),
      );
      const probed = Object.entries(connections.resolved).map(([name, c]) =>
        probeConnection(name, c.type, () => {
          const probe = probes.get(c.type);
          if (!probe) throw new Error(`no capability probes ${c.type} connections`);
          return probe.check(name);
        }),
      );
      const connectionStatuses = [...(await Promise.all(probed)), ...unconfigured];
      const byName = new Map(connectionStatuses.map((s) => [s.name, s]));
      const modelStatuses = Object.entries(manifest.models).map(([name, model]): ConnectionStatus => {
        const c = byName.get(model.connection)!;
        return {
          name,
          type: "model",
          reachable: c.reachable,
          authenticated: c.authenticated,
          detail: `through connection "${model.connection}": ${c.detail}`,
          ms: c.ms,
        };
      });
      return [...connectionStatuses, ...modelStatuses];
    },
    async close() {
      connections.close();
      await Promise.allSettled(units.map((unit) => unit.close?.()));
      await outboundFetch.close();
    },
  };
}
