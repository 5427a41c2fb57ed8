// System prompt and compaction context: the standing instruction, the phase summary, cross-agent activity, phase lessons.
import { sanitizeForPrompt } from "../../quality/sanitize.js";
import { extractLessonsLearned, isRetraction, liveLessonFor } from "../../learning/curate.js";
import { readContextNotes } from "../../retrieval/context-notes.js";
import { currentTask, phaseSummary } from "../../retrieval/plan.js";
import { cautionOf } from "../../retrieval/render.js";
import type { Entry } from "../../core/entry.js";
import type { PluginState } from "./state.js";
import type { HookModel } from "./usage.js";

export const SYSTEM_MARKER = "[cairn]";

export const STANDING_INSTRUCTION =
  `${SYSTEM_MARKER} Knowledge tools: before a task or unfamiliar code, call knowledge_recall with the task and file names; ` +
  "after a mistake, a user correction or a decision, record one specific sentence with knowledge_add (never secrets); " +
  "when a lesson shown to you helped or was wrong, call knowledge_feedback with its id (e.g. S-12).";

const COMPACTION_MAX_CHARS = 2000;
/** Seed 002 §2.3: the newest few decisions keep agents on course after compaction. */
const SYSTEM_DECISIONS = 3;
const SYSTEM_DECISION_CHARS = 160;
/** Seed 002 §2.2: each context.md section carried into compaction is one string of at most this much. */
const COMPACTION_SECTION_CHARS = 500;
/** Every open task of the phase is carried; this bounds a plan with very many. */
const COMPACTION_TASKS_CHARS = 1500;
const COMPACTION_TASK_CHARS = 200;

/**
 * OpenCode's hidden title and summary agents share the session (so its agent name) and get
 * this hook too; their prompts are recognised by their opening words so they stay lean.
 */
const HIDDEN_AGENT_PROMPTS = [/^You are a title generator/, /^You are a context summarization agent/, /^Summarize what was done in this conversation/];

export function isHiddenAgentPrompt(system: string): boolean {
  return HIDDEN_AGENT_PROMPTS.some((re) => re.test(system.trimStart()));
}

/** The lines to append to a system prompt, or "" when there is nothing to say. */
export async function systemAddition(state: PluginState, sessionID: string | undefined, model?: HookModel): Promise<string> {
  // Knowledge switched off: no instruction to use tools that would only answer "disabled".
  if (!(await state.enabled())) return "";
  const opts = state.options.plugin;
  const lines: string[] = [];
  if (opts.system_instruction) lines.push(STANDING_INSTRUCTION);
  const planned = state.plans.read();
  if (planned && opts.system_instruction) {
    const summary = phaseSummary(planned.plan, opts.phase_summary_chars);
    if (summary) lines.push(`${SYSTEM_MARKER} Current plan: ${sanitizeForPrompt(summary, opts.phase_summary_chars)}`);
  }
  if (opts.system_instruction) {
    const decisions = readContextNotes(state.directory, state.swarmDir).decisions.slice(-SYSTEM_DECISIONS).reverse();
    if (decisions.length) lines.push(`${SYSTEM_MARKER} Key decisions (.swarm/context.md, newest first): ${decisions.map((d) => sanitizeForPrompt(d, SYSTEM_DECISION_CHARS)).join(" | ")}`);
  }
  const agent = state.activity.agentOf(sessionID);
  if (state.isOrchestrator(agent)) {
    const awareness = state.activity.summary(opts.agent_awareness_max_chars, agent);
    if (awareness) lines.push(`${SYSTEM_MARKER} ${sanitizeForPrompt(awareness, opts.agent_awareness_max_chars)}`);
    // Seed 002 §2.1: the orchestrator decides when to summarise; it is told how full its window is. The
    // budget comes from the engine's config: a store that cannot open costs this line, never the instruction.
    const cairn = await state.openedEngine();
    const budget = cairn ? state.usage.warning(cairn, sessionID, model) : "";
    if (budget) lines.push(`${SYSTEM_MARKER} ${budget}`);
  }
  return lines.join("\n");
}

