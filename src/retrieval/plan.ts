// The one reader of opencode-swarm's `.swarm/plan.json` / `plan.md`: phases, statuses, tasks, the current one; bounded, cached, never throws.
import fs from "node:fs";
import path from "node:path";

export type PhaseStatus = "complete" | "in_progress" | "pending" | "blocked" | "unknown";

export interface PlanTask {
  /** "2.1", or the task's position in its phase when it has no number. */
  id: string;
  /** The task line without its number and "[SMALL]"/"✅" markers. */
  text: string;
  done: boolean;
  /** Lines indented under the task (acceptance, files), or plan.json's `acceptance`. */
  detail?: string;
}

export interface PlanPhase {
  number: number;
  /** "Phase 2: Context Pruning", status markers removed. */
  title: string;
  status: PhaseStatus;
  tasks: PlanTask[];
  /** The phase's markdown, heading included (rendered when the plan is plan.json alone). */
  text: string;
}

export interface Plan {
  title?: string;
  phases: PlanPhase[];
  /** See {@link currentPhase}. */
  current?: PlanPhase;
}

/** What retrieval needs of a plan: the open phase and its next task, bounded. */
export interface PlanContext {
  phase?: string;
  /** The first unfinished task of that phase, with its description. */
  task?: string;
  phaseNumber?: number;
  tasksDone: number;
  tasksTotal: number;
}

/**
 * A plan is read only this far (a truncated plan.json then falls back to plan.md): far past any plan a
 * person keeps — forty phases of ten long tasks are ~300 KB — and still a bounded read per change.
 */
export const MAX_PLAN_BYTES = 4 * 1024 * 1024;
const MAX_CONTEXT_CHARS = 400;
const MAX_DESCRIPTION_LINES = 4;

const PHASE_HEADING_RE = /^#{2,3}\s+Phase\s+(\d+)\b\s*[:.)\-–—]?\s*(.*)$/i;
const OTHER_HEADING_RE = /^#{1,2}\s/;
const CHECKBOX_RE = /^(\s*)[-*+]\s+\[([ xX])\]\s+(.*)$/;
const HEADING_TASK_RE = /^###\s+(\d+(?:\.\d+)+)\s*[:.)-]?\s*(.*)$/;
const TASK_ID_RE = /^(\d+(?:\.\d+)+)\s*[:.)-]?\s*/;
// "[SMALL]" / "[IN PROGRESS]" / "✅" are bookkeeping, not part of a title.
const TRAILING_MARKERS_RE = /(\s*(\[[^\]]{1,30}\]|✅|✔️?))+\s*$/u;
const DONE_MARK_RE = /✅|✔|\[(complete|completed|done|x)\]/i;

const STATUS_WORDS: Record<string, PhaseStatus> = {
  complete: "complete", completed: "complete", done: "complete", closed: "complete",
  in_progress: "in_progress", inprogress: "in_progress", active: "in_progress", current: "in_progress",
  blocked: "blocked",
  pending: "pending", todo: "pending", not_started: "pending",
};

function statusWord(word: unknown): PhaseStatus | undefined {
  return typeof word === "string" ? STATUS_WORDS[word.trim().toLowerCase().replace(/[\s-]+/g, "_")] : undefined;
}

/** "# Plan: Auth rewrite" names the plan "Auth rewrite": faces print "Plan: <title>" themselves. */
function planTitle(text: string | undefined): string | undefined {
  const t = text?.replace(/^plan\s*[:—–-]\s*/i, "").trim();
  return t || undefined;
}

function clean(text: string): string {
  return text.replace(TRAILING_MARKERS_RE, "").replace(/\s+/g, " ").trim();
}

