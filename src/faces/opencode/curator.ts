// Curator in tool.execute.after: plan.md Lessons Learned and evidence files become entries; phase completion runs the lifecycle.
import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { makeFolder } from "../../core/folders.js";
import { curateLessons, emptyReport, extractEvidenceLessons, extractLessonsLearned, mergeReports, type CurateReport } from "../../learning/curate.js";
import { parsePlanMarkdown, planTaskNamed, type PhaseStatus, type PlanPhase, type PlanTask } from "../../retrieval/plan.js";
import type { PluginState } from "./state.js";

/** Tools whose path argument names the file they change; patch tools name theirs inside the patch text. */
const WRITE_TOOLS = new Set(["write", "edit", "multiedit"]);
const PATCH_TOOLS = new Set(["patch", "apply_patch"]);
const PATH_ARGS = ["filePath", "path", "file_path"];
const PHASE_COMPLETE_TOOLS = new Set(["phase_complete"]);
const MAX_REMEMBERED = 500;
const SAVE_DELAY_MS = 10_000;

interface CuratorMemory {
  version: 1;
  /** Lessons Learned section key → hash of its text: an unchanged section is skipped whole. */
  sections: Record<string, string>;
  /** Section key → hashes of bullets already curated, so an appended bullet does not re-add the others. */
  bullets: Record<string, string[]>;
  /** Evidence file (relative) → hash of its content. */
  evidence: Record<string, string>;
  /** Phase number → last status seen, to notice a phase turning complete. */
  phases: Record<string, PhaseStatus>;
  /** Phase title → entries shown to orchestrators during it, for their outcome at completion. */
  shown: Record<string, string[]>;
  /** "phase#task id" → done, to notice a task turning done. */
  tasks?: Record<string, boolean>;
  /** Phase title → how many of its shown entries earlier task outcomes already covered. */
  taskMark?: Record<string, number>;
}

export interface CurateRun {
  report: CurateReport;
  completed: string[];
}

const hash = (s: string) => createHash("sha1").update(s).digest("hex").slice(0, 16);

export interface Touched {
  plan: boolean;
  evidence: string[];
  phaseComplete?: number | string;
}

