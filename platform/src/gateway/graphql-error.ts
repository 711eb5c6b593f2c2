import type { FastifyReply } from "fastify";

/** Sends a gateway error in GraphQL's shape (`{ errors: [{ message, extensions: { code } }] }`). */
export const graphqlError = (reply: FastifyReply, status: number, message: string, code: string) =>
  reply
    .code(status)
    .header("content-type", "application/json; charset=utf-8")
    .send({ errors: [{ message, extensions: { code } }] });
