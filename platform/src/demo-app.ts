/**
 * First start: deploys a demo app built from the TypeScript template, so a newcomer has a working
 * endpoint, an API key and a curl line within a minute. It goes through the same public API and deploy
 * client as everyone else. Skipped when any app exists.
 */
import { mkdir, rm } from "node:fs/promises";
import { join, resolve } from "node:path";
import { buildApp, createApp, deployBuild } from "@trellis/runtime";

export const DEMO_APP = "hello";

export interface DemoApp {
  app: string;
  endpoint: string;
  apiKey: string;
  curl: string;
}

/** Placeholder values so the template's connections resolve; edit them in the console's Environment tab. */
const DEMO_ENV: Record<string, string> = {
  TRELLIS_QUOTES_API_KEY: "demo-key",
  TRELLIS_OPENAI_API_KEY: "set-me-in-the-console",
  TRELLIS_DB_DATABASE_URL: "postgres://postgres@127.0.0.1:5432/postgres",
};

export async function deployDemoApp(options: {
  url: string;
  adminToken: string;
  workDir: string;
  onStep?: (step: string) => void;
}): Promise<DemoApp | undefined> {
  const step = options.onStep ?? (() => {});
  const api = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${options.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${options.adminToken}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return (text ? JSON.parse(text) : {}) as T;
  };

  const { apps } = await api<{ apps: unknown[] }>("GET", "/api/apps");
  if (apps.length > 0) return undefined;

  const dir = join(resolve(options.workDir), DEMO_APP);
  await rm(dir, { recursive: true, force: true });
  await mkdir(resolve(options.workDir), { recursive: true });
  step("Creating the demo app from the TypeScript template");
  await createApp({ name: DEMO_APP, language: "typescript", dir });
  step("Building the demo app");
  const built = await buildApp(dir);

  const { deployToken } = await api<{ deployToken: string }>("POST", "/api/apps", { name: DEMO_APP });
  for (const [name, value] of Object.entries(DEMO_ENV)) {
    await api("PUT", `/api/apps/${DEMO_APP}/env/${name}`, { value });
  }
  step("Deploying the demo app");
  const { endpoint } = await deployBuild({
    url: options.url,
    app: DEMO_APP,
    token: deployToken,
    buildDir: built.outDir,
    source: "cli",
  });
  const { secret } = await api<{ secret: string }>("POST", `/api/apps/${DEMO_APP}/keys`, { name: "demo" });
  const curl = `curl -s -X POST ${endpoint} -H 'Authorization: Bearer ${secret}' -H 'Content-Type: application/json' -d '{"query":"{ sayHello(name: \\"Trellis\\") }"}'`;
  return { app: DEMO_APP, endpoint, apiKey: secret, curl };
}
