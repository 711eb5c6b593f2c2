/** POST /login — ACL login with a password or a refresh token (Dgraph's `loginHandler`). */
import { ACL_NOT_ENABLED, type LoginRequest } from "../acl.ts";
import type { ApiHandler } from "../api-endpoint.ts";
import { fromEngineError, RequestErrorWithData, toJson } from "../envelope.ts";
import { type GoJsonError, type GoJsonValue, parseGoJson, structField, typeError } from "../go-json.ts";
import { loginAttempt } from "../login-throttle.ts";

const FIELDS = {
  userid: "string",
  password: "string",
  refresh_token: "string",
  namespace: "uint64",
} as const;

/** Go `json.Unmarshal` into `api.LoginRequest` (case-insensitive keys); errors are Go's plain texts. */
export function decodeLoginBody(text: string): LoginRequest {
  let root: GoJsonValue;
  try {
    root = parseGoJson(text);
  } catch (e) {
    throw new RequestErrorWithData((e as GoJsonError).message);
  }
  const req: LoginRequest = { userid: "", password: "", refreshToken: "", namespace: 0 };
  if (root.kind === "null") return req;
  if (root.kind !== "object") {
    throw new RequestErrorWithData(typeError(text, root, "api.LoginRequest").message);
  }
  for (const [field, goType] of Object.entries(FIELDS)) {
    const value = structField(root, field);
    if (!value || value.kind === "null") continue;
    const fieldName = `LoginRequest.${field}`;
    if (goType === "string") {
      if (value.kind !== "string")
        throw new RequestErrorWithData(typeError(text, value, goType, fieldName).message);
      if (field === "userid") req.userid = value.value;
      else if (field === "password") req.password = value.value;
      else req.refreshToken = value.value;
    } else {
      if (value.kind === "number" && !/^\d+$/.test(value.text)) {
        throw new RequestErrorWithData(
          `json: cannot unmarshal number ${value.text} into Go struct field ${fieldName} of type uint64`,
        );
      }
      if (value.kind !== "number")
        throw new RequestErrorWithData(typeError(text, value, goType, fieldName).message);
      req.namespace = Number(value.text);
    }
  }
  return req;
}

export const loginHandler: ApiHandler = async ({ ctx, body, clientAddress }) => {
  const req = decodeLoginBody((await body()).toString("utf8"));
  if (!ctx.acl) throw new RequestErrorWithData(ACL_NOT_ENABLED);
  const acl = ctx.acl;
  const login = () => acl.login(req);
  try {
    const throttle = ctx.guards.loginThrottle;
    const tokens = await (throttle ? throttle.guard(loginAttempt(req, clientAddress), login) : login());
    return { json: toJson({ data: { accessJWT: tokens.accessJWT, refreshJWT: tokens.refreshJWT } }) };
  } catch (e) {
    throw fromEngineError(e, "ErrorInvalidRequest", true);
  }
};