function bounded(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1))}…`;
}

function headingStatus(rest: string): PhaseStatus {
  if (/✅/u.test(rest)) return "complete";
  for (const m of rest.matchAll(/\[([^\]]{1,30})\]/g)) {
    const s = statusWord(m[1]);
    if (s) return s;
  }
  return "unknown";
}

/** An unmarked phase whose tasks are all checked is complete; the marker, when there is one, wins. */
function settle(phases: PlanPhase[]): void {
  for (const p of phases) if (p.status === "unknown" && p.tasks.length && p.tasks.every((t) => t.done)) p.status = "complete";
}

/**
 * The phase the plan says it is at (the `Phase: N` header or plan.json's `current_phase`, else a phase
 * marked in progress), else the first with work left, else the first not complete, else the last.
 */
function currentPhase(phases: readonly PlanPhase[], named?: number): PlanPhase | undefined {
  return (
    (named !== undefined ? phases.find((p) => p.number === named) : undefined) ??
    phases.find((p) => p.status === "in_progress") ??
    phases.find((p) => p.status !== "complete" && p.tasks.some((t) => !t.done)) ??
    phases.find((p) => p.status !== "complete") ??
    phases[phases.length - 1]
  );
}

function planOf(title: string | undefined, phases: PlanPhase[], named?: number): Plan {
  settle(phases);
  const current = currentPhase(phases, named);
  return { ...(title ? { title } : {}), phases, ...(current ? { current } : {}) };
}

/** `## Phase N: …` (or `###`) headings with `- [ ]` / `- [x]` or `### 2.1: …` tasks under them. */
export function parsePlanMarkdown(markdown: string): Plan {
  const lines = markdown.split(/\r\n?|\n/);
  const phases: PlanPhase[] = [];
  let phase: (PlanPhase & { start: number }) | undefined;
  let task: { item: PlanTask; indent: number; extra: number } | undefined;
  const close = (end: number) => {
    if (!phase) return;
    const { start, ...done } = phase;
    done.text = lines.slice(start, end).join("\n").trimEnd();
    phases.push(done);
    phase = undefined;
  };
  lines.forEach((line, i) => {
    const heading = PHASE_HEADING_RE.exec(line);
    if (heading) {
      close(i);
      const rest = clean(heading[2] ?? "");
      phase = { number: Number(heading[1]), title: `Phase ${heading[1]}${rest ? `: ${rest}` : ""}`, status: headingStatus(heading[2] ?? ""), tasks: [], text: "", start: i };
      task = undefined;
      return;
    }
    if (OTHER_HEADING_RE.test(line)) {
      close(i);
      task = undefined;
      return;
    }
    if (!phase) return;
    const box = CHECKBOX_RE.exec(line);
    const head = box ? undefined : HEADING_TASK_RE.exec(line);
    if (box || head) {
      const raw = box ? box[3]! : head![0].replace(/^###\s+/, "");
      const id = TASK_ID_RE.exec(raw)?.[1] ?? String(phase.tasks.length + 1);
      const item: PlanTask = { id, text: clean(raw.replace(TASK_ID_RE, "")), done: box ? box[2] !== " " : DONE_MARK_RE.test(head![2]!) };
      phase.tasks.push(item);
      task = box ? { item, indent: box[1]!.length, extra: 0 } : undefined;
      return;
    }
    // Lines indented under a checkbox describe its task (acceptance criteria, files, notes).
    const indent = /^(\s*)/.exec(line)![1]!.length;
    if (task && line.trim() && indent > task.indent && task.extra < MAX_DESCRIPTION_LINES) {
      const detail = clean(line.replace(/^\s*[-*+]\s+/, ""));
      if (detail) {
        task.item.detail = task.item.detail ? `${task.item.detail}. ${detail}` : detail;
        task.extra++;
      }
    } else if (line.trim() && indent === 0) {
      task = undefined;
    }
  });
  close(lines.length);
  const title = planTitle(lines.find((l) => /^#\s/.test(l))?.replace(/^#\s+/, ""));
  const header = /^Phase:\s*(\d+)/im.exec(markdown);
  return planOf(title, phases, header ? Number(header[1]) : undefined);
}

function numberOf(id: unknown): number | undefined {
  if (typeof id === "number" && Number.isFinite(id)) return id;
  return typeof id === "string" && /^\d+$/.test(id.trim()) ? Number(id) : undefined;
}

function renderPhase(p: Omit<PlanPhase, "text">): string {
  const status = p.status === "unknown" ? "" : ` [${p.status.replace("_", " ").toUpperCase()}]`;
  const tasks = p.tasks.map((t) => `- [${t.done ? "x" : " "}] ${t.id}: ${t.text}${t.detail ? `\n  - ${t.detail}` : ""}`);
  return [`## ${p.title}${status}`, ...tasks].join("\n");
}

/** opencode-swarm's plan.json ({ phases: [{ id, name, status, tasks: [{ id, description, status }] }] }); undefined if it is not one. */
export function parsePlanJson(text: string): Plan | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return undefined;
  }
  const { phases: phasesRaw, title, current_phase } = (raw ?? {}) as { phases?: unknown; title?: unknown; current_phase?: unknown };
  if (!Array.isArray(phasesRaw)) return undefined;
  const phases: PlanPhase[] = [];
  phasesRaw.forEach((p: unknown, i) => {
    if (!p || typeof p !== "object") return;
    const { id, name, status, tasks } = p as { id?: unknown; name?: unknown; status?: unknown; tasks?: unknown };
    const number = numberOf(id) ?? i + 1;
    const rest = typeof name === "string" ? clean(name) : "";
    const parsed: PlanTask[] = [];
    for (const t of Array.isArray(tasks) ? tasks : []) {
      if (!t || typeof t !== "object") continue;
      const { id: tid, description, acceptance, status: ts } = t as { id?: unknown; description?: unknown; acceptance?: unknown; status?: unknown };
      if (typeof description !== "string" || !description.trim()) continue;
      const detail = typeof acceptance === "string" ? clean(acceptance) : "";
      const taskId = typeof tid === "string" || typeof tid === "number" ? String(tid) : String(parsed.length + 1);
      parsed.push({ id: taskId, text: clean(description), done: statusWord(ts) === "complete", ...(detail ? { detail } : {}) });
    }
    const phase = { number, title: `Phase ${number}${rest ? `: ${rest}` : ""}`, status: statusWord(status) ?? "unknown", tasks: parsed };
    phases.push({ ...phase, text: "" });
  });
  if (!phases.length) return undefined;
  const plan = planOf(typeof title === "string" ? planTitle(clean(title)) : undefined, phases, numberOf(current_phase));
  for (const p of plan.phases) p.text = renderPhase(p);
  return plan;
}

function renderPlan(plan: Plan): string {
  return [...(plan.title ? [`# ${plan.title}`] : []), ...plan.phases.map((p) => p.text)].join("\n\n") + "\n";
}

export function currentTask(plan: Plan): PlanTask | undefined {
  return plan.current?.tasks.find((t) => !t.done);
}

/** Case, spacing and trailing punctuation aside: how a reported task's words are compared with a plan task's. */
function taskWords(text: string): string {
  return text.normalize("NFC").toLowerCase().replace(/\s+/g, " ").replace(/[\s.:;,!-]+$/, "").trim();
}

/** Below this many characters a reported task names too little to be matched to a plan task by its words. */
const MIN_TASK_MATCH_CHARS = 12;

/**
 * The plan task an agent's own report of "the task" is of: the task its number names ("2.2: …"), else one whose
 * words hold the report's or are held by it (the current phase first), else the current task — so the plugin's
 * automatic outcome of that task and the agent's report count as one.
 */
export function planTaskNamed(plan: Plan, reported: string): { phase: PlanPhase; task: PlanTask } | undefined {
  const phases = plan.current ? [plan.current, ...plan.phases.filter((p) => p !== plan.current)] : plan.phases;
  const number = /^\s*(?:task\s*)?(\d+(?:\.\d+)+)\b/i.exec(reported)?.[1];
  if (number) {
    for (const phase of phases) {
      const task = phase.tasks.find((t) => t.id === number);
      if (task) return { phase, task };
    }
  }
  const words = taskWords(reported.replace(/^\s*(?:task\s*)?\d+(?:\.\d+)+[:.)]?/i, ""));
  if (words.length >= MIN_TASK_MATCH_CHARS) {
    for (const phase of phases) {
      const task = phase.tasks.find((t) => {
        const own = taskWords(t.text);
        return own.length >= MIN_TASK_MATCH_CHARS && (own.includes(words) || words.includes(own));
      });
      if (task) return { phase, task };
    }
  }
  const task = currentTask(plan);
  return task && plan.current ? { phase: plan.current, task } : undefined;
}

