/**
 * The `@lambda` fields of the platform's graph database, served by Trellis apps: an operation runs in one
 * namespace (the console's route picks the app's; over HTTP, the login's), and its lambda fields call the
 * functions of the one app that owns that namespace — never another app's, and none for a namespace no
 * app owns (the operator's galaxy). The call goes through the app's instances like a gateway request: a
 * scaled-to-zero app is loaded, and each function call is recorded in the app's Activity.
 */
import type { LambdaCaller } from "@trellis/graphdb";
import type { PlatformContext } from "../platform-context.ts";

/** What routing a lambda call needs: namespace → app, the app's record, its loaded instance. */
export type LambdaOwners = Pick<PlatformContext, "namespaces" | "store" | "instances">;

export function appLambdaCaller(owners: LambdaOwners): LambdaCaller {
  return async (request) => {
    const { namespace, resolver } = request;
    if (namespace === undefined) {
      throw new Error(
        `@lambda ${resolver}: the platform routes lambda calls by namespace, and none was given`,
      );
    }
    const name = owners.namespaces.appOf(namespace);
    if (name === undefined) {
      throw new Error(
        `@lambda ${resolver}: namespace ${namespace} belongs to no app, so no app's functions serve its lambda fields; set the schema in an app's namespace (the app's Graph tab)`,
      );
    }
    const app = await owners.store.cachedApp(name);
    if (!app?.activeDeploymentId) {
      throw new Error(
        `@lambda ${resolver}: app ${name} has no deployment to serve it; deploy a build whose trellis.json maps "${resolver}" in "lambdas"`,
      );
    }
    return owners.instances.lambda(app, request);
  };
}
