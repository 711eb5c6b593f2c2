import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

/** Relative base (`./`) so the built files work under any path the platform serves them from. */
export default defineConfig({
  base: "./",
  plugins: [react()],
  build: { outDir: "dist", emptyOutDir: true, chunkSizeWarningLimit: 400 },
});
