// Impact: an advisory counts as a prevention when its task then succeeded and the pattern it matched is absent from the files touched.
import fs from "node:fs";
import path from "node:path";
import type { Outcome } from "../learning/outcome.js";
import { locate } from "../lifecycle/status.js";
import { openTiers, type Services } from "../services.js";
import { compilePattern, patternText } from "./patterns.js";
import { globMatcher } from "./rules.js";

const DEFAULT_WINDOW_MS = 30 * 60_000;
const MAX_FILES = 50;

/** Counts a prevention for each entry (a host that saw the agent change course after an advisory can say so directly). */
export async function markPrevented(s: Services, refs: readonly string[], actor: string, data: Record<string, unknown> = {}): Promise<number> {
  let n = 0;
  for (const ref of refs) {
    const loc = await locate(s, ref);
    await loc.store.recordUsage([loc.entry.id], "prevented", actor, data);
    n++;
  }
  return n;
}

/** The first `max` characters of a project file, or undefined when it is missing or outside the project. */
function readBounded(projectDir: string, rel: string, max: number): string | undefined {
  const full = path.resolve(projectDir, rel);
  const inside = path.relative(projectDir, full);
  if (inside.startsWith("..") || path.isAbsolute(inside)) return undefined;
  let fd: number | undefined;
  try {
    fd = fs.openSync(full, "r");
    if (!fs.fstatSync(fd).isFile()) return undefined;
    const buf = Buffer.alloc(max);
    const n = fs.readSync(fd, buf, 0, max, 0);
    return buf.subarray(0, n).toString("utf8");
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/**
 * Run once per outcome (reflection). Only pattern matches count: a glob match says the lesson was
 * relevant, not that the mistake was about to happen. Without readable touched files nothing is
 * claimed — "prevented" must be evidence, not a guess. One consultation counts at most once, however
 * many outcomes (or re-runs) look at it.
 */
export async function evaluatePreventions(s: Services, o: Outcome, outcomeId: string, endAt: string): Promise<number> {
  if (!o.success || o.files_touched.length === 0) return 0;
  const end = Date.parse(endAt);
  const since = new Date(end - (o.duration_ms ?? DEFAULT_WINDOW_MS)).toISOString();
  const max = s.config.governance.advisories.max_text_chars;
  const contents = new Map<string, string | undefined>();
  const read = (f: string) => {
    if (!contents.has(f)) contents.set(f, readBounded(s.project.dir, f, max));
    return contents.get(f);
  };
  const touched = o.files_touched.slice(0, MAX_FILES).map((f) => f.replace(/\\/g, "/").replace(/^\.\//, ""));
  let counted = 0;
  for (const store of openTiers(s)) {
    const events = await store.listEventsByType("consulted", since, 5000);
    // The latest pattern consultation per entry: it is what the task was warned about, and it is claimed once.
    const latest = new Map<string, number>();
    // A consultation by another project's agent (hive lessons are shared) is not this task's warning.
    const ours = (e: { data: Record<string, unknown> }) => typeof e.data.project_id !== "string" || e.data.project_id === s.project.id;
    for (const e of events) if (e.at <= endAt && e.data.matched === "pattern" && ours(e)) latest.set(e.entry_id, e.seq);
    for (const [id, seq] of latest) {
      const entry = await store.getEntry(id);
      const pattern = compilePattern(entry?.prevention.detection_pattern);
      if (!entry || !pattern || pattern.kind === "glob") continue;
      const scoped = entry.applicability.file_globs.length ? touched.filter(globMatcher(entry.applicability.file_globs)) : touched;
      const texts = scoped.map(read).filter((t): t is string => t !== undefined);
      if (texts.length === 0 || texts.some((t) => pattern.matchText(t, patternText(t)))) continue;
      if (!(await store.claimEffect(`consulted:${seq}:prevented`))) continue;
      await store.recordUsage([id], "prevented", "cairn:reflect", { outcome: outcomeId });
      counted++;
    }
  }
  return counted;
}
