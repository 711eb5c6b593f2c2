import type { FastifyError, FastifyInstance } from "fastify";
import { PlatformError } from "../platform-error.ts";

/** Renders every control-plane failure as `{ error: { code, message } }`. */
export function installApiErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | PlatformError, request, reply) => {
    if (err instanceof PlatformError) {
      return reply.code(err.status).send({ error: { code: err.code, message: err.message } });
    }
    const status = (err as FastifyError).statusCode ?? 500;
    if (status === 413 && request.url.includes("/deployments")) {
      return reply.code(400).send({
        error: { code: "DEPLOY_REJECTED", message: `the upload is too large: ${err.message}` },
      });
    }
    if (status < 500) {
      return reply.code(status).send({ error: { code: "BAD_REQUEST", message: err.message } });
    }
    request.log.error({ err }, "request failed");
    return reply.code(500).send({ error: { code: "INTERNAL", message: `internal error: ${err.message}` } });
  });
}

export function notFound(message: string): PlatformError {
  return new PlatformError("NOT_FOUND", message);
}

export function badRequest(message: string): PlatformError {
  return new PlatformError("BAD_REQUEST", message);
}
