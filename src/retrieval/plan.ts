// The current phase and task from `.swarm/plan.json` (opencode-swarm) or `.swarm/plan.md`: bounded reads, never throws.
import fs from "node:fs";
import path from "node:path";

export interface PlanContext {
  /** "Phase 2: Auth middleware", status markers removed. */
  phase?: string;
  /** The first unfinished task of that phase, with its indented description lines. */
  task?: string;
  phaseNumber?: number;
  tasksDone: number;
  tasksTotal: number;
}

/** A plan is a page of text; anything bigger is read only this far (a truncated plan.json then falls back to plan.md). */
export const MAX_PLAN_BYTES = 256 * 1024;
const MAX_TASK_CHARS = 400;
const MAX_DESCRIPTION_LINES = 4;

interface ParsedTask {
  text: string;
  done: boolean;
}

interface ParsedPhase {
  number?: number;
  title: string;
  tasks: ParsedTask[];
}

const PHASE_HEADING_RE = /^#{2,3}\s+Phase\s+(\d+)\b\s*[:.)\-–—]?\s*(.*)$/i;
const OTHER_HEADING_RE = /^#{1,2}\s/;
const CHECKBOX_RE = /^(\s*)[-*+]\s+\[([ xX])\]\s+(.*)$/;
// "2.1: " numbering and trailing "[SMALL]" / "[IN PROGRESS]" / "✅" markers are bookkeeping, not work.
const TASK_ID_RE = /^\d+(?:\.\d+)+\s*[:.)-]?\s*/;
const TRAILING_MARKERS_RE = /(\s*(\[[^\]]{1,30}\]|✅|✔️?))+\s*$/u;

function clean(text: string): string {
  return text.replace(TRAILING_MARKERS_RE, "").replace(/\s+/g, " ").trim();
}

function bounded(text: string): string {
  return text.length <= MAX_TASK_CHARS ? text : `${text.slice(0, MAX_TASK_CHARS - 1).trimEnd()}…`;
}

/** Phases of a markdown plan: `## Phase N: …` headings with `- [ ]` / `- [x]` tasks under them. */
export function parsePlanMarkdown(markdown: string): ParsedPhase[] {
  const phases: ParsedPhase[] = [];
  let phase: ParsedPhase | undefined;
  let task: { item: ParsedTask; indent: number; extra: number } | undefined;
  for (const line of markdown.split(/\r\n?|\n/)) {
    const heading = PHASE_HEADING_RE.exec(line);
    if (heading) {
      const rest = clean(heading[2] ?? "");
      phase = { number: Number(heading[1]), title: `Phase ${heading[1]}${rest ? `: ${rest}` : ""}`, tasks: [] };
      phases.push(phase);
      task = undefined;
      continue;
    }
    if (OTHER_HEADING_RE.test(line)) {
      phase = undefined;
      task = undefined;
      continue;
    }
    if (!phase) continue;
    const box = CHECKBOX_RE.exec(line);
    if (box) {
      const item = { text: clean(box[3]!.replace(TASK_ID_RE, "")), done: box[2] !== " " };
      phase.tasks.push(item);
      task = { item, indent: box[1]!.length, extra: 0 };
      continue;
    }
    // Lines indented under a task describe it (acceptance criteria, files, notes).
    const indent = /^(\s*)/.exec(line)![1]!.length;
    if (task && line.trim() && indent > task.indent && task.extra < MAX_DESCRIPTION_LINES) {
      const detail = clean(line.replace(/^\s*[-*+]\s+/, ""));
      if (detail) {
        task.item.text = `${task.item.text}. ${detail}`;
        task.extra++;
      }
    } else if (line.trim() && indent === 0) {
      task = undefined;
    }
  }
  return phases;
}

const DONE_STATUSES = new Set(["completed", "complete", "closed", "done"]);