/** Cheap: string checks on the call's arguments only; nothing is read unless a .swarm file is named. */
export function touchedFiles(tool: string, args: unknown, swarmDir: string): Touched | undefined {
  const a = (args && typeof args === "object" ? args : {}) as Record<string, unknown>;
  if (PHASE_COMPLETE_TOOLS.has(tool)) {
    const phase = a.phase ?? a.phase_number ?? a.phaseNumber;
    return { plan: true, evidence: [], phaseComplete: typeof phase === "number" || typeof phase === "string" ? phase : "current" };
  }
  let texts: string[];
  // Only the arguments that name files: a file's content mentioning .swarm/plan.md is not a write to it.
  if (WRITE_TOOLS.has(tool)) texts = PATH_ARGS.map((k) => a[k]).filter((v): v is string => typeof v === "string");
  else if (PATCH_TOOLS.has(tool)) texts = Object.values(a).filter((v): v is string => typeof v === "string");
  else if (tool === "bash" && typeof a.command === "string") texts = [a.command];
  else return undefined;
  const marker = swarmDir.replace(/\\/g, "/").replace(/^\.\//, "");
  if (!texts.some((t) => t.includes(marker))) return undefined;
  const planRel = `${marker}/plan.md`;
  const evidence = new Set<string>();
  let plan = false;
  const re = new RegExp(`${marker.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}/evidence/[^\\s'"\`]+?\\.json`, "g");
  for (const t of texts) {
    // A path outside this project that merely ends the same way only costs a hash check of ours.
    const norm = t.replace(/\\/g, "/");
    if (norm.includes(planRel)) plan = true;
    for (const m of norm.matchAll(re)) evidence.add(m[0]);
  }
  return plan || evidence.size ? { plan, evidence: [...evidence] } : undefined;
}

export class Curator {
  private memory: CuratorMemory | undefined;
  private chain: Promise<unknown> = Promise.resolve();
  private saveTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly state: PluginState) {}

  private get file(): string {
    return this.state.swarmPath("cairn-curator.json");
  }

  /** One curation at a time: parallel tool calls must not curate the same section twice. */
  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.chain.then(fn, fn);
    this.chain = run.catch(() => undefined);
    return run;
  }

  private async load(): Promise<CuratorMemory> {
    if (this.memory) return this.memory;
    const empty: CuratorMemory = { version: 1, sections: {}, bullets: {}, evidence: {}, phases: {}, shown: {} };
    try {
      const raw = JSON.parse(await fs.readFile(this.file, "utf8")) as Partial<CuratorMemory>;
      this.memory = { ...empty, ...raw, version: 1 };
    } catch {
      this.memory = empty;
    }
    return this.memory;
  }

  private async save(): Promise<void> {
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
    if (!this.memory) return;
    makeFolder(path.dirname(this.file));
    const tmp = `${this.file}.${process.pid}.tmp`;
    await fs.writeFile(tmp, JSON.stringify(this.memory));
    await fs.rename(tmp, this.file);
  }

  /**
   * Entries shown to an orchestrator during a phase; their outcome is recorded when it completes.
   * Kept in memory and written at most every SAVE_DELAY_MS (and on dispose): no file write per turn.
   */
  noteShown(phase: string | undefined, ids: string[]): void {
    if (!phase || !ids.length) return;
    void this.serial(async () => {
      const m = await this.load();
      const set = new Set([...(m.shown[phase] ?? []), ...ids]);
      m.shown[phase] = [...set].slice(-MAX_REMEMBERED);
      if (!this.saveTimer) {
        this.saveTimer = setTimeout(() => void this.serial(() => this.save()).catch((e) => this.state.log.error("curator.save", e)), SAVE_DELAY_MS);
        this.saveTimer.unref?.();
      }
    }).catch((e) => this.state.log.error("curator.noteShown", e));
  }

  /** Writes pending memory now (plugin dispose). */
  flush(): Promise<void> {
    return this.serial(() => (this.saveTimer ? this.save() : Promise.resolve()));
  }

  /** The tool.execute.after entry point. */
  async afterTool(tool: string, args: unknown, sessionID?: string): Promise<CurateRun | undefined> {
    if (!this.state.options.plugin.curate) return undefined;
    const touched = touchedFiles(tool, args, this.state.swarmDir);
    if (!touched || !(await this.state.enabled())) return undefined;
    return this.serial(async () => {
      let run: CurateRun = { report: emptyReport(), completed: [] };
      if (touched.plan) run = await this.curatePlan(sessionID);
      for (const rel of touched.evidence) run.report = mergeReports(run.report, await this.curateEvidence(rel, sessionID));
      if (touched.phaseComplete !== undefined) {
        const title = await this.phaseTitle(touched.phaseComplete);
        if (title && (await this.completePhase(title))) run.completed.push(title);
      }
      await this.save();
      return run;
    });
  }

  /**
   * Before compaction: plan.md's Lessons Learned bullets the curator has not seen yet (a person wrote them,
   * or the plan predates the plugin) go through the gates now, so compaction can carry what they became.
   * What was curated before is skipped as on every write; with curation off, nothing is written.
   */
  curatePlanNow(sessionID?: string): Promise<CurateReport> {
    return this.serial(async () => {
      if (!this.state.options.plugin.curate || !(await this.state.enabled())) return emptyReport();
      const run = await this.curatePlan(sessionID);
      await this.save();
      return run.report;
    });
  }

  /** `/swarm curate`: the plan and every evidence file, still skipping what is unchanged. */
  curateAll(sessionID?: string): Promise<CurateRun> {
    return this.serial(async () => {
      if (!(await this.state.enabled())) return { report: emptyReport(), completed: [] };
      const run = await this.curatePlan(sessionID);
      let names: string[] = [];
      try {
        names = (await fs.readdir(this.state.swarmPath("evidence"), { recursive: true })).filter((n) => n.endsWith(".json"));
      } catch {
        // No evidence folder yet.
      }
      for (const n of names) run.report = mergeReports(run.report, await this.curateEvidence(`${this.state.swarmDir}/evidence/${n.split(path.sep).join("/")}`, sessionID));
      await this.save();
      return run;
    });
  }

  private async phaseTitle(phase: number | string): Promise<string | undefined> {
    const planned = this.state.plans.read();
    if (phase === "current") return planned?.plan.current?.title;
    const n = Number(String(phase).replace(/^phase\s*/i, ""));
    return planned?.plan.phases.find((p) => p.number === n)?.title ?? (Number.isFinite(n) ? `Phase ${n}` : String(phase));
  }

  private async curatePlan(sessionID?: string): Promise<CurateRun> {
    const m = await this.load();
    let text: string;
    try {
      text = await fs.readFile(this.state.plans.file, "utf8");
    } catch {
      return { report: emptyReport(), completed: [] };
    }
    const plan = parsePlanMarkdown(text);
    const cairn = await this.state.cairn();
    let report = emptyReport();
    const perPhase = new Map<string, number>();
    for (const section of extractLessonsLearned(text)) {
      const phase = section.phase ?? plan.current?.title;
      const n = perPhase.get(phase ?? "") ?? 0;
      perPhase.set(phase ?? "", n + 1);
      const key = `${phase ?? "plan"}#${n}`;
      const h = hash(section.text);
      if (m.sections[key] === h) continue;
      const done = new Set(m.bullets[key] ?? []);
      const fresh = section.bullets.filter((b) => !done.has(hash(b)));
      const ref = `${this.state.swarmDir}/plan.md${phase ? `#${phase}` : ""}`;
      report = mergeReports(report, await curateLessons(cairn, fresh, { ref, kind: "retrospective", ...(phase ? { phase } : {}), actor: "curator", ...(sessionID ? { sessionId: sessionID } : {}) }));
      m.bullets[key] = [...done, ...fresh.map(hash)].slice(-MAX_REMEMBERED);
      m.sections[key] = h;
    }
    await this.recordTaskOutcomes(plan.phases);
    const completed: string[] = [];
    for (const p of plan.phases) {
      const prev = m.phases[String(p.number)];
      m.phases[String(p.number)] = p.status;
      // Only a change seen here counts: a plan first read with finished phases is history, not news.
      if (prev !== undefined && prev !== "complete" && p.status === "complete" && (await this.completePhase(p.title))) completed.push(p.title);
    }
    if (report.added.length || report.quarantined.length || report.rejected.length) {
      this.state.log.write("info", `curated ${this.state.swarmDir}/plan.md: ${JSON.stringify({ added: report.added, quarantined: report.quarantined, rejected: report.rejected.length })}`);
    }
    return { report, completed };
  }

  private async curateEvidence(rel: string, sessionID?: string): Promise<CurateReport> {
    const m = await this.load();
    const file = path.resolve(this.state.directory, rel);
    if (!file.startsWith(this.state.swarmPath("evidence") + path.sep)) return emptyReport();
    let text: string;
    try {
      text = await fs.readFile(file, "utf8");
    } catch {
      return emptyReport();
    }
    const h = hash(text);
    if (m.evidence[rel] === h) return emptyReport();
    m.evidence[rel] = h;
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch (e) {
      this.state.log.write("warn", `evidence file ${rel} is not valid JSON (${(e as Error).message}); skipped`);
      return emptyReport();
    }
    const lessons = extractEvidenceLessons(doc);
    if (!lessons.length) return emptyReport();
    const phase = this.state.plans.read()?.plan.current?.title;
    const cairn = await this.state.cairn();
    return curateLessons(cairn, lessons, { ref: rel, kind: "evidence", ...(phase ? { phase } : {}), actor: "curator", ...(sessionID ? { sessionId: sessionID } : {}) });
  }

  /** A plan task's outcome id: the plugin's automatic outcome of it and an agent's report of it share it as their task. */
  private taskId(p: PlanPhase, t: PlanTask): string {
    return `task-${hash(`${this.state.directory}\n${p.title}\n${t.id}\n${t.text}`)}`;
  }

  /** The plan task an agent's knowledge_outcome report is of (planTaskNamed), as taskId names it; none without a plan. */
  taskIdOf(reported: string): string | undefined {
    const plan = this.state.plans.read()?.plan;
    const named = plan ? planTaskNamed(plan, reported) : undefined;
    return named ? this.taskId(named.phase, named.task) : undefined;
  }

  /**
   * A task checked off in the plan is a finished task: its outcome covers the lessons shown in
   * its phase since the previous task finished (the plan says done, so success).
   */
  private async recordTaskOutcomes(phases: ReturnType<typeof parsePlanMarkdown>["phases"]): Promise<void> {
    const m = await this.load();
    const tasks = (m.tasks ??= {});
    const marks = (m.taskMark ??= {});
    for (const p of phases) {
      for (const t of p.tasks) {
        const key = `${p.number}#${t.id}`;
        const prev = tasks[key];
        tasks[key] = t.done;
        // Only a change seen here counts: tasks already done when the plan is first read are history.
        if (prev !== false || !t.done) continue;
        const shown = m.shown[p.title] ?? [];
        const since = shown.slice(marks[p.title] ?? 0);
        marks[p.title] = shown.length;
        if (!since.length) continue;
        const cairn = await this.state.cairn();
        const id = this.taskId(p, t);
        await cairn.recordOutcome({
          id,
          task_id: id,
          task: t.text.slice(0, 500),
          phase: p.title.slice(0, 120),
          success: true,
          shown_entry_ids: [...new Set(since)].slice(-200),
        });
      }
    }
    const keys = Object.keys(tasks);
    if (keys.length > MAX_REMEMBERED * 4) for (const k of keys.slice(0, keys.length - MAX_REMEMBERED * 4)) delete tasks[k];
  }

  /** Sweep and promotions once per phase, then the outcome of the lessons shown during it. */
  private async completePhase(title: string): Promise<boolean> {
    const m = await this.load();
    const cairn = await this.state.cairn();
    // The engine decides a repeat (the last phase swept, shared with `cairn sweep`): a guard on every title
    // ever completed here would stop a later plan's "Phase 1" from ever ageing the project again.
    const r = await cairn.completePhase(title, "cairn:phase");
    // A repeat (`cairn sweep --phase` got there first) still owes the lessons shown here their outcome.
    const repeat = r.sweep.some((s) => s.skipped);
    // Only what no finished task's outcome took already: a lesson shown during a task checked off
    // earlier was credited by that task, and crediting it again here counted one showing twice.
    const shown = (m.shown[title] ?? []).slice(m.taskMark?.[title] ?? 0);
    if (shown.length) {
      // The engine's outcome queue turns a completed phase into weighted implicit feedback; the id makes it once-only.
      await cairn.recordOutcome({ id: `phase-${hash(`${this.state.directory}\n${title}`)}`, task: title.slice(0, 500), phase: title.slice(0, 120), success: true, shown_entry_ids: shown.slice(-200) });
    }
    delete m.shown[title];
    if (m.taskMark) delete m.taskMark[title];
    if (repeat) return false;
    const archived = r.sweep.reduce((n, s) => n + s.archived.length + s.removed.length, 0);
    const promoted = r.promotions.filter((p) => p.action !== "rejected").length;
    this.state.log.write("info", `phase complete: ${title} (archived/removed ${archived}, promoted ${promoted})`);
    return true;
  }
}