/** The ≤ maxChars orientation line for system prompts and compaction. */
export function phaseSummary(plan: Plan, maxChars: number): string {
  const p = plan.current;
  if (!p || maxChars <= 0) return "";
  const done = p.tasks.filter((t) => t.done).length;
  const next = currentTask(plan);
  const status = p.status === "unknown" ? "" : ` [${p.status.replace("_", " ").toUpperCase()}]`;
  const counts = p.tasks.length ? ` — ${done}/${p.tasks.length} tasks done` : "";
  return bounded(`${p.title}${status}${counts}${next ? `; next: ${next.id} ${next.text}` : ""}`, maxChars);
}

/**
 * Retrieval's view: the current phase only while it is open (work left, or marked in progress,
 * pending or blocked) — a finished plan names no phase — and its first unfinished task.
 */
export function planContextOf(plan: Plan): PlanContext {
  const all = plan.phases.flatMap((p) => p.tasks);
  const p = plan.current;
  const open = p && p.status !== "complete" && (p.status !== "unknown" || p.tasks.some((t) => !t.done)) ? p : undefined;
  const task = open ? currentTask(plan) : undefined;
  const taskText = task ? (task.detail ? `${task.text}. ${task.detail}` : task.text) : "";
  return {
    ...(open ? { phase: bounded(open.title, MAX_CONTEXT_CHARS), phaseNumber: open.number } : {}),
    ...(taskText ? { task: bounded(taskText, MAX_CONTEXT_CHARS) } : {}),
    tasksDone: all.filter((t) => t.done).length,
    tasksTotal: all.length,
  };
}

