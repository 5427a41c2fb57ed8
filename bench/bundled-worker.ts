// Bundles bench workers with esbuild as `npm run build` bundles the faces, so the measured process runs the engine as shipped (no TypeScript loader).
import { build } from "esbuild";
import fs from "node:fs";
import path from "node:path";
import { REPO_ROOT } from "./corpus.js";

/** Where bundled bench workers go: one level below the repository, so the bench's own paths still resolve. */
const OUT_DIR = path.join(REPO_ROOT, "dist-bench");

/**
 * The import worker beside each bundle, under the name the built package gives it (dist/import-worker.js),
 * so an import measured here starts its worker thread from JavaScript as `cairn import` does — not from
 * source, which registers the TypeScript loader in the thread first (~0.45 s before its first rows).
 */
const SHIPPED_WORKERS = { "import-worker": "src/io/prepare-worker.ts" };

/**
 * Under `--import tsx` a worker carries the loader (transpiled sources and their source maps): ~30 MB
 * more resident at 10k + 10k than the same code bundled, which a CLI, a plugin or an MCP server never
 * pays. Returns the bundle's path (dist-bench/<name>.js).
 */
export async function bundledWorker(entry: string): Promise<string> {
  const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as Record<string, Record<string, string> | undefined>;
  const name = path.basename(entry, ".ts");
  await build({
    absWorkingDir: REPO_ROOT,
    entryPoints: { [name]: entry, ...SHIPPED_WORKERS },
    outdir: OUT_DIR,
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
  return path.join(OUT_DIR, `${name}.js`);
}
