// Deterministic lesson extraction from a task outcome (the memory-catcher rules), no LLM needed.
import { FILE_GLOB_MAX, TAG_MAX, type Kind, type NewEntryInput } from "../core/entry.js";
import type { Outcome } from "./outcome.js";
import path from "node:path";
import { globOutsideProject } from "../core/project-glob.js";

/**
 * A touched path with `.` and `..` segments resolved (`packages/./billing/x.ts`, `src/auth/../session/x.ts`),
 * or undefined when it climbs out of the project: read segment by segment they named project "." or "..",
 * the feature of a folder the file is not in, and a glob that never matched the file.
 */
function resolvedPath(file: string): string | undefined {
  const p = path.posix.normalize(file.replace(/\\/g, "/"));
  return p === ".." || p.startsWith("../") ? undefined : p;
}

/**
 * The document's rule is "files_touched includes config or setup": a path segment or name part
 * (`src/config/db.ts`, `jest.config.js`, `setup.py`), config formats, and the usual rc/manifest files.
 */
const CONFIG_FILE = /(^|[/._-])(config|configs|configuration|setup|settings)([/._-]|$)|\.(conf|ini|toml|ya?ml)$|(^|\/)\.[a-z0-9-]+rc(\.[a-z]+)?$|(^|\/)(package\.json|[jt]sconfig[^/]*\.json|dockerfile|docker-compose[^/]*|\.env[^/]*)$/i;

/**
 * The memory-catcher's words ("always/never/prefer", "missing/lacking", "unexpected/discovered") in the
 * forms people write them: "the team prefers …" or "the cluster lacked …" carried no signal before, and
 * the lesson was lost.
 */
