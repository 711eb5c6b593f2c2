/**
 * The Trellis host interface (`trellis:app/host@0.1.0`, runtime/wit/host.wit) as componentize-qjs
 * presents it to JS: each function is a named export; a `result<T, string>` returns T or throws an Error
 * carrying the host's message; `option<string>` is `string | null`.
 */
declare module "trellis:app/host" {
  export interface HttpResponse {
    status: number;
    statusText: string;
    headers: [string, string][];
    body: string;
  }
  export function httpFetch(
    url: string,
    method: string,
    headers: [string, string][],
    body: string | null,
  ): HttpResponse;
  export function sqlQuery(connection: string, statement: string, params: string): string;
  export function sqlExecute(connection: string, statement: string, params: string): string;
  export function graphQuery(connection: string, query: string, vars: string): string;
  export function graphMutate(connection: string, request: string): string;
  export function graphAlter(connection: string, schema: string): string;
  export function modelInvoke(name: string, input: string): string;
  export function log(level: string, message: string): void;
  export function appSecret(name: string): string;
  export function jwtClaims(): string | null | undefined;
}
