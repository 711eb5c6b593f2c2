/** A connection the egress policy refused: which address, why, and how the operator can allow it. */

export const EGRESS_ALLOW_SETTING = "--egress-allow / TRELLIS_EGRESS_ALLOW";

export class EgressRefusedError extends Error {
  override name = "EgressRefusedError";
  readonly code = "ERR_EGRESS_REFUSED";

  /**
   * `shown` names the target as the app did (`db.internal (10.0.0.5)`, `::ffff:127.0.0.1`); `why` is the
   * rest of the sentence (`a loopback address`); `allowEntry` what the operator would allow.
   */
  static address(shown: string, why: string, allowEntry: string): EgressRefusedError {
    return new EgressRefusedError(
      `${shown} is ${why}, which deployed apps may not reach; the platform operator can allow it with ` +
        `${EGRESS_ALLOW_SETTING} (e.g. ${allowEntry})`,
    );
  }

  /** A Unix socket path (a database on this machine reached without TCP): never allowed. */
  static unixSocket(path: string): EgressRefusedError {
    return new EgressRefusedError(
      `${path} is a Unix socket on this machine, which deployed apps may not reach; ` +
        `connect to the database over TCP (host:port)`,
    );
  }
}

/** The EgressRefusedError in `e` or its causes (fetch wraps it in a TypeError), if any. */
export function egressRefusal(e: unknown): EgressRefusedError | undefined {
  for (let cause = e, depth = 0; cause !== undefined && cause !== null && depth < 5; depth++) {
    if (cause instanceof EgressRefusedError) return cause;
    cause = (cause as { cause?: unknown }).cause;
  }
  return undefined;
}
