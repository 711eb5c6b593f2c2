import type { TypedDocumentString } from "./generated/graphql.ts";

/**
 * The app's public GraphQL endpoint, on the page's own origin (`trellis dev` and the platform serve both):
 * trellis.json's `"public"` endpoint, which anyone may call without a key and which serves only the
 * functions it lists (`sayHello`). Everything else stays behind the keyed `/graphql`. A page that needs more
 * lists those functions there, or sends its users' JWTs to an `"auth": "jwt"` endpoint.
 */
const ENDPOINT = "/public/graphql";

/**
 * Sends a generated operation to the app's functions and returns its typed `data`; throws on HTTP or
 * GraphQL errors. An API key is sent only if VITE_TRELLIS_API_KEY is set (web/.env.local), for pages that
 * are not public (an API key in a public page's code is anyone's).
 */
export async function graphqlRequest<TResult, TVariables>(
  document: TypedDocumentString<TResult, TVariables>,
  variables: TVariables,
): Promise<TResult> {
  const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json" };
  const apiKey = import.meta.env.VITE_TRELLIS_API_KEY;
  if (apiKey) headers.authorization = `Bearer ${apiKey}`;
  const response = await fetch(ENDPOINT, {
    method: "POST",
    headers,
    body: JSON.stringify({ query: document.toString(), variables }),
  });
  const body = (await response.json().catch(() => ({}))) as {
    data?: TResult;
    errors?: { message: string }[];
  };
  if (body.errors?.length) throw new Error(body.errors.map((e) => e.message).join("; "));
  if (!response.ok || body.data === undefined) throw new Error(`${ENDPOINT} answered ${response.status}`);
  return body.data;
}
