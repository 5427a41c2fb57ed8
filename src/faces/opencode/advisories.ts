// Pre-action advisories in the tool hooks: vetted lessons that apply to what an edit or command is about to change, told before it runs.
import path from "node:path";
import { isBlocking, renderAdvisories } from "../../governance/advisories.js";
import { HookVeto } from "./log.js";
import type { PluginState } from "./state.js";

/** Tools whose `filePath` names the file they change, with the argument holding the new text. */
const FILE_TOOLS: Record<string, string> = { edit: "newString", write: "content", multiedit: "" };
const PATCH_TOOLS = new Set(["patch", "apply_patch"]);
const SHELL_TOOLS = new Set(["bash"]);
/** Tool calls that failed never reach tool.execute.after; their notes must not pile up. */
const MAX_PENDING = 200;
/** (session, advisory) pairs already shown before a call; oldest forgotten first. */
const MAX_TOLD = 2000;

/** What the model reads when a call is held back for a warning: it has not run, and how to go on. */
export const HELD_NOTE =
  "Cairn held this call back once, before it ran, so you can read the advice above — nothing was changed. " +
  "If your change already follows it, send the same call again and it will run; otherwise adjust the call first.";
const MAX_FILES = 50;

export interface AdvisoryTarget {
  files: string[];
  text: string;
}

const str = (v: unknown): v is string => typeof v === "string" && v.length > 0;

/** Files a patch touches: apply_patch's `*** Add/Update/Delete File:` and `*** Move to:`, or a unified diff's `+++`. */
function patchFiles(patch: string): string[] {
  const files = new Set<string>();
  for (const m of patch.matchAll(/^\*\*\* (?:Add File|Update File|Delete File|Move to): *(.+?) *$/gm)) files.add(m[1]!);
  for (const m of patch.matchAll(/^\+\+\+ (?:b\/)?(.+?)(?:\t.*)? *$/gm)) if (m[1] !== "/dev/null") files.add(m[1]!);
  return [...files].slice(0, MAX_FILES);
}

/** Only the added lines: removing a pattern the lesson warns about must not trigger it. */
function addedLines(patch: string): string {
  return patch
    .split("\n")
    .filter((l) => l.startsWith("+") && !l.startsWith("+++"))
    .map((l) => l.slice(1))
    .join("\n");
}

/** Cheap: reads the call's arguments only. Undefined for tools that change nothing. */
export function advisoryTarget(tool: string, args: unknown): AdvisoryTarget | undefined {
  const a = (args && typeof args === "object" ? args : {}) as Record<string, unknown>;
  if (tool in FILE_TOOLS) {
    const files = [a.filePath, a.path, a.file_path].filter(str);
    const texts: string[] = [];
    const key = FILE_TOOLS[tool]!;
    if (key && str(a[key])) texts.push(a[key]);
    if (Array.isArray(a.edits)) {
      for (const e of a.edits.slice(0, MAX_FILES) as Array<Record<string, unknown> | null>) {
        if (str(e?.filePath) && !files.includes(e.filePath)) files.push(e.filePath);
        if (str(e?.newString)) texts.push(e.newString);
      }
    }
    return files.length || texts.length ? { files, text: texts.join("\n") } : undefined;
  }
  if (PATCH_TOOLS.has(tool)) {
    const patch = [a.patchText, a.patch, a.diff].find(str);
    return patch ? { files: patchFiles(patch), text: addedLines(patch) } : undefined;
  }
  if (SHELL_TOOLS.has(tool) && str(a.command)) return { files: [], text: a.command };
  return undefined;
}

/** `agent:<name>` in the form actors take everywhere (the CLI refuses anything else). */
export function agentActor(agent: string | undefined): string {
  const name = (agent ?? "").replace(/[^\w.-]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 60);
  return `agent:${name || "opencode"}`;
}

/** Project-relative with forward slashes, as entry globs are written; paths outside stay absolute. */
function relativeTo(dir: string, p: string): string {
  if (!path.isAbsolute(p)) return p.replace(/\\/g, "/").replace(/^\.\//, "");
  const rel = path.relative(dir, p);
  return rel.startsWith("..") || path.isAbsolute(rel) ? p : rel.split(path.sep).join("/");
}

export class Advisories {
  /** callID → a one-line reminder of advisories this session was already told, appended once that call has run. */
  private readonly pending = new Map<string, string>();
  /** `${sessionID}\0${entry id}` of advisories already delivered to that session before a call. */
  private readonly told = new Set<string>();

  constructor(private readonly state: PluginState) {}

  /**
   * Runs before each edit/patch/bash call: one engine call (its rule cache makes that cheap). OpenCode's
   * hooks cannot add text to a call that goes on to run, so the only way to tell the agent *before* it
   * acts is to fail the call with the advice (OpenCode hands the message to the model as the tool's
   * error). An enforced lesson fails every such call. A warning fails only the first call that meets it
   * in a session; the agent's retry (or any later call it applies to) runs, with a short reminder appended.
   */
  async before(tool: string, sessionID: string, callID: string, args: unknown): Promise<void> {
    const target = advisoryTarget(tool, args);
    if (!target) return;
    // An engine that cannot open was reported once already; an edit must not wait or fail on it.
    const cairn = await this.state.cairn().catch(() => undefined);
    if (!cairn) return;
    const found = await cairn.checkAdvisories({
      tool,
      files: target.files.map((f) => relativeTo(this.state.directory, f)),
      text: target.text,
      sessionId: sessionID,
      actor: agentActor(this.state.activity.agentOf(sessionID)),
    });
    if (found.length === 0) return;
    const block = renderAdvisories(found);
    if (isBlocking(found)) throw new HookVeto(`${block}\nThis call was blocked: a lesson above is enforced. Change the approach so it follows the rule.`);
    const fresh = found.filter((a) => !this.told.has(`${sessionID}\0${a.id}`));
    if (fresh.length) {
      for (const a of fresh) this.told.add(`${sessionID}\0${a.id}`);
      while (this.told.size > MAX_TOLD) this.told.delete(this.told.values().next().value as string);
      throw new HookVeto(`${block}\n${HELD_NOTE}`);
    }
    this.pending.set(callID, `Cairn advisory (shown to you before): ${found.map((a) => `[${a.handle}]`).join(" ")} applies to this change.`);
    if (this.pending.size > MAX_PENDING) this.pending.delete(this.pending.keys().next().value as string);
  }

  /** Appends the reminder remembered for this call to the output the model will read. */
  after(callID: string, output: { output?: unknown } | undefined): void {
    const note = this.pending.get(callID);
    if (note === undefined) return;
    this.pending.delete(callID);
    if (output && typeof output.output === "string") output.output = output.output ? `${output.output}\n\n${note}` : note;
  }
}
