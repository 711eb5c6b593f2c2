/**
 * Host capability `models`: `model-invoke` of a model declared in the manifest, through the `http`
 * connection it names (a model's probe is its connection's: see host-dispatcher.ts).
 */
import { invokeModel, type ModelTarget } from "../connections/model-connection.ts";
import { requiredVariables } from "../secrets/required-variables.ts";
import type { CapabilityFactory } from "./host-capability.ts";

export const modelCapability: CapabilityFactory<"modelInvoke"> = ({
  manifest,
  connections,
  trace,
  outbound,
}) => {
  function target(name: string): ModelTarget {
    const model = Object.hasOwn(manifest.models, name) ? manifest.models[name] : undefined;
    if (!model) throw new Error(`no model "${name}" in trellis.json`);
    const credentialVariables = requiredVariables(manifest)
      .filter((v) => v.connection === model.connection)
      .map((v) => v.variable);
    return { name, model, connection: connections.get(model.connection, "http"), credentialVariables };
  }

  return {
    calls: {
      modelInvoke: (ctx, name, input) =>
        trace.call(ctx, "modelInvoke", name, async () => invokeModel(target(name), input, outbound)),
    },
  };
};
