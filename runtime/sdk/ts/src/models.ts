/// <reference path="./host.d.ts" />
/**
 * The models declared in the app's manifest. `invoke` posts any JSON body to the model's URL; `chat` is
 * the common case of an OpenAI-compatible chat-completions endpoint.
 */
import { modelInvoke } from "trellis:app/host";
import { toJsonText } from "./json-text.ts";

export interface ChatMessage {
  role: "system" | "user" | "assistant" | "tool";
  content: string;
}

export interface ChatOptions {
  temperature?: number;
  maxTokens?: number;
  /** Extra request fields, merged last. */
  extra?: Record<string, unknown>;
}

export function invoke<T = unknown>(name: string, input: unknown): T {
  return JSON.parse(modelInvoke(name, toJsonText(input))) as T;
}

/** Sends the messages (a string is one user message) and returns the first choice's content. */
export function chat(name: string, messages: ChatMessage[] | string, options: ChatOptions = {}): string {
  const list: ChatMessage[] = typeof messages === "string" ? [{ role: "user", content: messages }] : messages;
  const request: Record<string, unknown> = { messages: list };
  if (options.temperature !== undefined) request.temperature = options.temperature;
  if (options.maxTokens !== undefined) request.max_tokens = options.maxTokens;
  Object.assign(request, options.extra);
  const response = invoke<{ choices?: { message?: { content?: string | null } }[] }>(name, request);
  const content = response.choices?.[0]?.message?.content;
  if (typeof content !== "string") throw new Error(`model ${name} returned no chat message content`);
  return content;
}
