/**
 * `fetch` under an egress policy: an undici dispatcher whose connect checks IP-literal hosts itself (Node
 * connects to those without a lookup) and resolves every other host through the policy's lookup, so the
 * socket connects to an address the policy let through, whatever the DNS answers next. Redirects are the
 * caller's: every hop is a new request through this same fetch, so each is checked.
 */
import { isIP } from "node:net";
import { Agent, buildConnector, fetch as undiciFetch } from "undici";
import { type EgressOptions, EgressPolicy, type HostResolver } from "./egress-policy.ts";

/** A fetch for outbound requests (what `@trellis/graphdb`'s GraphQL layer and the JWKS fetches take). */
export type OutboundFetch = (input: string | URL, init?: RequestInit) => Promise<Response>;

export interface GuardedFetch extends OutboundFetch {
  /** Closes the pooled connections (a permissive fetch has none of its own). */
  close(): Promise<void>;
}

/** A fetch that connects only where `egress` (plain options, or a policy) lets it; permissive: `fetch`. */
export function createGuardedFetch(
  egress: EgressOptions | EgressPolicy,
  resolver?: HostResolver,
): GuardedFetch {
  const policy = egress instanceof EgressPolicy ? egress : new EgressPolicy(egress, resolver);
  if (policy.permissive)
    return Object.assign((input: string | URL, init?: RequestInit) => fetch(input, init), {
      close: async () => {},
    });
  const agent = new Agent({ connect: guardedConnector(policy) });
  const guarded = (input: string | URL, init?: RequestInit) =>
    undiciFetch(input, { ...(init as object), dispatcher: agent }) as unknown as Promise<Response>;
  return Object.assign(guarded, { close: () => agent.close() });
}

/** undici's connector, with the policy's lookup for the port asked (one connector per port). */
function guardedConnector(policy: EgressPolicy): buildConnector.connector {
  const byPort = new Map<number, buildConnector.connector>();
  return (options, callback) => {
    const port = Number(options.port) || (options.protocol === "https:" ? 443 : 80);
    if (isIP(options.hostname) !== 0) {
      const refused = policy.refusal(options.hostname, port);
      if (refused) {
        callback(refused, null);
        return;
      }
    }
    let connect = byPort.get(port);
    if (connect === undefined) {
      connect = buildConnector({ lookup: policy.lookupFor(port) });
      byPort.set(port, connect);
    }
    connect(options, callback);
  };
}
