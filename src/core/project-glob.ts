// Whether a lesson's file glob can name a file of the project: globs are matched against project-relative paths, so one outside it never applies.
import path from "node:path";
import { quoteInput } from "../quality/sanitize.js";

/**
 * Top folders of a machine that a glob written with a leading slash means as an absolute path: "/etc/passwd"
 * is the machine's file, not the project's etc/ folder. A leading slash alone is .gitignore's anchor at the
 * project root ("/src/auth/**", "/Makefile"), so only these are read as absolute; a project's own folder of
 * the same name is written without the slash ("etc/nginx/**").
 */
const MACHINE_ROOTS = new Set(["etc", "usr", "home", "Users", "root", "proc", "sys", "private", "Volumes", "mnt"]);

const EXAMPLE = 'file globs are matched against paths relative to the project root, e.g. "src/auth/**"';

/** Why `glob` names nothing in the project (absolute, a drive, a share, a home folder, a climb out with ..), or undefined when it may. */
export function globOutsideProject(glob: string): string | undefined {
  const g = glob.trim();
  const shown = quoteInput(g, 200);
  const why = (what: string, advice = EXAMPLE) => `${shown} ${what}: ${advice}.`;
  if (/^[\\/]{2}/.test(g)) return why("is a network share or absolute path outside the project");
  if (/^[A-Za-z]:(?:[\\/]|$)/.test(g)) return why("is a drive path outside the project");
  if (/^~[^\\/]*(?:[\\/]|$)/.test(g) || /^\$\{?HOME\}?(?:[\\/]|$)/.test(g) || /^%[A-Za-z_]+%/.test(g)) return why("is in a home folder outside the project");
  if (g.split(/[\\/]/).includes("..")) return why("climbs out of the project with ..");
  const top = /^\/([^\\/]+)\//.exec(g)?.[1];
  if (top && MACHINE_ROOTS.has(top)) {
    return why(`is the machine's /${top} folder, outside the project`, `${EXAMPLE}; for the project's own ${top}/ folder write ${quoteInput(g.slice(1), 200)}`);
  }
  return undefined;
}

/**
 * A glob written as an absolute path inside the project (tab completion, `$PWD/src/**`) made project-relative:
 * read as written, its leading slash is the anchor at the project root, so it named a folder the project does not
 * hold and never matched. `roots`: the project folder as given and as resolved (symlinks). Other globs are returned as they are.
 */
export function relativeToProject(glob: string, roots: readonly string[]): string {
  const g = glob.trim().replace(/\\/g, "/");
  for (const root of roots) {
    const r = root.replace(/\\/g, "/").replace(/\/+$/, "");
    if (r && g.startsWith(`${r}/`)) return path.posix.normalize(g.slice(r.length + 1)) || "**";
  }
  return glob;
}
