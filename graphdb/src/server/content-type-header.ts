/**
 * The request header holding the client's own Content-Type. Fastify rejects malformed media types with a
 * 500 before routes run, so the server hands Fastify a neutral type and keeps the original here; routes
 * parse it themselves with Go's rules and answer in Dgraph's envelope.
 */
export const ORIGINAL_CONTENT_TYPE = "x-trellis-original-content-type";
