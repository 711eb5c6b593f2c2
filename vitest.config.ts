import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: [
      "graphdb/test/**/*.test.ts",
      "runtime/test/**/*.test.ts",
      "platform/test/**/*.test.ts",
      "test/**/*.test.ts",
    ],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
  },
});
