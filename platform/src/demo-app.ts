/**
 * First start: deploys a demo app built from the TypeScript template, so a newcomer has a working
 * endpoint, an API key and a curl line within a minute. It goes through the same public API and deploy
 * client as everyone else. Skipped when any app exists.
 */
import { existsSync } from "node:fs";
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

/**
 * Placeholder values so the template's http connections resolve; edit them in the console's Environment
 * tab. `TRELLIS_DB_DATABASE_URL` is left unset: there is no database to give the demo (the host's own is
 * not the tenant's, and deployed apps may not reach loopback anyway), so `getTableCount` answers "missing
 * environment variable TRELLIS_DB_DATABASE_URL … set it in the platform's environment variables for the
 * app" until the user sets one, and everything else works.
 */
const DEMO_ENV: Record<string, string> = {
  TRELLIS_QUOTES_API_KEY: "demo-key",
  TRELLIS_OPENAI_API_KEY: "set-me-in-the-console",
};

/**
 * Creates and builds the demo app under `workDir` (what needs more than the serving process may do: the
 * bin runs it before the server starts under Node's permission model). Returns the build folder; an
 * existing build is reused.
 */
export async function buildDemoApp(
  workDir: string,
  onStep: (step: string) => void = () => {},
): Promise<string> {
  const dir = join(resolve(workDir), DEMO_APP);
  const outDir = join(dir, "build");
  if (existsSync(join(outDir, "app.wasm")) && existsSync(join(outDir, "trellis.json"))) return outDir;
  await rm(dir, { recursive: true, force: true });
  await mkdir(resolve(workDir), { recursive: true });
  onStep("Creating the demo app from the TypeScript template");
  await createApp({ name: DEMO_APP, language: "typescript", dir });
  onStep("Building the demo app");
  return (await buildApp(dir)).outDir;
}

export async function deployDemoApp(options: {
  url: string;
  adminToken: string;
  workDir: string;
  /** A build made beforehand (buildDemoApp); without it, the demo app is built here. */
  buildDir?: string;
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
  const buildDir = options.buildDir ?? (await buildDemoApp(options.workDir, step));

  const { deployToken } = await api<{ deployToken: string }>("POST", "/api/apps", { name: DEMO_APP });
  for (const [name, value] of Object.entries(DEMO_ENV)) {
    await api("PUT", `/api/apps/${DEMO_APP}/env/${name}`, { value });
  }
  step("Deploying the demo app");
  const { endpoint } = await deployBuild({
    url: options.url,
    app: DEMO_APP,
    token: deployToken,
    buildDir,
    source: "cli",
  });
  const { secret } = await api<{ secret: string }>("POST", `/api/apps/${DEMO_APP}/keys`, { name: "demo" });
  const curl = `curl -s -X POST ${endpoint} -H 'Authorization: Bearer ${secret}' -H 'Content-Type: application/json' -d '{"query":"{ sayHello(name: \\"Trellis\\") }"}'`;
  return { app: DEMO_APP, endpoint, apiKey: secret, curl };
}
