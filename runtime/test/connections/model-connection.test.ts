import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHostDispatcher, type HostDispatcher } from "../../src/capabilities/host-dispatcher.ts";
import { parseManifest } from "../../src/manifest/parse-manifest.ts";

const ctx = { executionId: "exec-2", functionName: "generateText" };

/** A loopback OpenAI-compatible chat completions server; the key picks the answer. */
function startOpenAiLike(): Promise<{
  server: Server;
  base: string;
  seen: { url: string; headers: IncomingHttpHeaders; body: unknown }[];
}> {
  const seen: { url: string; headers: IncomingHttpHeaders; body: unknown }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString() || "null") as {
        model?: string;
        messages?: { content: string }[];
      };
      seen.push({ url: req.url!, headers: req.headers, body });
      const json = (status: number, value: unknown) =>
        res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(value));
      if (req.method !== "POST") return json(405, { error: { message: "POST only" } });
      if (!req.url!.startsWith("/v1/chat/completions"))
        return json(404, { error: { message: "Unknown path" } });
      const auth = req.headers.authorization;
      if (auth === "Bearer limited") return json(429, { error: { message: "Rate limit reached" } });
      if (auth !== "Bearer sk-good") return json(401, { error: { message: "Incorrect API key provided" } });
      json(200, {
        object: "chat.completion",
        model: body?.model,
        choices: [
          { index: 0, message: { role: "assistant", content: `echo: ${body?.messages?.[0]?.content}` } },
        ],
      });
    });
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({ server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen }),
    ),
  );
}

describe("models", () => {
  let srv: Awaited<ReturnType<typeof startOpenAiLike>>;
  let dispatcher: HostDispatcher;

  beforeAll(async () => {
    srv = await startOpenAiLike();
    const manifest = parseManifest(
      JSON.stringify({
        models: {
          chat: { sourceModel: "gpt-4o-mini", connection: "openai-like", path: "/v1/chat/completions" },
          limited: { sourceModel: "m", connection: "limited", path: "v1/chat/completions" },
          wrong: { sourceModel: "m", connection: "badkey", path: "v1/chat/completions" },
          lost: { sourceModel: "m", connection: "openai-like", path: "v1/nothing" },
          direct: { connection: "direct" },
        },
        connections: {
          "openai-like": {
            type: "http",
            baseUrl: `${srv.base}/`,
            headers: { Authorization: "Bearer {{API_KEY}}" },
          },
          limited: { type: "http", baseUrl: `${srv.base}/`, headers: { Authorization: "Bearer limited" } },
          badkey: { type: "http", baseUrl: `${srv.base}/`, headers: { Authorization: "Bearer {{API_KEY}}" } },
          direct: {
            type: "http",
            endpoint: `${srv.base}/v1/chat/completions`,
            headers: { Authorization: "Bearer sk-good" },
          },
        },
      }),
    );
    dispatcher = createHostDispatcher({
      manifest,
      env: { TRELLIS_OPENAI_LIKE_API_KEY: "sk-good", TRELLIS_BADKEY_API_KEY: "sk-bad" },
      egress: { allow: [new URL(srv.base).host] },
    });
  });

  afterAll(async () => {
    await dispatcher?.close();
    srv?.server.close();
  });

  it("posts JSON to baseUrl + path with the connection's key and model = sourceModel", async () => {
    const out = await dispatcher.modelInvoke(
      ctx,
      "chat",
      JSON.stringify({ messages: [{ role: "user", content: "hi" }] }),
    );
    expect(JSON.parse(out)).toMatchObject({
      model: "gpt-4o-mini",
      choices: [{ message: { content: "echo: hi" } }],
    });
    const seen = srv.seen.at(-1)!;
    expect(seen.url).toBe("/v1/chat/completions");
    expect(seen.headers.authorization).toBe("Bearer sk-good");
    expect(seen.headers["content-type"]).toBe("application/json");
    expect(seen.body).toEqual({ messages: [{ role: "user", content: "hi" }], model: "gpt-4o-mini" });
  });

  it("keeps a model the input names, and posts to an endpoint connection's URL", async () => {
    await dispatcher.modelInvoke(
      ctx,
      "chat",
      JSON.stringify({ model: "other", messages: [{ content: "a" }] }),
    );
    expect((srv.seen.at(-1)!.body as { model: string }).model).toBe("other");
    const out = await dispatcher.modelInvoke(ctx, "direct", JSON.stringify({ messages: [{ content: "b" }] }));
    expect(JSON.parse(out).choices[0].message.content).toBe("echo: b");
    expect(srv.seen.at(-1)!.body).toEqual({ messages: [{ content: "b" }] });
  });

  it("maps 401, 429 and 404 to clear messages naming what to check", async () => {
    const input = JSON.stringify({ messages: [{ content: "x" }] });
    await expect(dispatcher.modelInvoke(ctx, "wrong", input)).rejects.toThrow(
      'model "wrong": the provider rejected the credentials (401 Unauthorized); check TRELLIS_BADKEY_API_KEY: Incorrect API key provided',
    );
    await expect(dispatcher.modelInvoke(ctx, "limited", input)).rejects.toThrow(
      'model "limited": rate limited or out of quota at the provider (429 Too Many Requests); retry later: Rate limit reached',
    );
    await expect(dispatcher.modelInvoke(ctx, "lost", input)).rejects.toThrow(
      `model "lost": not found at ${srv.base}/v1/nothing (404); check the model's path and sourceModel: Unknown path`,
    );
  });

  it("refuses unknown models and non-object input", async () => {
    await expect(dispatcher.modelInvoke(ctx, "nope", "{}")).rejects.toThrow(
      'no model "nope" in trellis.json',
    );
    await expect(dispatcher.modelInvoke(ctx, "chat", "[1]")).rejects.toThrow(
      'model "chat": input must be a JSON object',
    );
    await expect(dispatcher.modelInvoke(ctx, "chat", "{")).rejects.toThrow('model "chat": input is not JSON');
  });

  it("reports models through their connection's probe", async () => {
    const statuses = await dispatcher.testConnections();
    const chat = statuses.find((s) => s.name === "chat")!;
    expect(chat).toMatchObject({ type: "model", reachable: true, authenticated: true });
    expect(chat.detail).toMatch(/^through connection "openai-like": HTTP 405/);
  });
});
