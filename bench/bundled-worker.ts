// Bundles a bench worker with esbuild as `npm run build` bundles the faces, so the measured process runs the engine as shipped (no TypeScript loader).
import { build } from "esbuild";
import fs from "node:fs";
import path from "node:path";
import { REPO_ROOT } from "./corpus.js";

/**
 * Under `--import tsx` a worker carries the loader (transpiled sources and their source maps): ~30 MB
 * more resident at 10k + 10k than the same code bundled, which a CLI, a plugin or an MCP server never
 * pays. Written to dist-bench/ (one level below the repository, so the bench's own paths still resolve).
 */
export async function bundledWorker(entry: string): Promise<string> {
  const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as Record<string, Record<string, string> | undefined>;
  const outfile = path.join(REPO_ROOT, "dist-bench", `${path.basename(entry, ".ts")}.mjs`);
  await build({
    absWorkingDir: REPO_ROOT,
    entryPoints: [entry],
    outfile,
    bundle: true,
    format: "esm",
    platform: "node",
    target: ["node20"],
    // Packages load from node_modules as they do for the built package (the native SQLite driver among them).
    external: [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.devDependencies ?? {})],
    // Bundled CommonJS helpers call require(); an ES module has none of its own.
    banner: { js: "import { createRequire as __cairnRequire } from 'node:module'; const require = __cairnRequire(import.meta.url);" },
    logLevel: "warning",
  });
  return outfile;
}
