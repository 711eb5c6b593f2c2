/**
 * `@lambdaOnMutate(add:, update:, delete:)`: after a root mutation of such a type commits, Dgraph's webhook
 * event goes to the lambda server (graphql/resolve/webhook.go): `{source, namespace, resolver: "$webhook",
 * X-Dgraph-AccessToken?, authHeader?, event: {__typename, operation, commitTs, add: {rootUIDs, input} |
 * update: {rootUIDs, setPatch, removePatch} | delete: {rootUIDs}}}`.
 *
 * Delivery is fire-and-forget, as in Dgraph: the mutation's answer neither waits for it nor learns of its
 * failure. A `--lambda-url` server gets the payload POSTed as Dgraph sends it; an in-process lambda caller
 * gets it as a request with resolver `$webhook` (and `parents: null, args: {}`), the event fields beside.
 */
import type { AuthorizationConfig } from "../schema/authorization-config.ts";
import type { LambdaCaller, LambdaRequest } from "./lambda-caller.ts";

export type MutationOperation = "add" | "update" | "delete";

export interface WebhookEvent {
  __typename: string;
  operation: MutationOperation;
  commitTs: number;
  add?: { rootUIDs: string[] | null; input: unknown[] };
  update?: { rootUIDs: string[] | null; setPatch: unknown; removePatch: unknown };
  delete?: { rootUIDs: string[] | null };
}

export interface WebhookPayload {
  /** Dgraph's lambda script of the namespace (hosted lambdas); Trellis has none, so "". */
  source: string;
  namespace: number;
  resolver: "$webhook";
  /** The request's ACL token, when it has one. */
  "X-Dgraph-AccessToken"?: string;
  /** With `# Dgraph.Authorization`: the JWT header's name and the request's token. */
  authHeader?: { key: string; value: string };
  event: WebhookEvent;
}

/** Sends one webhook payload; returns at once and never throws. */
export type MutationWebhook = (payload: WebhookPayload) => void;

export interface MutationWebhookOptions {
  /** An in-process lambda caller (wins over `lambdaUrl`, as for `@lambda` fields). */
  lambda?: LambdaCaller;
  /** A Dgraph lambda server. */
  lambdaUrl?: string;
  /** Time allowed for one delivery (default 60 s). */
  timeoutMs?: number;
}

/** Where webhook events go, or undefined when no lambda server is configured. */
export function mutationWebhook(options: MutationWebhookOptions): MutationWebhook | undefined {
  const { lambda, lambdaUrl } = options;
  const timeoutMs = options.timeoutMs ?? 60_000;
  if (lambda !== undefined) {
    return (payload) => {
      const request: LambdaRequest & WebhookPayload = { ...payload, parents: null, args: {} };
      // A thrown error and a rejected promise are both the caller's business only.
      Promise.resolve()
        .then(() => lambda(request))
        .catch(() => undefined);
    };
  }
  if (lambdaUrl === undefined) return undefined;
  return (payload) => {
    fetch(lambdaUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(payload),
      signal: AbortSignal.timeout(timeoutMs),
      redirect: "error",
    })
      .then((res) => res.body?.cancel())
      .catch(() => undefined);
  };
}

export interface WebhookRequest {
  typeName: string;
  operation: MutationOperation;
  commitTs: number;
  namespace: number;
  /** The mutation's top-level nodes: added or upserted, updated, or deleted. */
  rootUids: readonly string[];
  /** The mutation's arguments (`input` of add and update). */
  args: Record<string, unknown>;
  /** The request's headers (lower-case names). */
  headers: Record<string, string | undefined>;
  authorization: AuthorizationConfig | undefined;
}

/** The payload Dgraph sends for one committed root mutation. */
export function webhookPayload(req: WebhookRequest): WebhookPayload {
  // Go marshals an empty uid slice as null.
  const rootUIDs = req.rootUids.length === 0 ? null : [...req.rootUids];
  const event: WebhookEvent = { __typename: req.typeName, operation: req.operation, commitTs: req.commitTs };
  if (req.operation === "add") {
    const input = req.args.input;
    event.add = { rootUIDs, input: Array.isArray(input) ? input : input === undefined ? [] : [input] };
  } else if (req.operation === "update") {
    const input = (req.args.input ?? {}) as { set?: unknown; remove?: unknown };
    event.update = { rootUIDs, setPatch: input.set ?? null, removePatch: input.remove ?? null };
  } else {
    event.delete = { rootUIDs };
  }
  const payload: WebhookPayload = { source: "", namespace: req.namespace, resolver: "$webhook", event };
  const accessToken = req.headers["x-dgraph-accesstoken"];
  if (accessToken !== undefined && accessToken !== "") payload["X-Dgraph-AccessToken"] = accessToken;
  if (req.authorization !== undefined) {
    const raw = req.headers[req.authorization.header] ?? "";
    const value = raw.toLowerCase().startsWith("bearer ") ? raw.slice("bearer ".length) : raw;
    payload.authHeader = { key: req.authorization.header, value };
  }
  // The key order of Dgraph's struct: source, namespace, resolver, token, authHeader, event.
  const { event: e, ...head } = payload;
  return { ...head, event: e };
}