const SIGNALS: ReadonlyArray<{ kind: Kind; pattern: RegExp; boost: number }> = [
  { kind: "commitment", pattern: /\b(always|never|prefer(s|red|ring)?|must not|do not|don't)\b/i, boost: 15 },
  { kind: "gap", pattern: /\b(missing|lack(s|ed|ing)?|no support|not supported|unsupported)\b/i, boost: 10 },
  { kind: "insight", pattern: /\b(unexpected(ly)?|discover(s|ed|y|ies)|surprising(ly)?|turns out|found that)\b/i, boost: 5 },
];

const CODE_ROOTS = new Set(["src", "lib", "app"]);
/**
 * Folders that only hold features (feature-sliced and modular layouts): `src/features/auth/x.ts` is
 * about auth, and `features` names no feature — every file under it would otherwise be feature:features.
 */
const FEATURE_CONTAINERS = new Set(["features", "feature", "modules", "domains", "domain"]);
const PROJECT_ROOTS = new Set(["packages", "apps", "services"]);
/** Letters and digits of any script, as tags allow (core/entry.ts): `src/認証/` or `src/Zahlung/` names a feature as `src/auth/` does. */
const PROJECT_NAME = /^[\p{L}\p{M}\p{N}_.-]+$/u;
const FEATURE_NAME = /^[\p{L}\p{M}\p{N}_-]+$/u;
/**
 * Whether `kind:name` fits an entity (and its tag): a longer one made the entry schema refuse the whole
 * lesson, so one long folder name among the files touched lost every lesson of the task.
 */
const fitsEntity = (kind: string, name: string): boolean => kind.length + 1 + name.length <= TAG_MAX;

/**
 * `src/auth/x.ts` → feature:auth; `packages/foo/…`, `apps/foo/…`, `services/foo/…` → project:foo.
 * The innermost of each wins, and a code root is never itself the feature: `packages/app/src/auth/x.ts`
 * and `C:\repos\app\src\auth\x.ts` are feature:auth (the first `app/` or `src/` named feature:src), and
 * so is `src/features/auth/x.ts` (a feature container is never the feature either).
 */
export function entitiesFromPaths(files: readonly string[]): string[] {
  const out = new Set<string>();
  for (const raw of files) {
    const resolved = resolvedPath(raw);
    if (resolved === undefined) continue;
    // NFC: macOS hands paths decomposed (U + combining diaeresis), which would make a second entity for one folder.
    const dirs = resolved.normalize("NFC").replace(/^\.\//, "").split("/").slice(0, -1);
    let project: string | undefined;
    let feature: string | undefined;
    let fallback: string | undefined;
    for (let i = 0; i + 1 < dirs.length; i++) {
      const at = dirs[i]!.toLowerCase();
      const next = dirs[i + 1]!;
      if (PROJECT_ROOTS.has(at) && PROJECT_NAME.test(next) && fitsEntity("project", next)) project = next;
      if ((CODE_ROOTS.has(at) || FEATURE_CONTAINERS.has(at)) && FEATURE_NAME.test(next) && fitsEntity("feature", next)) {
        if (CODE_ROOTS.has(next.toLowerCase())) fallback = next;
        else if (!FEATURE_CONTAINERS.has(next.toLowerCase())) feature = next;
      }
    }
    if (project) out.add(`project:${project.toLowerCase()}`);
    const f = feature ?? fallback;
    if (f) out.add(`feature:${f.toLowerCase()}`);
  }
  return [...out].slice(0, 10);
}

/**
 * A path segment as a glob that matches only itself: route folders (`app/[id]/`, `app/[...slug]/`) and
 * other names with glob characters read as classes, braces and extglobs, so the lesson never came
 * back for the very files it was learned on.
 */
const literalSegment = (segment: string): string => segment.replace(/[*?[\]{}()!+@\\]/g, "\\$&");

/**
 * The glob of the folder holding `parts`' file, or of its deepest ancestor whose glob fits a lesson
 * (FILE_GLOB_MAX): a file deep in a tree (paths may be 400 characters) gave a glob the entry schema
 * refused, and with it the lesson. Undefined when not even the top folder fits.
 */
function folderGlob(parts: readonly string[]): string | undefined {
  for (let n = parts.length - 1; n >= 1; n--) {
    const glob = `${parts.slice(0, n).map(literalSegment).join("/")}/**`;
    if (glob.length <= FILE_GLOB_MAX) return glob;
  }
  return undefined;
}

/** Directory globs for the files touched, so the lesson comes back when those files are in play again. */
function globsFromPaths(files: readonly string[]): string[] {
  const dirs = new Set<string>();
  for (const f of files) {
    // A path outside the project (absolute, ../) makes no glob a lesson could be stored with. A touched
    // path with a leading slash is absolute (reflect has made the project's own relative), and read as a
    // glob it meant the project's folder of that name ("/tmp/scratch/x.ts" → tmp/scratch/**).
    if (globOutsideProject(f) || /^[\\/]/.test(f)) continue;
    const parts = f.replace(/\\/g, "/").replace(/^\.\//, "").split("/");
    const glob = parts.length > 1 ? folderGlob(parts) : literalSegment(parts[0]!).length <= FILE_GLOB_MAX ? literalSegment(parts[0]!) : undefined;
    if (glob) dirs.add(glob);
  }
  return [...dirs].slice(0, 5);
}

function sentences(text: string): string[] {
  return text
    .replace(/\s+/g, " ")
    .split(/(?<=[.!?;])\s+(?=[A-Z0-9`"'])/)
    .map((s) => s.trim())
    .filter((s) => s.length >= 15);
}

function fitLesson(s: string): string {
  if (s.length <= 280) return s;
  const cut = s.slice(0, 279);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(" "), 200))}…`;
}

/** Confidence per the document: 70 base, +15 error recovery, +10 quick, +15 strong evidence, clamped to 0..100. */
export function extractionConfidence(o: Outcome, evidenceSentences: number, boost: number): number {
  const pct = 70 + (o.error_count > 0 && o.success ? 15 : 0) + (o.duration_ms !== undefined && o.duration_ms < 30_000 ? 10 : 0) + (evidenceSentences > 2 ? 15 : 0) + boost;
  return Math.max(0, Math.min(100, pct)) / 100;
}

/**
 * Candidate lessons from an outcome. Only sentences that carry a signal become lessons:
 * a plain "implemented X" summary teaches nothing and is not stored.
 */
export function extractLessons(o: Outcome): NewEntryInput[] {
  const text = [o.evaluation, o.summary].filter(Boolean).join(" ");
  const all = sentences(text);
  const files = o.files_touched.map(resolvedPath).filter((f): f is string => f !== undefined);
  const entities = entitiesFromPaths(files);
  const file_globs = globsFromPaths(files);
  const touchedConfig = o.files_touched.some((f) => CONFIG_FILE.test(f));
  const recovered = o.error_count > 0 && o.success;
  const out: NewEntryInput[] = [];
  const seen = new Set<string>();
  const push = (sentence: string, kind: Kind, boost: number) => {
    const lesson = fitLesson(sentence);
    if (seen.has(lesson)) return;
    seen.add(lesson);
    out.push({
      lesson,
      kind,
      category: kind === "correction" ? "debugging" : kind === "decision" ? "architecture" : "other",
      confidence: Math.min(0.95, extractionConfidence(o, all.length, boost)),
      entities,
      tags: entities.map((e) => e.replace(":", "-")),
      applicability: { file_globs },
      derived_from: { kind: "outcome", ref: o.id },
      auto_generated: true,
      ...(o.phase ? { phase: o.phase } : {}),
    });
  };
  for (const s of all) {
    const signal = SIGNALS.find((x) => x.pattern.test(s));
    if (signal) push(s, signal.kind, signal.boost);
    else if (recovered && /\b(fix(ed)?|resolv(ed|e)|because|caused by|instead|by adding|by using|needs?)\b/i.test(s)) push(s, "correction", 0);
    // +10 "architectural" per the document's table; correction's +15 is already the recovery term.
    else if (touchedConfig && /\b(chose|chosen|decided|switched|use[sd]?|set|configured?)\b/i.test(s)) push(s, "decision", 10);
  }
  return out.slice(0, 5);
}
