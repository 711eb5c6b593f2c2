/** What the `trellis dev` tests share: a terminal that records, the session's options, a GraphQL call. */
import type { DevOptions } from "../src/dev-command.ts";
import type { Terminal } from "../src/terminal.ts";

/** A terminal that keeps what it printed, warnings and errors marked (`WARN …`, `ERROR …`). */
export function recordingTerminal(): { term: Terminal; lines: string[] } {
  const lines: string[] = [];
  const term: Terminal = {
    step: async (_label, work) => work(),
    info: (l) => lines.push(l),
    success: (l) => lines.push(l),
    warn: (l) => lines.push(`WARN ${l}`),
    error: (l) => lines.push(`ERROR ${l}`),
  };
  return { term, lines };
}

/** A session on a free port, built once, no watching, no graph database (override what a test needs). */
export const DEV_OPTIONS: DevOptions = {
  port: 0,
  host: "127.0.0.1",
  watch: false,
  delay: 100,
  build: true,
  graphdb: false,
  graphdbPort: 0,
  graphdbGrpcPort: 0,
  graphdbData: "data/graphdb",
};

/** A GraphQL request to a dev session's `/graphql`; the answer's JSON. */
export async function postGraphQL(
  url: string,
  query: string,
): Promise<{ data?: Record<string, unknown>; errors?: { message: string }[] }> {
  const res = await fetch(`${url}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query }),
  });
  return (await res.json()) as { data?: Record<string, unknown>; errors?: { message: string }[] };
}
