/**
 * Host capability `app-secret`: the value of TRELLIS_APP_<NAME> from the app's environment, the only way
 * a secret reaches guest memory.
 */
import { appSecretVarName } from "../secrets/env-var-name.ts";
import type { CapabilityFactory } from "./host-capability.ts";

export const appSecretCapability: CapabilityFactory<"appSecret"> = ({ env, trace }) => ({
  calls: {
    appSecret: (ctx, name) =>
      trace.call(ctx, "appSecret", name, async () => {
        if (!/^[A-Za-z0-9_]+$/.test(name)) throw new Error(`invalid app secret name ${JSON.stringify(name)}`);
        const variable = appSecretVarName(name);
        const value = env[variable];
        if (value === undefined) {
          throw new Error(
            `app secret "${name}" is not set: set ${variable} in .env.dev.local or in the platform's environment variables`,
          );
        }
        return value;
      }),
  },
});
