import type { MutationInput } from "../../engine/engine-api.ts";
import { nquadsText } from "./grpc-nquads.ts";
import type { ApiMutation } from "./grpc-proto.ts";

/** `api.Mutation` → the engine's input: JSON and N-Quad bytes as text, NQuad messages as N-Quad lines. */
export function mutationInput(mu: ApiMutation): MutationInput {
  const input: MutationInput = {};
  if (mu.set_json.length > 0) input.setJson = mu.set_json.toString("utf8");
  if (mu.delete_json.length > 0) input.deleteJson = mu.delete_json.toString("utf8");
  const setNquads = [mu.set_nquads.toString("utf8"), nquadsText(mu.set)].filter((s) => s !== "");
  const delNquads = [mu.del_nquads.toString("utf8"), nquadsText(mu.del)].filter((s) => s !== "");
  if (setNquads.length > 0) input.setNquads = setNquads.join("\n");
  if (delNquads.length > 0) input.delNquads = delNquads.join("\n");
  if (mu.cond !== "") input.cond = mu.cond;
  return input;
}
