// The installed package's own files (version, shipped assets), found the same way from src/, dist/ and the bundles.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const PACKAGE_NAME = "cairn-knowledge";

let root: string | undefined;

/**
 * The folder holding this package's package.json. Source files (tests), tsc output and the
 * esbuild chunks sit at different depths, so it is searched upwards rather than assumed.
 */
export function packageRoot(): string {
  if (root) return root;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const file = path.join(dir, "package.json");
    try {
      if ((JSON.parse(fs.readFileSync(file, "utf8")) as { name?: unknown }).name === PACKAGE_NAME) return (root = dir);
    } catch {
      // No package.json here (or not ours): keep climbing.
    }
    const up = path.dirname(dir);
    if (up === dir) throw new Error(`Cannot find the ${PACKAGE_NAME} package.json above ${fileURLToPath(import.meta.url)}.`);
    dir = up;
  }
}

let version: string | undefined;

/** The package version, read once; "0.0.0" when the package.json cannot be read. */
export function packageVersion(): string {
  if (version) return version;
  try {
    const pkg = JSON.parse(fs.readFileSync(path.join(packageRoot(), "package.json"), "utf8")) as { version?: unknown };
    version = typeof pkg.version === "string" ? pkg.version : "0.0.0";
  } catch {
    version = "0.0.0";
  }
  return version;
}
