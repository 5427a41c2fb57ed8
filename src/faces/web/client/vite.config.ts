// Builds the browser assets of `cairn ui` into dist/web (shipped in the package; no build step or network at run time).
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

const here = fileURLToPath(new URL(".", import.meta.url));

export default defineConfig({
  root: here,
  logLevel: "warn",
  build: {
    outDir: fileURLToPath(new URL("../../../../dist/web", import.meta.url)),
    emptyOutDir: true,
    manifest: true,
    target: "es2022",
    modulePreload: { polyfill: false },
    rollupOptions: {
      input: { main: `${here}main.ts`, dashboard: `${here}dashboard.ts` },
    },
  },
});
