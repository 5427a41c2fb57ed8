// The version the server reports at initialize: the package's own, read once at load.
import fs from "node:fs";

function readVersion(): string {
  // dist/faces/mcp and src/faces/mcp both sit three levels below the package root.
  try {
    const pkg = JSON.parse(fs.readFileSync(new URL("../../../package.json", import.meta.url), "utf8")) as { version?: unknown };
    return typeof pkg.version === "string" ? pkg.version : "0.0.0";
  } catch {
    return "0.0.0";
  }
}

export const SERVER_VERSION = readVersion();