/** Lines joined under a heading, stopping (and saying how many were left out) before `max` characters. */
function boundedList(heading: string, items: string[], max: number): string {
  let text = heading;
  for (let i = 0; i < items.length; i++) {
    const line = `\n- ${items[i]}`;
    const rest = items.length - i;
    if (text.length + line.length > max - (rest > 1 ? 40 : 0)) return `${text}\n- …and ${rest} more`;
    text += line;
  }
  return text;
}

/**
 * What compaction must keep, as separate context strings: the lessons and decisions of the phase, every
 * open task of the phase (not only the next), and context.md's decisions and patterns (seed 002 §2.2).
 */
export async function compactionContext(state: PluginState): Promise<string[]> {
  if (!(await state.enabled())) return [];
  const planned = state.plans.read();
  const phase = planned?.plan.current;
  const out: string[] = [];
  const knowledge = await knowledgeContext(state, planned);
  if (knowledge) out.push(knowledge);
  const open = phase?.tasks.filter((t) => !t.done) ?? [];
  if (phase && open.length) {
    const tasks = open.map((t) => sanitizeForPrompt(`${t.id} ${t.text}${t.detail ? ` (${t.detail})` : ""}`, COMPACTION_TASK_CHARS));
    out.push(boundedList(`Open tasks of ${sanitizeForPrompt(phase.title, 120)} (keep all, in order):`, tasks, COMPACTION_TASKS_CHARS));
  }
  const notes = readContextNotes(state.directory, state.swarmDir);
  for (const [name, items] of [["Decisions", notes.decisions], ["Patterns", notes.patterns]] as const) {
    if (!items.length) continue;
    // Newest first: when the section is cut, the oldest go.
    const lines = [...items].reverse().map((d) => sanitizeForPrompt(d, 200));
    out.push(boundedList(`${name} from .swarm/context.md (keep, newest first):`, lines, COMPACTION_SECTION_CHARS));
  }
  return out;
}

/** One lesson as compaction carries it: its handle, what it is, any caution, its text sanitised. */
function lessonLine(e: Entry, what: string): string {
  const caution = cautionOf(e);
  return `- [${e.handle}] ${what}: ${caution ? `${caution}: ` : ""}${sanitizeForPrompt(e.lesson, 200)}`;
}

/** The phase, the live lessons its Lessons Learned bullets became, and the lessons and decisions that fit it. */
async function knowledgeContext(state: PluginState, planned: ReturnType<PluginState["plans"]["read"]>): Promise<string> {
  const phase = planned?.plan.current;
  const lines: string[] = [];
  if (phase) lines.push(`Current phase (keep): ${sanitizeForPrompt(phaseSummary(planned!.plan, 300), 300)}`);
  // A store that cannot open costs the lessons, never the phase, its tasks or context.md's notes.
  const cairn = await state.openedEngine();
  const carried = new Set<string>();
  if (phase && cairn) {
    // A bullet is carried as the lesson it became, never as written: the gates may have refused it (a
    // secret, an injection), a person may have quarantined its lesson since, and a retraction is no lesson.
    const bullets = extractLessonsLearned(phase.text).flatMap((s) => s.bullets).filter((b) => !isRetraction(b));
    for (const b of bullets.slice(0, 8)) {
      const e = await liveLessonFor(cairn, b);
      if (!e || carried.has(e.id)) continue;
      carried.add(e.id);
      lines.push(lessonLine(e, "lesson of this phase"));
    }
  }
  const task = planned ? currentTask(planned.plan) : undefined;
  const query = [phase?.title, task?.text].filter(Boolean).join(" ");
  if (query && cairn) {
    const hits = (await cairn.recall({ phase: phase?.title, task: task?.text }, { limit: 8 })).filter((h) => !carried.has(h.entry.id));
    const ordered = [...hits.filter((h) => h.entry.kind === "decision"), ...hits.filter((h) => h.entry.kind !== "decision")];
    for (const h of ordered) lines.push(lessonLine(h.entry, h.entry.kind));
  }
  if (lines.length === 0) return "";
  let text = "Cairn knowledge to carry over (lessons and decisions of the current phase):";
  for (const l of lines) {
    if (text.length + l.length + 1 > COMPACTION_MAX_CHARS) break;
    text += `\n${l}`;
  }
  return text;
}
