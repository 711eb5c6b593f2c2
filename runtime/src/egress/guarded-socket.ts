/**
 * Database sockets under an egress policy: `pg` takes a `stream` it calls `connect(port, host)` on (or
 * `connect(path)` for a Unix socket), `mysql2` a `stream` factory it expects connecting. Either way the
 * socket resolves through the policy's lookup and checks IP literals itself; TLS, which both clients start
 * over this socket, still verifies the certificate against the hostname the app named.
 */
import { isIP, Socket } from "node:net";
import type { EgressPolicy } from "./egress-policy.ts";
import { EgressRefusedError } from "./egress-refused.ts";

export class GuardedSocket extends Socket {
  constructor(private readonly policy: EgressPolicy) {
    super();
  }

  /** `connect(port, host)` or `connect(path)`, as pg calls it. */
  // biome-ignore lint/suspicious/noExplicitAny: net.Socket's connect overloads, narrowed below
  override connect(...args: any[]): this {
    const [first, second] = args as [unknown, unknown];
    if (typeof first === "string" && !/^\d+$/.test(first)) {
      if (this.policy.permissive) return super.connect(first);
      return this.refuse(EgressRefusedError.unixSocket(first));
    }
    const port = Number(first);
    const host = typeof second === "string" && second !== "" ? second : "localhost";
    const bare = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
    if (isIP(bare) !== 0) {
      const refused = this.policy.refusal(bare, port);
      return refused ? this.refuse(refused) : super.connect({ port, host: bare });
    }
    return super.connect({ port, host: bare, lookup: this.policy.lookupFor(port) });
  }

  private refuse(error: Error): this {
    process.nextTick(() => this.destroy(error));
    return this;
  }
}

/** A connecting socket to `host:port` (or a Unix socket `path`) under `policy`: mysql2's `stream` factory. */
export function connectGuarded(
  policy: EgressPolicy,
  target: { host?: string; port?: number; socketPath?: string },
): Socket {
  const socket = new GuardedSocket(policy);
  socket.setNoDelay(true);
  return target.socketPath
    ? socket.connect(target.socketPath)
    : socket.connect(target.port ?? 3306, target.host ?? "localhost");
}