function statKey(file: string): string | undefined {
  try {
    const st = fs.statSync(file);
    return st.isFile() ? `${st.mtimeMs}:${st.size}` : undefined;
  } catch {
    return undefined;
  }
}

function readBounded(file: string): string | undefined {
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, "r");
    const buf = Buffer.alloc(Math.min(fs.fstatSync(fd).size, MAX_PLAN_BYTES));
    const n = fs.readSync(fd, buf, 0, buf.length, 0);
    return buf.subarray(0, n).toString("utf8");
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

export interface ReadPlan {
  plan: Plan;
  /** The plan as markdown: plan.md when there is one (Lessons Learned live there), else rendered from plan.json. */
  text: string;
}

// Injection and recall read the plan on every turn; unchanged files (same mtime and size) are not re-read.
const cache = new Map<string, { key: string; value: ReadPlan | undefined }>();

function load(jsonFile: string | undefined, mdFile: string | undefined): ReadPlan | undefined {
  const md = mdFile ? readBounded(mdFile) : undefined;
  const fromMd = md !== undefined ? parsePlanMarkdown(md) : undefined;
  const json = jsonFile ? readBounded(jsonFile) : undefined;
  const fromJson = json !== undefined ? parsePlanJson(json) : undefined;
  if (!fromJson) return fromMd && md !== undefined ? { plan: fromMd, text: md } : undefined;
  // plan.json is the source of truth for structure and status; plan.md keeps the prose of each phase.
  for (const p of fromJson.phases) {
    const prose = fromMd?.phases.find((m) => m.number === p.number)?.text;
    if (prose) p.text = prose;
  }
  return { plan: fromJson, text: md ?? renderPlan(fromJson) };
}

/** `<swarmDir>/plan.json` when it is a valid opencode-swarm plan, else `<swarmDir>/plan.md`; undefined when neither is there. */
export function readPlan(projectDir: string, swarmDir = ".swarm"): ReadPlan | undefined {
  try {
    const dir = path.resolve(projectDir, swarmDir);
    const jsonFile = path.join(dir, "plan.json");
    const mdFile = path.join(dir, "plan.md");
    const [jsonKey, mdKey] = [statKey(jsonFile), statKey(mdFile)];
    const key = `${jsonKey}|${mdKey}`;
    const hit = cache.get(dir);
    if (hit?.key === key) return hit.value;
    const value = load(jsonKey && jsonFile, mdKey && mdFile);
    if (cache.size > 64) cache.clear();
    cache.set(dir, { key, value });
    return value;
  } catch {
    return undefined;
  }
}

/** A project's plan reader, for faces that hold one per project. */
export class PlanReader {
  /** plan.md, the file agents write and Lessons Learned come from. */
  readonly file: string;

  constructor(
    readonly projectDir: string,
    readonly swarmDir = ".swarm",
  ) {
    this.file = path.join(projectDir, swarmDir, "plan.md");
  }

  read(): ReadPlan | undefined {
    return readPlan(this.projectDir, this.swarmDir);
  }
}

/** The plan's current phase and task for retrieval; undefined when the plan has no phases. */
export function readPlanContext(projectDir: string, swarmDir = ".swarm"): PlanContext | undefined {
  const read = readPlan(projectDir, swarmDir);
  return read?.plan.phases.length ? planContextOf(read.plan) : undefined;
}
