// Which source modules a command of the built CLI really loads: the chunks it opens, and the modules bundled into each.
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { BIN, REPO } from "./cli.js";

const TRACER = path.join(REPO, "test", "fixtures", "load-tracer.mjs");

/**
 * esbuild (unminified) starts every bundled module with a `// <path>` comment; those paths are the
 * modules a chunk holds. A file that is not a chunk stands for itself.
 */
function modulesIn(file: string): string[] {
  const rel = path.relative(REPO, file).replaceAll("\\", "/");
  if (!rel.startsWith("dist/")) return [rel];
  const text = fs.readFileSync(file, "utf8");
  return [...text.matchAll(/^\/\/ ((?:src|node_modules)\/\S+)$/gm)].map((m) => m[1]!);
}

/** Runs `cairn …args` with a module-load tracer and returns every source module it loaded (deduplicated). */
export async function loadedModules(args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv }): Promise<string[]> {
  const stderr = await new Promise<string>((resolve, reject) =>
    execFile(process.execPath, ["--import", TRACER, BIN, ...args], { cwd: opts.cwd, env: opts.env }, (err, _out, errText) =>
      err && typeof (err as { code?: unknown }).code !== "number" ? reject(err) : resolve(errText),
    ),
  );
  const files = stderr.split("\n").filter((l) => l.startsWith("LOADED ")).map((l) => fileURLToPath(l.slice(7)));
  return [...new Set(files.flatMap(modulesIn))];
}
