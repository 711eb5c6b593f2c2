/**
 * `.env` files as Modus reads them, without touching process.env: the real environment wins, then
 * `.env.<env>.local`, `.env.<env>` (for each alias of the environment, e.g. dev and development), then
 * `.env.local`, then `.env`.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "dotenv";

const ENV_ALIASES: string[][] = [
  ["dev", "development"],
  ["stage", "staging"],
  ["test", "testing"],
  ["prod", "production"],
];

/** File names in precedence order, highest first (e.g. `.env.dev.local`, `.env.dev`, …, `.env`). */
export function envFileNames(envName = "dev"): string[] {
  const aliases = ENV_ALIASES.find((a) => a.includes(envName)) ?? [envName];
  return [...aliases.flatMap((a) => [`.env.${a}.local`, `.env.${a}`]), ".env.local", ".env"];
}

/**
 * The environment an app in `dir` sees: `baseEnv` (default process.env) over the env files. Returns a new
 * record; process.env is not changed.
 */
export function loadEnvFiles(
  dir: string,
  envName = "dev",
  baseEnv: Record<string, string | undefined> = process.env,
): Record<string, string> {
  const merged: Record<string, string> = {};
  for (const name of envFileNames(envName).reverse()) {
    const file = join(dir, name);
    if (existsSync(file)) Object.assign(merged, parse(readFileSync(file)));
  }
  for (const [k, v] of Object.entries(baseEnv)) if (v !== undefined) merged[k] = v;
  return merged;
}
