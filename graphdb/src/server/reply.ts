import type { FastifyReply } from "fastify";

/**
 * Sends JSON text with `Content-Type: application/json` exactly (Fastify would append a charset to a
 * string payload; Dgraph does not).
 */
export function sendJson(reply: FastifyReply, json: string): FastifyReply {
  return reply.header("content-type", "application/json").send(Buffer.from(json));
}
