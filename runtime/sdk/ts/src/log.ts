/// <reference path="./host.d.ts" />
/** Log lines of the current call; `error` lines also become GraphQL errors of the call. */
import { log as hostLog } from "trellis:app/host";

export type LogLevel = "debug" | "info" | "warning" | "error";

export function write(level: LogLevel, args: unknown[]): void {
  hostLog(level, args.map(format).join(" "));
}

export function debug(...args: unknown[]): void {
  write("debug", args);
}
export function info(...args: unknown[]): void {
  write("info", args);
}
export function warn(...args: unknown[]): void {
  write("warning", args);
}
export function error(...args: unknown[]): void {
  write("error", args);
}

function format(value: unknown): string {
  if (typeof value === "string") return value;
  if (value instanceof Error) return value.stack ?? `${value.name}: ${value.message}`;
  try {
    return JSON.stringify(value, (_k, v) => (typeof v === "bigint" ? `${v}n` : v)) ?? String(value);
  } catch {
    return String(value);
  }
}