/** Phases of opencode-swarm's plan.json ({ phases: [{ id, name, tasks: [{ description, status }] }] }); undefined if it is not one. */
export function parsePlanJson(text: string): ParsedPhase[] | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return undefined;
  }
  const phasesRaw = (raw as { phases?: unknown } | null)?.phases;
  if (!Array.isArray(phasesRaw)) return undefined;
  const phases: ParsedPhase[] = [];
  for (const p of phasesRaw) {
    if (!p || typeof p !== "object") continue;
    const { id, name, tasks } = p as { id?: unknown; name?: unknown; tasks?: unknown };
    const number = typeof id === "number" ? id : typeof id === "string" && /^\d+$/.test(id) ? Number(id) : undefined;
    const title = typeof name === "string" ? clean(name) : "";
    const parsed: ParsedTask[] = [];
    for (const t of Array.isArray(tasks) ? tasks : []) {
      if (!t || typeof t !== "object") continue;
      const { description, acceptance, status } = t as { description?: unknown; acceptance?: unknown; status?: unknown };
      if (typeof description !== "string" || !description.trim()) continue;
      const extra = typeof acceptance === "string" && acceptance.trim() ? `. ${acceptance.trim()}` : "";
      parsed.push({ text: clean(`${description}${extra}`), done: typeof status === "string" && DONE_STATUSES.has(status.toLowerCase()) });
    }
    phases.push({ ...(number !== undefined ? { number } : {}), title: number !== undefined ? `Phase ${number}${title ? `: ${title}` : ""}` : title, tasks: parsed });
  }
  return phases.length ? phases : undefined;
}

/** The current phase is the first with an unfinished task; its first unfinished task is the current task. */
export function planContextOf(phases: readonly ParsedPhase[]): PlanContext {
  const all = phases.flatMap((p) => p.tasks);
  const current = phases.find((p) => p.tasks.some((t) => !t.done));
  const task = current?.tasks.find((t) => !t.done);
  return {
    ...(current?.title ? { phase: bounded(current.title) } : {}),
    ...(task?.text ? { task: bounded(task.text) } : {}),
    ...(current?.number !== undefined ? { phaseNumber: current.number } : {}),
    tasksDone: all.filter((t) => t.done).length,
    tasksTotal: all.length,
  };
}

function readBounded(file: string): { text: string; key: string } | undefined {
  let fd: number | undefined;
  try {
    const st = fs.statSync(file);
    if (!st.isFile()) return undefined;
    const key = `${st.mtimeMs}:${st.size}`;
    const cached = cache.get(file);
    if (cached?.key === key) return { text: cached.text, key };
    fd = fs.openSync(file, "r");
    const buf = Buffer.alloc(Math.min(st.size, MAX_PLAN_BYTES));
    const n = fs.readSync(fd, buf, 0, buf.length, 0);
    const text = buf.subarray(0, n).toString("utf8");
    if (cache.size > 64) cache.clear();
    cache.set(file, { key, text });
    return { text, key };
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

// Injection reads the plan on every turn; unchanged files (same mtime and size) are not re-read.
const cache = new Map<string, { key: string; text: string }>();

/**
 * The plan's current phase and task for a project, from `<swarmDir>/plan.json` when it is a
 * valid opencode-swarm plan, else `<swarmDir>/plan.md`. Undefined when neither gives a phase;
 * a missing, huge or malformed file is never an error.
 */
export function readPlanContext(projectDir: string, swarmDir = ".swarm"): PlanContext | undefined {
  try {
    const dir = path.join(projectDir, swarmDir);
    const json = readBounded(path.join(dir, "plan.json"));
    const fromJson = json ? parsePlanJson(json.text) : undefined;
    if (fromJson) return planContextOf(fromJson);
    const md = readBounded(path.join(dir, "plan.md"));
    if (!md) return undefined;
    const phases = parsePlanMarkdown(md.text);
    return phases.length ? planContextOf(phases) : undefined;
  } catch {
    return undefined;
  }
}
