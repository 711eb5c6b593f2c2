import { defaultClientConditions, defaultServerConditions } from "vite";
import { defineConfig } from "vitest/config";

/** Workspace packages resolve to their TypeScript sources (package.json "exports"), as in tsconfig.json. */
const SOURCE = "@trellis/source";

export default defineConfig({
  resolve: { conditions: [SOURCE, ...defaultClientConditions] },
  // Tests run in Node, so packages resolve as Node resolves them: without Vite's "module" condition, which
  // points some packages (@opentelemetry/api, under @apollo/gateway) at bundler-only builds Node cannot load.
  ssr: { resolve: { conditions: [SOURCE, ...defaultServerConditions.filter((c) => c !== "module")] } },
  test: {
    include: [
      "graphdb/test/**/*.test.ts",
      "runtime/test/**/*.test.ts",
      "runtime/cli/test/**/*.test.ts",
      "platform/test/**/*.test.ts",
      "test/**/*.test.ts",
    ],
    // Tests that start a bin (trellis, trellis-graphdb) or pack a package run the compiled dist/:
    // compile it first (incremental).
    globalSetup: ["test/support/build-packages.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
  },
});
