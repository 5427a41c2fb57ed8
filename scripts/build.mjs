// Build: one esbuild pass bundles every runtime entry point (shared code in chunks), tsc writes the type declarations.
//
// Bundling is what keeps start-up cheap (`cairn --help` and a plugin load read a few files instead of
// hundreds) and the install small (only the native SQLite driver stays a runtime dependency). Heavy
// parts (the engine, the MCP SDK, prompts) sit behind dynamic imports and land in chunks of their own.
import { build } from "esbuild";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const dist = path.join(root, "dist");
const pkg = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));

/** Entry points: the library, the CLI, the OpenCode plugin (package entry and file entry), the MCP launcher, the regexp switch, the import worker. */
const ENTRIES = {
  index: "src/index.ts",
  cli: "src/faces/cli/main.ts",
  server: "src/faces/opencode/server.ts",
  plugin: "src/faces/opencode/plugin.ts",
  mcp: "src/faces/mcp/main.ts",
  // Loaded by bin/cairn.js before the CLI, so the patterns the CLI's modules hold are made after it ran.
  "native-regexps": "src/core/native-regexps.ts",
  // Started by src/io/prepare.ts as a worker thread for large imports (found beside the bundle, not imported).
  "import-worker": "src/io/prepare-worker.ts",
};

fs.rmSync(dist, { recursive: true, force: true });

const result = await build({
  absWorkingDir: root,
  entryPoints: ENTRIES,
  outdir: dist,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: ["node20"],
  chunkNames: "chunks/[name]-[hash]",
  // Runtime dependencies (the native SQLite driver) are resolved from node_modules at run time; the rest is bundled.
  external: Object.keys(pkg.dependencies ?? {}),
  // Bundled CommonJS dependencies call require() for Node built-ins; ESM has no require of its own.
  banner: { js: 'import { createRequire as __cairnRequire } from "node:module"; const require = __cairnRequire(import.meta.url);' },
  legalComments: "eof",
  plugins: [zodEnglishOnly()],
  metafile: true,
  logLevel: "warning",
});

writeThirdPartyLicenses(result.metafile);
// `CAIRN_BUILD_META=file npm run build` keeps esbuild's metafile, to see what each chunk holds (esbuild.github.io/analyze).
if (process.env.CAIRN_BUILD_META) fs.writeFileSync(process.env.CAIRN_BUILD_META, JSON.stringify(result.metafile));

// Declarations for library users (`types` in package.json); the JavaScript comes from esbuild above.
execFileSync(process.execPath, [path.join(root, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.json", "--emitDeclarationOnly"], {
  cwd: root,
  stdio: "inherit",
});

// The web UI's browser assets (dist/web), shipped built: `cairn ui` needs no build step or network at run time.
execFileSync(process.execPath, [path.join(root, "node_modules", "vite", "bin", "vite.js"), "build", "--config", "src/faces/web/client/vite.config.ts"], {
  cwd: root,
  stdio: "inherit",
});

/**
 * zod re-exports all of its ~45 message locales as `z.locales`, so every bundle carried 368 KB of
 * them (half the zod chunk) for every command to parse at start-up. Cairn speaks English only (zod's
 * default, registered by its schemas module): the namespace keeps just `en`.
 */
function zodEnglishOnly() {
  return {
    name: "zod-english-only",
    setup(b) {
      b.onResolve({ filter: /\/locales\/index\.js$/ }, (args) =>
        /[\\/]node_modules[\\/]zod[\\/]/.test(args.importer)
          ? { path: "english-only", namespace: "zod-locales", pluginData: { dir: path.join(path.dirname(args.importer), "..", "locales") } }
          : undefined,
      );
      // zod's own en.js stays a real input, so its licence is still collected from node_modules/zod.
      b.onLoad({ filter: /.*/, namespace: "zod-locales" }, (args) => ({
        contents: 'export { default as en } from "./en.js";',
        resolveDir: args.pluginData.dir,
        loader: "js",
      }));
    },
  };
}

/** The licence text of every third-party package whose code ended up in the bundles, as the licences ask. */
function writeThirdPartyLicenses(metafile) {
  const packages = new Map();
  for (const input of Object.keys(metafile.inputs)) {
    const m = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input.replaceAll("\\", "/"));
    if (!m) continue;
    const dir = path.join(root, input.slice(0, m.index + m[0].length));
    if (packages.has(dir)) continue;
    packages.set(dir, m[1]);
  }
  const parts = [];
  for (const [dir, name] of [...packages].sort((a, b) => a[1].localeCompare(b[1]))) {
    const meta = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"));
    const file = fs.readdirSync(dir).find((f) => /^(licen[cs]e|copying)(\.|$)/i.test(f));
    const text = file ? fs.readFileSync(path.join(dir, file), "utf8").trim() : `License: ${meta.license ?? "see package"}`;
    parts.push(`${name}@${meta.version} (${meta.license ?? "unknown"})\n\n${text}`);
  }
  fs.writeFileSync(path.join(dist, "THIRD-PARTY-LICENSES.txt"), `${parts.join(`\n\n${"-".repeat(72)}\n\n`)}\n`);
}
