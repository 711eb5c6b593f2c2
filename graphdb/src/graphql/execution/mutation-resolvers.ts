/**
 * The generated Mutation fields `add<T>`, `update<T>` and `delete<T>` (reference §2.3, §3.3). Each runs in
 * a transaction of its own: the input is rewritten into JSON writes (reading what it needs in the
 * transaction), the writes are applied and committed, and the payload is read — after the commit for add
 * and update, before the writes for delete. Any error discards the transaction; the later mutations of the
 * operation then answer Dgraph's "was not executed because of a previous error". A committed mutation of a
 * `@lambdaOnMutate` type sends its webhook event, without waiting for it.
 */
import type { GraphQLResolveInfo } from "graphql";
import type { TypeModel } from "../schema/type-model.ts";
import { rewriteAdd } from "./add-mutation.ts";
import { AuthorizationFailedError, checkAddRules, nodePassesRule } from "./auth-filter.ts";
import { rewriteDelete } from "./delete-mutation.ts";
import { mutationErrorText } from "./mutation-error.ts";
import { mutationPayload } from "./mutation-payload.ts";
import { webhookPayload } from "./mutation-webhook.ts";
import { ObjectWriter } from "./object-writer.ts";
import type { OperationContext } from "./operation-context.ts";
import { rewriteUpdate } from "./update-mutation.ts";

/** The kind and type of a generated Mutation field (`updateAuthor` → update, Author), or undefined. */
export function mutationTarget(
  ctx: OperationContext,
  name: string,
): { op: "add" | "update" | "delete"; type: TypeModel } | undefined {
  const m = /^(add|update|delete)(.+)$/.exec(name);
  if (m === null) return undefined;
  const type = ctx.build.model.types.get(m[2]);
  return type === undefined || type.kind === "union"
    ? undefined
    : { op: m[1] as "add" | "update" | "delete", type };
}

export async function resolveMutationField(
  ctx: OperationContext,
  args: Record<string, unknown>,
  info: GraphQLResolveInfo,
): Promise<unknown> {
  const name = info.fieldName;
  if (ctx.mutationFailed) throw new Error(`Mutation ${name} was not executed because of a previous error.`);
  const target = mutationTarget(ctx, name);
  if (target === undefined) throw new Error(`${name}: not a generated mutation`);
  const { op, type } = target;
  const tx = ctx.transaction();
  const writer = new ObjectWriter(tx, ctx.build.model);
  let phase: "rewrite" | "write" | "committed" = "rewrite";
  try {
    const session = await ctx.authorize();
    const rewriter = session.active ? session.rewriter() : undefined;
    if (op === "delete") {
      const nodes = await rewriteDelete(tx, writer, type, args, rewriter && { rewriter, op: "delete" });
      const payload = await mutationPayload(
        ctx,
        info,
        type,
        nodes,
        { numUids: nodes.length, msg: "Deleted" },
        (dql, options) => tx.query(dql, options),
      );
      phase = "write";
      await writer.writes.apply(tx);
      notify(ctx, type, op, await tx.commit(), nodes, args);
      return payload;
    }
    let nodes: string[];
    let affected: number;
    if (op === "add") {
      // An upsert updating an existing node needs the type's update rule (new nodes its add rule).
      if (rewriter !== undefined)
        writer.mayUpdate = (t, uid) => nodePassesRule(tx, rewriter, t, uid, "update");
      const add = await rewriteAdd(writer, type, args);
      nodes = add.nodes;
      affected = add.upserted;
    } else {
      nodes = await rewriteUpdate(tx, writer, type, args, rewriter && { rewriter, op: "update" });
      affected = nodes.length;
    }
    phase = "write";
    const blanks = await writer.writes.apply(tx);
    if (rewriter !== undefined) {
      await checkAddRules(tx, rewriter, ctx.build.model, writer.writes.created, blanks);
    }
    const commitTs = await tx.commit();
    phase = "committed";
    const uids = nodes.map((n) => blanks.get(n) ?? n);
    notify(ctx, type, op, commitTs, uids, args);
    const numUids = writer.writes.created.length + affected;
    return await mutationPayload(ctx, info, type, uids, { numUids }, (dql, options) =>
      ctx.read(dql, options),
    );
  } catch (e) {
    if (phase === "committed") throw e;
    await tx.discard().catch(() => undefined);
    ctx.mutationFailed = true;
    if (e instanceof AuthorizationFailedError) throw e;
    throw new Error(mutationErrorText(name, e, phase === "rewrite"));
  }
}

/** After a commit: the `@lambdaOnMutate` event, when the type asks for this operation's (never awaited). */
function notify(
  ctx: OperationContext,
  type: TypeModel,
  op: "add" | "update" | "delete",
  commitTs: number | undefined,
  rootUids: readonly string[],
  args: Record<string, unknown>,
): void {
  if (ctx.webhook === undefined || commitTs === undefined) return;
  if (!ctx.build.lambdaOnMutate?.get(type.name)?.has(op)) return;
  try {
    ctx.webhook(
      webhookPayload({
        typeName: type.name,
        operation: op,
        commitTs,
        namespace: ctx.namespace,
        rootUids,
        args,
        headers: ctx.headers,
        authorization: ctx.build.authorization,
      }),
    );
  } catch {
    // The mutation has committed; its answer does not depend on the event.
  }
}
