/** A listen address as a URL host: the wildcard addresses as `localhost`, IPv6 in brackets. */
export function displayHost(host: string): string {
  if (host === "0.0.0.0" || host === "::" || host === "") return "localhost";
  return host.includes(":") ? `[${host}]` : host;
}
