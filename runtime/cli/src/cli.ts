/**
 * `trellis`: the app developer's CLI — `new`, `build`, `dev`, `deploy`.
 * Returns the process exit code: 0 ok, 1 the command failed, 2 a usage mistake.
 *
 * Each command loads what it needs (the runtime, its compilers, the graph database) when it runs, not
 * before: `trellis --help` and `trellis --version` load only this file and commander.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { Command, CommanderError, InvalidArgumentError, Option } from "commander";
import pc from "picocolors";
import { createTerminal } from "./terminal.ts";

/**
 * How to start the new app in `dir`: with the CLI its package.json names, once installed (the copy it
 * carries, or one from a registry when this CLI is installed); otherwise (a checkout, --no-vendor) with this
 * checkout's bin, by its path.
 */
function nextSteps(dir: string, vendored: boolean): string {
  const here = fileURLToPath(import.meta.url);
  const dev = "# http://localhost:8686/explorer";
  if (vendored || here.split(sep).includes("node_modules"))
    return `  npm install\n  npx trellis dev        ${dev}`;
  const bin = relative(dir, fileURLToPath(new URL("../bin/trellis.mjs", import.meta.url)));
  return `  node ${bin.split(sep).join("/")} dev        ${dev}`;
}

/**
 * The Trellis packages an app needs, where this CLI finds them (installed, or a checkout's workspaces):
 * this CLI, what it depends on, and what those pull in.
 */
function trellisPackages(): { name: string; dir: string }[] {
  const fromCli = createRequire(import.meta.url);
  const dirOf = (require: NodeJS.Require, name: string) => dirname(require.resolve(`${name}/package.json`));
  const runtime = dirOf(fromCli, "@trellis/runtime");
  return [
    { name: "@trellis/cli", dir: fileURLToPath(new URL("../", import.meta.url)) },
    { name: "@trellis/runtime", dir: runtime },
    { name: "@trellis/graphdb", dir: dirOf(fromCli, "@trellis/graphdb") },
    { name: "@trellis/sdk", dir: dirOf(createRequire(join(runtime, "package.json")), "@trellis/sdk") },
  ];
}

/** This package's version (package.json sits one folder up from src/ and from dist/). */
function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
    version: string;
  };
  return pkg.version;
}

function port(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n > 65535) throw new InvalidArgumentError(`not a port number: ${value}`);
  return n;
}

function positiveInt(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n <= 0) throw new InvalidArgumentError(`not a positive integer: ${value}`);
  return n;
}

export function createProgram(): Command {
  const term = createTerminal();
  const program = new Command("trellis")
    .description("Build, run and deploy Trellis apps: WebAssembly functions served as GraphQL")
    .version(packageVersion(), "-v, --version", "print the version of trellis")
    .exitOverride()
    .showHelpAfterError();

  program
    .command("new")
    .description("create an app from the starter template")
    .argument(
      "<name>",
      "app name (lowercase letters, digits, hyphens), or a path (../apps/my-app): the app is named after its last part",
    )
    .addOption(new Option("-l, --lang <language>", "typescript or go").default("typescript"))
    .option("-d, --dir <dir>", "directory to create (default ./<name>)")
    .option(
      "--no-vendor",
      "name the Trellis packages by version (from a registry) instead of carrying them in .trellis/",
    )
    .action(async (nameOrPath: string, opts: { lang: string; dir?: string; vendor: boolean }) => {
      const { createApp, parseLanguage, vendorTrellisPackages } = await import("@trellis/runtime");
      const isPath = /[\\/]/.test(nameOrPath);
      const name = isPath ? basename(resolve(nameOrPath)) : nameOrPath;
      const language = parseLanguage(opts.lang);
      const dir = await createApp({ name, language, dir: opts.dir ?? (isPath ? nameOrPath : undefined) });
      if (opts.vendor) {
        await term.step("Packing the Trellis packages into .trellis/", () =>
          vendorTrellisPackages(dir, language, trellisPackages()),
        );
      }
      const shown = relative(process.cwd(), dir) || ".";
      term.success(`Created ${pc.bold(name)} in ${dir}`);
      term.info(`\nNext:\n  cd ${shown}\n${nextSteps(dir, opts.vendor)}`);
    });

  program
    .command("build")
    .description("build the app in [path] into <path>/build")
    .argument("[path]", "app directory", ".")
    .action(async (path: string) => {
      const { runBuild } = await import("./build-command.ts");
      await runBuild(path, term);
    });

  program
    .command("dev")
    .description("build, watch and serve the app at http://localhost:8686/graphql with /explorer")
    .argument("[path]", "app directory", ".")
    .addOption(new Option("-p, --port <port>", "dev server port").argParser(port).default(8686))
    .option("--host <address>", "listen address", "127.0.0.1")
    .option("--no-watch", "do not rebuild on changes")
    .addOption(new Option("--delay <ms>", "rebuild debounce").argParser(positiveInt).default(500))
    .option("--no-build", "serve the existing ./build without building")
    .option("--no-graphdb", "do not start the embedded graph database")
    .addOption(
      new Option("--graphdb-port <port>", "embedded graph database HTTP port").argParser(port).default(8080),
    )
    .addOption(
      new Option("--graphdb-grpc-port <port>", "embedded graph database gRPC port")
        .argParser(port)
        .default(9080),
    )
    .option("--graphdb-data <dir>", "embedded graph database data directory", "./data/graphdb")
    .action(async (path: string, opts) => {
      const { runDev } = await import("./dev-command.ts");
      await runDev(path, opts, term);
    });

  program
    .command("deploy")
    .description("upload ./build to a Trellis platform")
    .argument("[path]", "app directory", ".")
    .addOption(new Option("--url <url>", "platform URL").env("TRELLIS_URL").makeOptionMandatory())
    .addOption(
      new Option("--app <name>", "app name on the platform").env("TRELLIS_APP").makeOptionMandatory(),
    )
    .addOption(
      new Option("--token <token>", "the app's deploy token")
        .env("TRELLIS_DEPLOY_TOKEN")
        .makeOptionMandatory(),
    )
    .addOption(
      new Option(
        "--branch <name>",
        "git branch of the build: other than main, it deploys to that branch's preview URL",
      ).env("TRELLIS_DEPLOY_BRANCH"),
    )
    .action(async (path: string, opts: { url: string; app: string; token: string; branch?: string }) => {
      const { runDeploy } = await import("./deploy-command.ts");
      await runDeploy(path, opts, term);
    });

  return program;
}

export async function runCli(argv: string[]): Promise<number> {
  const program = createProgram();
  try {
    await program.parseAsync(argv, { from: "user" });
    return 0;
  } catch (e) {
    if (e instanceof CommanderError) {
      // Help and version print and exit 0; usage mistakes were already printed by commander.
      return e.exitCode === 0 ? 0 : 2;
    }
    createTerminal().error((e as Error).message);
    return 1;
  }
}
