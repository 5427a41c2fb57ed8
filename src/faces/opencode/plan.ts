// Reading opencode-swarm's `.swarm/plan.md`: phases, their status and tasks, the current one, cached by mtime.
import fs from "node:fs/promises";
import path from "node:path";

export type PhaseStatus = "complete" | "in_progress" | "pending" | "blocked" | "unknown";

export interface PlanTask {
  id: string;
  text: string;
  done: boolean;
}

export interface PlanPhase {
  number: number;
  /** "Phase 2: Context Pruning" without its status marker. */
  title: string;
  status: PhaseStatus;
  tasks: PlanTask[];
  /** The phase's markdown, heading included. */
  text: string;
}

export interface Plan {
  title?: string;
  phases: PlanPhase[];
  /** From the "Phase: N" header line, else the first phase not complete, else the last. */
  current?: PlanPhase;
}

const PHASE_HEADING = /^##\s+Phase\s+(\d+)\b(.*)$/i;

function statusOf(rest: string): PhaseStatus {
  const s = rest.toUpperCase();
  if (/\[(COMPLETE|COMPLETED|DONE)\]|✅/.test(s)) return "complete";
  if (/\[(IN[ _-]?PROGRESS|ACTIVE|CURRENT)\]/.test(s)) return "in_progress";
  if (/\[BLOCKED\]/.test(s)) return "blocked";
  if (/\[(PENDING|TODO|NOT STARTED)\]/.test(s)) return "pending";
  return "unknown";
}

function cleanTitle(line: string): string {
  return line.replace(/^#+\s*/, "").replace(/\s*(\[[^\]]*\]\s*|✅\s*)+$/g, "").trim();
}

function tasksOf(lines: string[]): PlanTask[] {
  const tasks: PlanTask[] = [];
  for (const line of lines) {
    const box = /^\s*[-*]\s+\[([ xX])\]\s+(?:(\d+(?:\.\d+)+)[:.)]?\s*)?(.*)$/.exec(line);
    if (box) {
      tasks.push({ id: box[2] ?? String(tasks.length + 1), text: box[3]!.trim(), done: box[1] !== " " });
      continue;
    }
    const head = /^###\s+(\d+(?:\.\d+)+)[:.)]?\s*(.*)$/.exec(line);
    if (head) tasks.push({ id: head[1]!, text: cleanTitle(head[2]!), done: /✅|\[(COMPLETE|COMPLETED|DONE|x)\]/i.test(head[2]!) });
  }
  return tasks;
}

export function parsePlan(markdown: string): Plan {
  const lines = markdown.split(/\r?\n/);
  const title = lines.find((l) => /^#\s/.test(l))?.replace(/^#\s+/, "").trim();
  const phases: PlanPhase[] = [];
  let start = -1;
  const close = (end: number) => {
    if (start < 0) return;
    const m = PHASE_HEADING.exec(lines[start]!)!;
    const body = lines.slice(start + 1, end);
    phases.push({ number: Number(m[1]), title: cleanTitle(lines[start]!), status: statusOf(m[2]!), tasks: tasksOf(body), text: lines.slice(start, end).join("\n").trimEnd() });
  };
  lines.forEach((line, i) => {
    if (PHASE_HEADING.test(line)) {
      close(i);
      start = i;
    } else if (start >= 0 && /^##?\s/.test(line) && !/^###/.test(line)) {
      close(i);
      start = -1;
    }
  });
  close(lines.length);
  for (const p of phases) {
    if (p.status === "unknown" && p.tasks.length && p.tasks.every((t) => t.done)) p.status = "complete";
  }
  const header = /^Phase:\s*(\d+)/im.exec(markdown);
  const byHeader = header ? phases.find((p) => p.number === Number(header[1])) : undefined;
  const current = byHeader ?? phases.find((p) => p.status !== "complete") ?? phases[phases.length - 1];
  return { ...(title ? { title } : {}), phases, ...(current ? { current } : {}) };
}

/** The ≤ maxChars orientation line for system prompts and compaction. */
export function phaseSummary(plan: Plan, maxChars: number): string {
  const p = plan.current;
  if (!p || maxChars <= 0) return "";
  const done = p.tasks.filter((t) => t.done).length;
  const next = p.tasks.find((t) => !t.done);
  const status = p.status === "unknown" ? "" : ` [${p.status.replace("_", " ").toUpperCase()}]`;
  const counts = p.tasks.length ? ` — ${done}/${p.tasks.length} tasks done` : "";
  const text = `${p.title}${status}${counts}${next ? `; next: ${next.id} ${next.text}` : ""}`;
  return text.length <= maxChars ? text : `${text.slice(0, Math.max(0, maxChars - 1))}…`;
}

export function currentTask(plan: Plan): PlanTask | undefined {
  return plan.current?.tasks.find((t) => !t.done);
}

/** Re-reads plan.md only when its mtime or size changed; a missing plan is `undefined`, never an error. */
export class PlanReader {
  private cache: { key: string; plan: Plan; text: string } | undefined;
  readonly file: string;

  constructor(projectDir: string, swarmDir = ".swarm") {
    this.file = path.join(projectDir, swarmDir, "plan.md");
  }

  async read(): Promise<{ plan: Plan; text: string } | undefined> {
    let st;
    try {
      st = await fs.stat(this.file);
    } catch {
      this.cache = undefined;
      return undefined;
    }
    const key = `${st.mtimeMs}:${st.size}`;
    if (this.cache?.key === key) return this.cache;
    const text = await fs.readFile(this.file, "utf8");
    this.cache = { key, plan: parsePlan(text), text };
    return this.cache;
  }
}
