import type { IncomingHttpHeaders } from "node:http";

/** A request header's value (the first, when it came more than once); undefined when absent. */
export function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}
