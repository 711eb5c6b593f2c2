/** Error codes of the control-plane API (`{ error: { code, message } }`), each with its HTTP status. */
export const ERROR_STATUS = {
  BAD_REQUEST: 400,
  DEPLOY_REJECTED: 400,
  UNAUTHORIZED: 401,
  NOT_FOUND: 404,
  CONFLICT: 409,
  TOO_MANY_REQUESTS: 429,
  INTERNAL: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** An error meant for the API caller: its message says what happened and what to do. */
export class PlatformError extends Error {
  override name = "PlatformError";
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}
