/**
 * `@custom(http: {...})` fields: resolved by calling an HTTP endpoint (reference §1.3). The URL and body
 * are templates over the field's arguments (`$arg`) or, on a type's field, the parent's fields
 * (`$field`); `graphql:` makes the endpoint a GraphQL server sent `{query, variables}`; `mode: BATCH` sends
 * one request for all the parents of a level, with a list body, answered by a list. Headers named in
 * `forwardHeaders` are copied from the incoming request. Requests go through the service's outbound fetch
 * (outbound-fetch.ts), redirects are errors, and answers are cut off at the remote-answer limit.
 */
import { type ConstDirectiveNode, type FieldDefinitionNode, parseValue, valueFromASTUntyped } from "graphql";
import {
  DEFAULT_MAX_REMOTE_ANSWER_BYTES,
  fetchFailure,
  type OutboundFetch,
  readBoundedText,
} from "./outbound-fetch.ts";

export interface CustomHttp {
  url: string;
  method: string;
  body: string | undefined;
  graphql: string | undefined;
  mode: "SINGLE" | "BATCH";
  forwardHeaders: string[];
}

/** The field's `@custom(http:)` settings, or undefined when it has none. */
export function customHttpOf(field: FieldDefinitionNode | undefined | null): CustomHttp | undefined {
  const d: ConstDirectiveNode | undefined = field?.directives?.find((x) => x.name.value === "custom");
  const arg = d?.arguments?.find((a) => a.name.value === "http");
  if (arg === undefined) return undefined;
  const v = valueFromASTUntyped(arg.value) as Record<string, unknown>;
  return {
    url: String(v.url ?? ""),
    method: String(v.method ?? "GET"),
    body: typeof v.body === "string" ? v.body : undefined,
    graphql: typeof v.graphql === "string" ? v.graphql : undefined,
    mode: v.mode === "BATCH" ? "BATCH" : "SINGLE",
    forwardHeaders: Array.isArray(v.forwardHeaders) ? v.forwardHeaders.map(String) : [],
  };
}

/** `$name` in the URL's path and query string, replaced by the value's text (URL-encoded). */
export function fillUrl(template: string, values: Record<string, unknown>): string {
  const url = new URL(template.replace(/\$(\w+)/g, (_, name: string) => `__trellis_var_${name}__`));
  const fill = (text: string) =>
    text.replace(/__trellis_var_(\w+)__/g, (_, name: string) => {
      const v = values[name];
      return v === undefined || v === null
        ? ""
        : encodeURIComponent(typeof v === "object" ? JSON.stringify(v) : String(v));
    });
  url.pathname = fill(url.pathname);
  const params = new URLSearchParams();
  for (const [key, value] of url.searchParams) {
    const filled = fill(value);
    // Dgraph drops a query parameter whose variable has no value.
    if (filled !== "" || !/__trellis_var_/.test(value)) params.append(key, decodeURIComponent(filled));
  }
  url.search = params.toString();
  return url.toString();
}

/** The body template (`{ id: $id, names: [$a, $b] }`, GraphQL value syntax) with the values filled in. */
export function fillBody(template: string, values: Record<string, unknown>): unknown {
  return valueFromASTUntyped(parseValue(template), values);
}

export interface CustomCall {
  config: CustomHttp;
  /** Values per call: the arguments (Query/Mutation) or each parent's fields merged with the arguments. */
  values: Record<string, unknown>[];
  /** The incoming request's headers, for `forwardHeaders`. */
  headers: Record<string, string | undefined>;
  /** The field name, to unwrap `data.<field>` of a GraphQL endpoint. */
  field: string;
  timeoutMs?: number;
  /** How the endpoint is reached (default `fetch`). */
  fetch?: OutboundFetch;
  /** Largest answer read (default DEFAULT_MAX_REMOTE_ANSWER_BYTES). */
  maxAnswerBytes?: number;
}

interface Outbound {
  headers: Record<string, string>;
  timeoutMs: number;
  fetch: OutboundFetch;
  maxAnswerBytes: number;
}

async function send(url: string, method: string, body: unknown, out: Outbound) {
  let res: Response;
  try {
    res = await out.fetch(url, {
      method,
      headers: out.headers,
      body: body === undefined || method === "GET" ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(out.timeoutMs),
      redirect: "error",
    });
  } catch (e) {
    throw new Error(
      `Evaluation of custom field failed because external request to ${url} failed: ${fetchFailure(e)}`,
    );
  }
  const text = await readBoundedText(res, out.maxAnswerBytes, `the answer of ${url}`);
  if (!res.ok)
    throw new Error(
      `Evaluation of custom field failed because external request returned an error: ${res.status} ${text.slice(0, 200)}`,
    );
  return text === "" ? null : JSON.parse(text);
}

/** Calls the endpoint for every entry of `values`: one answer per entry. */
export async function callCustomHttp(call: CustomCall): Promise<unknown[]> {
  const { config } = call;
  const headers: Record<string, string> = { "content-type": "application/json" };
  for (const name of config.forwardHeaders) {
    const v = call.headers[name.toLowerCase()];
    if (v !== undefined) headers[name] = v;
  }
  const out: Outbound = {
    headers,
    timeoutMs: call.timeoutMs ?? 60_000,
    fetch: call.fetch ?? fetch,
    maxAnswerBytes: call.maxAnswerBytes ?? DEFAULT_MAX_REMOTE_ANSWER_BYTES,
  };
  if (config.graphql !== undefined) {
    return Promise.all(
      call.values.map(async (values) => {
        const answer = (await send(
          config.url,
          "POST",
          { query: config.graphql, variables: values },
          out,
        )) as {
          data?: Record<string, unknown>;
          errors?: { message: string }[];
        };
        if (answer?.errors?.length) throw new Error(answer.errors.map((e) => e.message).join("; "));
        const data = answer?.data ?? {};
        return data[call.field] ?? Object.values(data)[0] ?? null;
      }),
    );
  }
  if (config.mode === "BATCH") {
    const body = call.values.map((v) => (config.body === undefined ? v : fillBody(config.body, v)));
    const answer = await send(fillUrl(config.url, {}), config.method, body, out);
    if (!Array.isArray(answer) || answer.length !== call.values.length) {
      throw new Error(
        `Evaluation of custom field failed because expected ${call.values.length} results in the batch answer`,
      );
    }
    return answer;
  }
  return Promise.all(
    call.values.map((values) =>
      send(
        fillUrl(config.url, values),
        config.method,
        config.body === undefined ? undefined : fillBody(config.body, values),
        out,
      ),
    ),
  );
}
