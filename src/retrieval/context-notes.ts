// The one reader of opencode-swarm's `.swarm/context.md` for prompts: its Decisions and Patterns bullets, bounded, cached, never throws.
import fs from "node:fs";
import path from "node:path";
import { sectionFor } from "../io/formats/context-md.js";

export interface ContextNotes {
  /** Bullets of the `## Decisions` section, in file order (opencode-swarm appends, so the last are the newest). */
  decisions: string[];
  /** Bullets of the `## Patterns` section, in file order. */
  patterns: string[];
}

const MAX_BYTES = 128 * 1024;
const EMPTY: ContextNotes = { decisions: [], patterns: [] };

/** Bullets with their indented continuation lines folded in; fenced code is not read as structure. */
export function parseContextNotes(markdown: string): ContextNotes {
  const notes: ContextNotes = { decisions: [], patterns: [] };
  let into: string[] | undefined;
  let open = false;
  let fence = false;
  for (const line of markdown.split(/\r\n?|\n/)) {
    if (/^\s*(```|~~~)/.test(line)) fence = !fence;
    if (fence) continue;
    const heading = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      open = false;
      if (heading[1]!.length > 2) continue;
      const section = heading[1]!.length === 2 ? sectionFor(heading[2]!) : undefined;
      into = section === "decision" ? notes.decisions : section === "pattern" ? notes.patterns : undefined;
      continue;
    }
    const bullet = /^[-*+]\s+(?:\[[ xX]\]\s+)?(.*)$/.exec(line);
    if (bullet && into) {
      into.push(bullet[1]!.trim());
      open = true;
    } else if (open && into && line.trim() && /^\s/.test(line)) {
      into[into.length - 1] += ` ${line.trim()}`;
    } else {
      open = false;
    }
  }
  for (const list of [notes.decisions, notes.patterns]) for (let i = list.length - 1; i >= 0; i--) if (!list[i]) list.splice(i, 1);
  return notes;
}

// Read on every turn's system prompt: an unchanged file (same mtime and size) is not re-read.
const cache = new Map<string, { key: string; notes: ContextNotes }>();

/** `<swarmDir>/context.md` of a project; empty lists when there is none or it cannot be read. */
export function readContextNotes(projectDir: string, swarmDir = ".swarm"): ContextNotes {
  const file = path.resolve(projectDir, swarmDir, "context.md");
  let fd: number | undefined;
  try {
    const st = fs.statSync(file);
    if (!st.isFile()) return EMPTY;
    const key = `${st.mtimeMs}:${st.size}`;
    const hit = cache.get(file);
    if (hit?.key === key) return hit.notes;
    fd = fs.openSync(file, "r");
    const buf = Buffer.alloc(Math.min(st.size, MAX_BYTES));
    const n = fs.readSync(fd, buf, 0, buf.length, 0);
    const notes = parseContextNotes(buf.subarray(0, n).toString("utf8"));
    if (cache.size > 64) cache.clear();
    cache.set(file, { key, notes });
    return notes;
  } catch {
    return EMPTY;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}
