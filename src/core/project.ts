// Stable project identity: a hash of the git remote when there is one, else of the absolute path.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { stripInvisibleChars } from "../quality/sanitize.js";

export interface ProjectIdentity {
  /** `p_` + 16 hex chars; the same for every clone of one remote. */
  id: string;
  /** For people: the repository or folder name. */
  name: string;
  dir: string;
}

/** Reads `remote "origin"` (else the first remote) from .git/config without spawning git. */
export function gitRemoteUrl(dir: string): string | undefined {
  let gitDir = path.join(dir, ".git");
  try {
    const st = fs.statSync(gitDir);
    if (st.isFile()) {
      // A worktree or submodule: ".git" is a file pointing at the real git dir.
      const m = /^gitdir:\s*(.+)$/m.exec(fs.readFileSync(gitDir, "utf8"));
      if (!m) return undefined;
      gitDir = path.resolve(dir, m[1]!.trim());
      const common = path.join(gitDir, "commondir");
      if (fs.existsSync(common)) gitDir = path.resolve(gitDir, fs.readFileSync(common, "utf8").trim());
    }
    const text = fs.readFileSync(path.join(gitDir, "config"), "utf8");
    const remotes = [...text.matchAll(/\[remote "([^"]+)"\]([^[]*)/g)].map((m) => ({
      name: m[1]!,
      url: /^\s*url\s*=\s*(.+)$/m.exec(m[2]!)?.[1]?.trim(),
    }));
    return (remotes.find((r) => r.name === "origin") ?? remotes[0])?.url;
  } catch {
    return undefined;
  }
}

/** `git@github.com:Org/Repo.git` and `https://github.com/org/repo` name the same project. */
export function normalizeRemote(url: string): string {
  return url
    .trim()
    .replace(/^[a-z+]+:\/\//i, "")
    .replace(/^[^@/]+@/, "")
    .replace(/:(?!\d)/, "/")
    .replace(/\.git$/i, "")
    .replace(/\/+$/, "")
    .toLowerCase();
}

export function resolveProject(dir: string): ProjectIdentity {
  const abs = path.resolve(dir);
  const remote = gitRemoteUrl(abs);
  const key = remote ? `git:${normalizeRemote(remote)}` : `path:${abs}`;
  const id = `p_${createHash("sha256").update(key).digest("hex").slice(0, 16)}`;
  const raw = remote ? normalizeRemote(remote).split("/").pop() || path.basename(abs) : path.basename(abs);
  // A folder name may hold anything: terminal escapes and hidden characters must not reach a terminal, a page or a teammate's hive.
  const name = fitProjectName(stripInvisibleChars(raw).replace(/\s+/g, " ").trim() || "project");
  return { id, name, dir: abs };
}

/** The longest project name a lesson's provenance holds (ProvenanceSchema.source_project_name). */
export const PROJECT_NAME_MAX = 200;

/**
 * A name past the limit is cut, whole characters only, and ends "…" + 8 hex of the full name: still
 * readable, the same on every run, and two long folders sharing their first 190 characters stay apart.
 * Before, such a folder's lessons were all refused (source_project_name too long).
 */
export function fitProjectName(name: string): string {
  if (name.length <= PROJECT_NAME_MAX) return name;
  const suffix = `…${createHash("sha256").update(name).digest("hex").slice(0, 8)}`;
  let head = "";
  for (const ch of name) {
    if (head.length + ch.length + suffix.length > PROJECT_NAME_MAX) break;
    head += ch;
  }
  return head.trimEnd() + suffix;
}
