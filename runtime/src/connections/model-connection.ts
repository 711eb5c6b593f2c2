/**
 * Model invocation: a JSON POST to the model's URL on its `http` connection (an OpenAI-compatible API or
 * any JSON inference endpoint), with `model` set to the manifest's `sourceModel` when the input has none.
 */
import type { HttpConnection, ModelConfig } from "../manifest/manifest-schema.ts";
import { type OutboundOptions, sendThroughConnection } from "./http-connection.ts";

/** The model's URL, as Modus builds it: baseUrl + path (one slash between), or the endpoint. */
export function modelUrl(model: ModelConfig, connection: HttpConnection): string {
  if (connection.endpoint !== undefined) return connection.endpoint;
  return `${connection.baseUrl!.replace(/\/+$/, "")}/${(model.path ?? "").replace(/^\/+/, "")}`;
}

export interface ModelTarget {
  name: string;
  model: ModelConfig;
  connection: HttpConnection;
  /** Variables that hold the connection's credentials, named in auth failures. */
  credentialVariables: string[];
}

/** Invokes a model with a JSON object `input`; resolves to the response body text (JSON). */
export async function invokeModel(
  target: ModelTarget,
  input: string,
  options: OutboundOptions,
): Promise<string> {
  let body: unknown;
  try {
    body = JSON.parse(input);
  } catch (e) {
    throw new Error(`model "${target.name}": input is not JSON: ${(e as Error).message}`);
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new Error(`model "${target.name}": input must be a JSON object`);
  }
  const request = body as Record<string, unknown>;
  if (request.model === undefined && target.model.sourceModel !== undefined) {
    request.model = target.model.sourceModel;
  }
  const url = modelUrl(target.model, target.connection);
  let res: Awaited<ReturnType<typeof sendThroughConnection>>;
  try {
    res = await sendThroughConnection(
      target.connection,
      url,
      {
        method: "POST",
        headers: [
          ["content-type", "application/json"],
          ["accept", "application/json"],
        ],
        body: JSON.stringify(request),
      },
      options,
    );
  } catch (e) {
    throw new Error(`model "${target.name}": ${(e as Error).message}`);
  }
  if (res.status >= 200 && res.status < 300) return res.body;
  throw new Error(`model "${target.name}": ${statusMessage(res.status, res.body, url, target)}`);
}

function statusMessage(status: number, body: string, url: string, target: ModelTarget): string {
  const check =
    target.credentialVariables.length > 0 ? `; check ${target.credentialVariables.join(", ")}` : "";
  const detail = providerDetail(body);
  switch (status) {
    case 401:
      return `the provider rejected the credentials (401 Unauthorized)${check}${detail}`;
    case 403:
      return `the credentials may not use this model (403 Forbidden)${check}${detail}`;
    case 429:
      return `rate limited or out of quota at the provider (429 Too Many Requests); retry later${detail}`;
    case 404:
      return `not found at ${new URL(url).origin}${new URL(url).pathname} (404); check the model's path and sourceModel${detail}`;
    default:
      return `the provider answered ${status}${detail}`;
  }
}

/** The provider's own error text (OpenAI shape `{error: {message}}`), shortened. */
function providerDetail(body: string): string {
  let text = body;
  try {
    const parsed = JSON.parse(body) as { error?: { message?: unknown } | string; message?: unknown };
    const m =
      typeof parsed.error === "string"
        ? parsed.error
        : typeof parsed.error?.message === "string"
          ? parsed.error.message
          : typeof parsed.message === "string"
            ? parsed.message
            : undefined;
    if (m !== undefined) text = m;
  } catch {
    // not JSON: show the text itself
  }
  text = text.trim();
  if (text === "") return "";
  return `: ${text.length > 300 ? `${text.slice(0, 300)}…` : text}`;
}
