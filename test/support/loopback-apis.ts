/**
 * The outside world of the template apps' end-to-end tests, on loopback: a quotes API and an
 * OpenAI-compatible chat-completions server, recording the Authorization header of every request (to
 * check secrets filled from .env files) and every chat request body.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export async function listen(server: Server): Promise<number> {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  return (server.address() as AddressInfo).port;
}

/** A port free right now (for servers that take their port as a flag). */
export async function freePort(): Promise<number> {
  const s = createServer();
  const port = await listen(s);
  await new Promise((r) => s.close(r));
  return port;
}

export async function readBody(req: IncomingMessage): Promise<string> {
  let text = "";
  for await (const chunk of req) text += chunk;
  return text;
}

export interface LoopbackApis {
  quotesPort: number;
  openaiPort: number;
  /** Authorization header of every request to either server. */
  seenAuth: (string | undefined)[];
  /** Every chat-completions request body. */
  modelBodies: Record<string, unknown>[];
  close(): void;
}

/** Quotes: `{ text: "you asked <path>", author: "Loopback" }`; chat: echoes the last message. */
export async function startLoopbackApis(): Promise<LoopbackApis> {
  const seenAuth: (string | undefined)[] = [];
  const modelBodies: Record<string, unknown>[] = [];
  const quotes = createServer((req, res) => {
    seenAuth.push(req.headers.authorization);
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify({ text: `you asked ${req.url}`, author: "Loopback" }));
  });
  const openai = createServer(async (req, res) => {
    seenAuth.push(req.headers.authorization);
    const text = await readBody(req);
    res.setHeader("content-type", "application/json");
    if (req.method !== "POST") {
      res.end("{}"); // the explorer's connection probe
      return;
    }
    const input = JSON.parse(text) as Record<string, unknown>;
    modelBodies.push(input);
    const messages = input.messages as { content: string }[];
    res.end(
      JSON.stringify({
        choices: [{ message: { role: "assistant", content: `echo: ${messages.at(-1)?.content}` } }],
      }),
    );
  });
  return {
    quotesPort: await listen(quotes),
    openaiPort: await listen(openai),
    seenAuth,
    modelBodies,
    close() {
      quotes.close();
      openai.close();
    },
  };
}
