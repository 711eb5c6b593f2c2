/**
 * `add<T>(input: [Add<T>Input!]!, upsert: Boolean)`: each input object becomes a new node, or with
 * `upsert: true` updates the node already holding its `@id` value (reference §2.3, §3.3) — unless the
 * writer's `mayUpdate` (the type's `@auth` update rule) refuses that node: it is then left untouched and
 * is neither counted nor in the payload, as in Dgraph.
 */
import type { TypeModel } from "../schema/type-model.ts";
import type { InputObject, ObjectWriter } from "./object-writer.ts";

export interface AddRewrite {
  /** The top-level nodes, in input order (blank labels for new ones), without repeats. */
  nodes: string[];
  /** How many of them existed already (updated by an upsert). */
  upserted: number;
}

export async function rewriteAdd(
  writer: ObjectWriter,
  type: TypeModel,
  args: Record<string, unknown>,
): Promise<AddRewrite> {
  const inputs = (Array.isArray(args.input) ? args.input : [args.input]) as InputObject[];
  const upsert = args.upsert === true;
  const nodes: string[] = [];
  let upserted = 0;
  for (const input of inputs) {
    const { uid, created, skipped } = await writer.object(type, input, true, upsert);
    if (skipped || nodes.includes(uid)) continue;
    nodes.push(uid);
    if (!created) upserted += 1;
  }
  return { nodes, upserted };
}
