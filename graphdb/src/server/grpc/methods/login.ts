/** Login — ACL login with a password or a refresh token, into a namespace. */
import { DgraphError } from "../../../core/errors.ts";
import { ACL_NOT_ENABLED } from "../../acl.ts";
import { loginAttempt, peerAddress } from "../../login-throttle.ts";
import type { GrpcMethod } from "../grpc-context.ts";
import { type ApiLoginRequest, type ApiResponse, encodeJwt } from "../grpc-proto.ts";

export const login: GrpcMethod<ApiLoginRequest, ApiResponse> = async ({ guards }, call) => {
  const { acl, loginThrottle } = guards;
  if (!acl) throw new DgraphError(ACL_NOT_ENABLED);
  const req = call.request;
  const request = {
    userid: req.userid,
    password: req.password,
    refreshToken: req.refresh_token,
    namespace: req.namespace,
  };
  const attempt = loginAttempt(request, peerAddress(call.getPeer()));
  const tokens = await (loginThrottle
    ? loginThrottle.guard(attempt, () => acl.login(request))
    : acl.login(request));
  return { json: encodeJwt(tokens.accessJWT, tokens.refreshJWT) };
};
