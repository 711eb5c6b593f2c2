/**
 * `trellis dev --graphdb-grpc-port N`: the app's graph connection names `localhost:9080` (as the template's
 * does), and reaches the database the session started on port N, as a deployed app reaches its namespace.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../../test/support/loopback-apis.ts";
import { type DevSession, startDev } from "../src/dev-command.ts";
import { DEV_OPTIONS, postGraphQL, recordingTerminal } from "./dev-fixture.ts";

describe("trellis dev on other graph database ports", () => {
  let dir: string;
  let session: DevSession;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "trellis-dev-graph-port-"));
    await mkdir(join(dir, "src"));
    await writeFile(join(dir, "package.json"), '{ "name": "graph-port-app", "private": true }');
    await writeFile(
      join(dir, "trellis.json"),
      JSON.stringify({ connections: { graph: { type: "graphdb", grpcTarget: "localhost:9080" } } }),
    );
    await writeFile(
      join(dir, "src/index.ts"),
      `import { graph } from "@trellis/sdk";
export function addName(name: string): string {
  graph.alter("graph", "name: string @index(exact) .");
  graph.mutate("graph", { setJson: [{ name: name }] });
  return name;
}
export function names(): string {
  return JSON.stringify(graph.query<{ q: { name: string }[] }>("graph", "{ q(func: has(name)) { name } }").q);
}
`,
    );
    const [graphdbPort, graphdbGrpcPort] = [await freePort(), await freePort()];
    session = await startDev(
      dir,
      { ...DEV_OPTIONS, graphdb: true, graphdbPort, graphdbGrpcPort },
      recordingTerminal().term,
    );
    expect(session.graphdb?.grpcPort).toBe(graphdbGrpcPort);
  }, 180_000);

  afterAll(async () => {
    await session?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const gql = (query: string) => postGraphQL(session.url, query);

  it("sends the app's connection to localhost:9080 to the session's own database", async () => {
    expect((await gql('mutation { addName(name: "reached") }')).data).toEqual({ addName: "reached" });
    expect((await gql("{ names }")).data).toEqual({ names: JSON.stringify([{ name: "reached" }]) });
  });
});
