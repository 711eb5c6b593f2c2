/**
 * Host capability `jwt-claims`: the verified claims of the user's JWT that authorized the call being
 * served (Modus's `auth.getJWTClaims`). The gateway or `trellis dev` verifies the token; the claims travel
 * with the call (GraphQL handler → FunctionInvoker → the worker's HostCallContext), so concurrent calls
 * each see their own. No claims (an API key, a public endpoint, a `@lambda` call) is `none`.
 */
import type { CapabilityFactory } from "./host-capability.ts";

export const jwtClaimsCapability: CapabilityFactory<"jwtClaims"> = ({ trace }) => ({
  calls: {
    jwtClaims: (ctx) =>
      trace.call(ctx, "jwtClaims", "", async () =>
        ctx.jwtClaims === undefined ? undefined : JSON.stringify(ctx.jwtClaims),
      ),
  },
});
