// Reading a third-party checkout in place (a work tree, or HEAD of a bare clone): nothing of it is copied into this repository.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

/** The texts of the files under `under` whose names end in `suffix` (or match it): from the work tree, or from HEAD in a bare clone. */
export function files(checkout: string, under: string, suffix: string | RegExp): Array<{ name: string; text: string }> {
  const git = (...a: string[]) => execFileSync("git", ["-C", checkout, ...a], { encoding: "utf8", maxBuffer: 256 << 20 });
  // `under` may be "." (the whole tree), which exists in a bare clone too: ask git which this is.
  const bare = git("rev-parse", "--is-bare-repository").trim() === "true";
  const names = git(...(bare ? ["ls-tree", "-r", "--name-only", "HEAD", "--", under] : ["ls-files", "--", under]))
    .split("\n")
    .filter((f) => (typeof suffix === "string" ? f.endsWith(suffix) : suffix.test(f)));
  return names.map((name) => ({ name, text: bare ? git("show", `HEAD:${name}`) : fs.readFileSync(path.join(checkout, name), "utf8") }));
}
