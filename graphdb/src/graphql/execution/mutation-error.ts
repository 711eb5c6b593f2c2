/**
 * Errors of the generated mutations, worded as Dgraph words them: a mutation that cannot be rewritten
 * answers `couldn't rewrite mutation <name> because <reason>`, one whose DQL fails `mutation <name> failed
 * because <reason>`.
 */

/** A reason the input cannot be turned into DQL (a missing reference, a taken `@id`, a duplicate xid). */
export class MutationRewriteError extends Error {}

/** Dgraph's `failed to rewrite mutation payload because …` reasons. */
export function payloadError(reason: string): MutationRewriteError {
  return new MutationRewriteError(`failed to rewrite mutation payload because ${reason}`);
}

export function xidTakenError(value: unknown, field: string, type: string): MutationRewriteError {
  return payloadError(`id ${String(value)} already exists for field ${field} inside type ${type}`);
}

/** The message a failed root mutation answers with. */
export function mutationErrorText(mutation: string, error: unknown, rewriting: boolean): string {
  const reason = error instanceof Error ? error.message : String(error);
  return rewriting || error instanceof MutationRewriteError
    ? `couldn't rewrite mutation ${mutation} because ${reason}`
    : `mutation ${mutation} failed because ${reason}`;
}
