/**
 * What a host capability is: one self-contained unit (a file in this folder) that serves some of the
 * `HostCalls` (the host side of the WIT `host` interface) and, when it serves a connection type, probes
 * those connections and releases what it opened. host-dispatcher.ts registers the units.
 */
import type { OutboundOptions } from "../connections/http-connection.ts";
import type { EgressPolicy } from "../egress/egress-policy.ts";
import type { ConnectionType, Manifest } from "../manifest/manifest-schema.ts";
import type { HostCallName, HostCalls } from "../wasm/host-calls.ts";
import type { AppConnections } from "./app-connections.ts";
import type { HostCallTracer } from "./host-call-tracer.ts";

/** What every capability is created with (by the dispatcher, once per loaded app). */
export interface CapabilityContext {
  manifest: Manifest;
  /** The app's environment: connection secrets and TRELLIS_APP_* app secrets. */
  env: Record<string, string | undefined>;
  connections: AppConnections;
  /** Every host call runs through it: logs it and words its failure. */
  trace: HostCallTracer;
  /**
   * Outbound work: the app's call timeout, the largest HTTP response body, and the fetch that connects
   * only where the egress policy lets it.
   */
  outbound: Required<OutboundOptions>;
  /** Where connections may go (SQL sockets and gRPC channels check it; HTTP through `outbound.fetch`). */
  egress: EgressPolicy;
  /** The host's own graph database for `graphdb` connections to a loopback address (HostDispatcherOptions). */
  loopbackGraphdb?: string;
}

/** A connection that answered a probe: whether its credentials were accepted, and what it said. */
export interface ProbeResult {
  authenticated: boolean;
  detail: string;
}

export interface ConnectionProbe {
  /** The connection type this capability probes. */
  type: ConnectionType;
  /** Reaches connection `name`; rejects when it cannot (or refuses the credentials: connection-probe.ts). */
  check(name: string): Promise<ProbeResult>;
}

export interface HostCapability<Name extends HostCallName> {
  /** The host calls it serves. */
  calls: Pick<HostCalls, Name>;
  probe?: ConnectionProbe;
  /** Releases pools and channels. */
  close?(): Promise<void>;
}

/** A capability unit's entry point: `Name` declares which host calls it serves. */
export type CapabilityFactory<Name extends HostCallName> = (
  context: CapabilityContext,
) => HostCapability<Name>;
