import { defaultClientConditions, defaultServerConditions } from "vite";
import { configDefaults, defineConfig } from "vitest/config";

const SUITE = [
  "graphdb/test/**/*.test.ts",
  "runtime/test/**/*.test.ts",
  "runtime/cli/test/**/*.test.ts",
  "platform/test/**/*.test.ts",
  "test/**/*.test.ts",
];
/** Test files that must run with nothing else running. */
const ALONE = ["test/packages/publish-and-deploy.test.ts"];

/** Workspace packages resolve to their TypeScript sources (package.json "exports"), as in tsconfig.json. */
const SOURCE = "@trellis/source";

export default defineConfig({
  resolve: { conditions: [SOURCE, ...defaultClientConditions] },
  // Tests run in Node, so packages resolve as Node resolves them: without Vite's "module" condition, which
  // points some packages (@opentelemetry/api, under @apollo/gateway) at bundler-only builds Node cannot load.
  ssr: { resolve: { conditions: [SOURCE, ...defaultServerConditions.filter((c) => c !== "module")] } },
  test: {
    // Tests that start a bin (trellis, trellis-graphdb) or pack a package run the compiled dist/:
    // compile it first (incremental).
    globalSetup: ["test/support/build-packages.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Two files at a time on two cores: most tests wait on servers, clients and child processes, and the
    // suite must stay under 8 minutes (Vitest's default is one file at a time there: cpus - 1).
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: "suite",
          include: SUITE,
          exclude: [...configDefaults.exclude, ...ALONE],
          sequence: { groupOrder: 0 },
        },
      },
      {
        // Publishing runs each package's prepack, which rebuilds its dist/ from nothing: every test that
        // runs dist/ would break meanwhile. So it runs by itself, after the rest.
        extends: true,
        test: { name: "alone", include: ALONE, maxWorkers: 1, sequence: { groupOrder: 1 } },
      },
    ],
  },
});
