// The /swarm command: registered in the config hook without clobbering, answered in command.execute.before.
import type { Config, Hooks } from "@opencode-ai/plugin";
import { describeReport } from "../../learning/curate.js";
import { isCairnError, NotFoundError } from "../../errors.js";
import { sanitizeForPrompt, sanitizeMarkdownForPrompt } from "../../quality/sanitize.js";
import { phaseSummary } from "../../retrieval/plan.js";
import type { Curator } from "./curator.js";
import type { LessonInput } from "../../core/categories.js";
import { HUMAN_ACTOR, knowledgeCommand, knowledgeHelp, lessonArgs } from "./knowledge-command.js";
import type { PluginState } from "./state.js";

type CommandOutput = Parameters<NonNullable<Hooks["command.execute.before"]>>[1];
type Part = CommandOutput["parts"][number];

const MAX_PLAN_CHARS = 8000;

/** Ends every command answer; the injector skips turns carrying it (the model only acknowledges). */
export const COMMAND_NOTE =
  "[cairn] The text above is the complete output of a Cairn slash command, already shown to the user. Do not call tools; reply with one short sentence at most.";

/** Splits arguments like a shell would for quotes: `add "two words" x` → ["add", "two words", "x"]. */
export function splitArgs(raw: string): string[] {
  const out: string[] = [];
  for (const m of raw.matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'|“([^”]*)”|(\S+)/g)) out.push((m[1]?.replace(/\\(.)/g, "$1") ?? m[2] ?? m[3] ?? m[4])!);
  return out;
}

export function helpText(name: string): string {
  return [
    `Cairn — /${name} commands:`,
    ...knowledgeHelp(name),
    `\`/${name} promote "lesson"\` · \`/${name} promote --from-swarm <id>\` — into the cross-project hive`,
    `\`/${name} curate\` — learn from .swarm/plan.md Lessons Learned and evidence files now`,
    `\`/${name} status\` — current phase and task counts · \`/${name} plan [N]\` — the plan or phase N`,
    `\`/${name} agents\` — the agents OpenCode has configured`,
  ].join("\n");
}

/** The config hook: add our command unless the user (or another plugin) already has one by that name. */
export function registerCommand(state: PluginState, config: Config): void {
  state.agents = (config.agent ?? {}) as Record<string, unknown>;
  const name = state.options.plugin.command;
  const commands = (config.command ??= {});
  if (commands[name]) {
    if (!String(commands[name]?.template ?? "").includes("[cairn]")) {
      state.report(`/${name} is already defined (by you or another plugin); Cairn left it alone. Set the plugin option "command" to use another name.`);
    }
    return;
  }
  // The template only matters if our hook fails: then the model is told what happened.
  commands[name] = { template: "[cairn] /" + name + " $ARGUMENTS", description: "Cairn knowledge: lessons, plan status, agents (try /" + name + " help)" };
  registered.add(state);
}

const registered = new WeakSet<PluginState>();

/** Longest a problem is said in `/swarm status` (a config error lists every bad key on one line). */
const PROBLEM_MAX_CHARS = 600;

async function status(state: PluginState): Promise<string> {
  // Opened first, so what opening it found (a damaged database, a config it refused) is among the problems.
  await state.openedEngine();
  const planned = state.plans.read();
  const lines: string[] = [];
  if (!planned || planned.plan.phases.length === 0) lines.push("No active swarm plan found (.swarm/plan.md).");
  else {
    const { plan } = planned;
    const all = plan.phases.flatMap((p) => p.tasks);
    // A phase marked [COMPLETE] finished its tasks whether or not each got its ✅ (seed 002's plan ticks
    // only some): the count says so. Only this line reads it that way; outcomes follow the task's own mark.
    const unticked = plan.phases.filter((p) => p.status === "complete").flatMap((p) => p.tasks.filter((t) => !t.done)).length;
    const done = all.filter((t) => t.done).length + unticked;
    lines.push(`Plan: ${sanitizeForPrompt(plan.title ?? "untitled", 120)}`);
    lines.push(`Phases: ${plan.phases.filter((p) => p.status === "complete").length}/${plan.phases.length} complete; tasks: ${done}/${all.length} done${unticked ? ` (${unticked} not ticked, in complete phases)` : ""}`);
    lines.push(`Current: ${sanitizeForPrompt(phaseSummary(plan, 300), 300)}`);
  }
  lines.push(`Agents configured: ${Object.keys(state.agents).length}`);
  // A problem quotes what it found (an option name from opencode.json, a file path): this answer reaches the model.
  if (state.problems.length) lines.push("Problems:", ...state.problems.map((p) => `- ${sanitizeForPrompt(p, PROBLEM_MAX_CHARS)}`));
  return lines.join("\n");
}

async function planText(state: PluginState, args: string[]): Promise<string> {
  const planned = state.plans.read();
  if (!planned || !planned.text.trim()) return "No active swarm plan found (.swarm/plan.md).";
  const n = args[0] && /^\d+$/.test(args[0]) ? Number(args[0]) : undefined;
  // Markdown stays Markdown: the TUI renders it, and the model reads the structure.
  if (n === undefined) return sanitizeMarkdownForPrompt(planned.text, MAX_PLAN_CHARS);
  const phase = planned.plan.phases.find((p) => p.number === n);
  return phase ? sanitizeMarkdownForPrompt(phase.text, MAX_PLAN_CHARS) : `Phase ${n} not found in plan.`;
}

function agentsText(state: PluginState): string {
  const entries = Object.entries(state.agents);
  if (!entries.length) return "No agents configured in opencode.json (OpenCode's built-in build and plan agents still exist).";
  return [
    `${entries.length} agent(s):`,
    ...entries.map(([name, raw]) => {
      const a = (raw ?? {}) as { model?: string; mode?: string; description?: string; disable?: boolean; temperature?: unknown; tools?: Record<string, boolean>; permission?: { edit?: string } };
      const readOnly = a.tools?.write === false || a.tools?.edit === false || a.permission?.edit === "deny";
      const temperature = typeof a.temperature === "number" ? `temperature ${a.temperature}` : undefined;
      // The user's config, but still text pasted into the conversation: one line each.
      const bits = [a.mode && sanitizeForPrompt(String(a.mode), 40), a.model && sanitizeForPrompt(String(a.model), 120), temperature, readOnly ? "read-only" : undefined, a.disable ? "disabled" : undefined, state.isOrchestrator(name) ? "gets lessons block" : "gets directives"].filter(Boolean);
      return `- ${sanitizeForPrompt(name, 60)} (${bits.join(", ")})${a.description ? `: ${sanitizeForPrompt(a.description, 120)}` : ""}`;
    }),
  ].join("\n");
}

async function promote(state: PluginState, args: string[]): Promise<string> {
  const cairn = await state.cairn();
  const from = args.indexOf("--from-swarm");
  const id = from >= 0 ? args[from + 1] : undefined;
  if (from >= 0 && !id) return `Usage: \`/${state.options.plugin.command} promote --from-swarm <id>\``;
  const parsed = id ? undefined : lessonArgs(args);
  if (!id && !parsed?.text) return `Usage: \`/${state.options.plugin.command} promote "lesson" [--category c] [--tags a,b] [--scope s]\``;
  const r = id
    ? await cairn.promote({ id }, HUMAN_ACTOR)
    : await cairn.promote({ lesson: { lesson: parsed!.text, ...parsed!.fields, created_by: HUMAN_ACTOR, auto_generated: false } as LessonInput }, HUMAN_ACTOR);
  if (r.action === "rejected") return `Not promoted — rejected: ${sanitizeForPrompt(r.reason ?? "", PROBLEM_MAX_CHARS)}`;
  // `from` is the project entry's stored id; a person knows it by its handle (S-12), as every other answer names it.
  const origin = r.from ? ((await cairn.get(r.from).catch(() => undefined))?.handle ?? r.from) : undefined;
  return `${r.action === "added" ? "Promoted to the hive as" : "Already in the hive: reinforced"} ${r.handle}${origin ? ` (from ${origin})` : ""}.`;
}

/** The answer to `/<command> <args>`, as text. Errors a person can fix come back as text too. */
export async function runCommand(state: PluginState, curator: Curator, rawArgs: string, sessionID?: string): Promise<string> {
  const [sub, ...rest] = splitArgs(rawArgs);
  const name = state.options.plugin.command;
  try {
    switch (sub) {
      case "knowledge":
        return await knowledgeCommand(state, rest);
      case "promote":
        if (!rest.length) return `Usage: \`/${name} promote "lesson"\` or \`/${name} promote --from-swarm <id>\``;
        return await promote(state, rest);
      case "curate": {
        const run = await curator.curateAll(sessionID);
        const promoted = (await (await state.cairn()).promoteDue("curator:swarm")).filter((p) => p.action !== "rejected");
        return (
          `Curated .swarm/plan.md and evidence: ${describeReport(run.report)}.` +
          (run.completed.length ? ` Phase(s) completed: ${run.completed.join(", ")}.` : "") +
          ` Promoted to the hive: ${promoted.length ? promoted.map((p) => p.handle ?? p.id).join(", ") : "none due"}.`
        );
      }
      case "status":
        return await status(state);
      case "plan":
        return await planText(state, rest);
      case "agents":
        return agentsText(state);
      default:
        return `${sub && sub !== "help" ? `Unknown subcommand "${sanitizeForPrompt(sub, 40)}".\n` : ""}${helpText(name)}`;
    }
  } catch (e) {
    // A reason may quote what it found (a config key from a repository's .swarm/cairn.json, a path): the answer reaches the model.
    if (e instanceof NotFoundError) return `Failed: ${sanitizeForPrompt(e.message, PROBLEM_MAX_CHARS)} \`/${name} knowledge\` lists the lessons with their ids.`;
    if (isCairnError(e)) return `Failed: ${sanitizeForPrompt(e.message, PROBLEM_MAX_CHARS)}`;
    // Anything else (a store that cannot open, a file system error) is answered too: a command that
    // says nothing leaves its template to the model with no note, and the log may be what failed.
    state.log.write("error", `/${name} ${sub ?? ""}: ${e instanceof Error ? e.message : String(e)}`);
    return `Failed: ${sanitizeForPrompt(e instanceof Error ? e.message : String(e), 300)}`;
  }
}

/**
 * OpenCode always sends a command's parts to the model (the hook cannot stop that), so the
 * answer goes in as the visible user text and a synthetic note asks the model only to acknowledge.
 */
export async function handleCommand(state: PluginState, curator: Curator, input: { command: string; sessionID: string; arguments: string }, output: CommandOutput): Promise<boolean> {
  if (input.command !== state.options.plugin.command || !registered.has(state)) return false;
  const answer = await runCommand(state, curator, input.arguments ?? "", input.sessionID);
  const text = `/${input.command} ${input.arguments ?? ""}`.trim();
  // In place: OpenCode keeps its own reference to this array and ignores a replaced one.
  output.parts.splice(
    0,
    output.parts.length,
    { type: "text", text: `${text}\n\n${answer}` } as Part,
    { type: "text", synthetic: true, text: COMMAND_NOTE } as Part,
  );
  return true;
}
