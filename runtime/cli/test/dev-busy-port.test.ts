/** `trellis dev` on a port something else holds: one line naming the flag to change, before any build. */
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDev } from "../src/dev-command.ts";
import { DEV_OPTIONS, recordingTerminal } from "./dev-fixture.ts";

const { term } = recordingTerminal();

describe("trellis dev on a busy port", () => {
  let dir: string;
  let holder: Server;
  let busy: number;

  beforeAll(async () => {
    holder = createServer();
    await new Promise<void>((r) => holder.listen(0, "127.0.0.1", r));
    busy = (holder.address() as { port: number }).port;
    dir = await mkdtemp(join(tmpdir(), "trellis-dev-busy-"));
    await mkdir(join(dir, "src"));
    await writeFile(join(dir, "package.json"), '{ "name": "busy-app", "private": true }');
    await writeFile(join(dir, "trellis.json"), "{}");
    await writeFile(join(dir, "src/index.ts"), 'export function hi(): string { return "hi"; }\n');
  });

  afterAll(async () => {
    holder?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const options = { ...DEV_OPTIONS, graphdb: true };

  it.each([
    ["port", "--port"],
    ["graphdbPort", "--graphdb-port"],
    ["graphdbGrpcPort", "--graphdb-grpc-port"],
  ] as const)("names %s's flag and builds nothing", async (key, flag) => {
    await expect(startDev(dir, { ...options, [key]: busy }, term)).rejects.toThrow(
      `port ${busy} is in use: stop what listens there, or choose another with ${flag} <port>`,
    );
    expect(existsSync(join(dir, "build"))).toBe(false);
    expect(existsSync(join(dir, "data"))).toBe(false);
  });
});
