// What a replacement written as text keeps of the lesson it supersedes: where and how the old lesson applied.
import type { LessonInput } from "../core/categories.js";
import type { Entry } from "../core/entry.js";
import type { Services } from "../services.js";
import { hiddenFrom, locate } from "./status.js";

/**
 * A replacement given as new text (`cairn supersede S-3 "…"`) restates the lesson, not where it applies: a
 * person fixing the wording does not mean to drop the globs and detection pattern that made it advise, nor its
 * tags, stack, category, kind or scope. Each field the writer did not give is taken from `old`; one the writer
 * gave (a flag, a field of a lesson file) wins, field by field inside prevention, applicability and the directive
 * too. How much the lesson matters (the directive's priority and enforcement) carries like the rest; title, why
 * and the directive's actions and checks describe the old text and are not carried.
 */
export function carriedFromSuperseded(old: Entry, given: LessonInput): LessonInput {
  const a = old.applicability;
  const oldPrevention = dropEmpty({ ...old.prevention });
  const oldApplicability = dropEmpty({
    projects: a.projects, file_globs: a.file_globs, tech_stack: a.tech_stack, agents: a.agents, tools: a.tools, triggers: a.triggers,
  });
  const prevention = { ...oldPrevention, ...dropUndefined({ ...given.prevention }) };
  const applicability = { ...oldApplicability, ...dropUndefined({ ...given.applicability }) };
  const directive = { priority: old.directive.priority, enforcement: old.directive.enforcement, ...dropUndefined({ ...given.directive }) };
  return {
    ...given,
    ...(given.category === undefined ? { category: old.category } : {}),
    ...(given.kind === undefined ? { kind: old.kind } : {}),
    ...(given.tags === undefined && old.tags.length ? { tags: [...old.tags] } : {}),
    ...(given.entities === undefined && old.entities.length ? { entities: [...old.entities] } : {}),
    ...(given.scope === undefined ? { scope: a.scope } : {}),
    ...(given.root_cause === undefined && old.root_cause ? { root_cause: old.root_cause } : {}),
    ...(Object.keys(prevention).length ? { prevention } : {}),
    ...(Object.keys(applicability).length ? { applicability } : {}),
    directive,
  };
}

function dropUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** Only what the old lesson set: an empty list or text is the default, nothing to carry. */
function dropEmpty<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== "" && !(Array.isArray(v) && v.length === 0))) as Partial<T>;
}

/**
 * A new lesson that names the lesson it replaces (`supersedes`: knowledge_add over MCP and in the plugin,
 * `cairn add --supersedes`) carries it over the same way. Only from a lesson it can replace: one not found,
 * already superseded, or a draft to an agent (which does not exist for it) gives nothing, and the write path
 * answers for it as before.
 */
export async function withSupersededFields(s: Services, given: LessonInput, actor: string): Promise<LessonInput> {
  // Anything but an object (null from a hostile caller) is the write path's to refuse, with its reason.
  if (typeof given !== "object" || given === null || typeof given.supersedes !== "string" || !given.supersedes.trim()) return given;
  const old = await locate(s, given.supersedes).then((l) => l.entry, () => undefined);
  if (!old || old.lifecycle.status === "superseded") return given;
  // A draft, or a quarantined lesson, does not exist for an agent: nothing of it is carried.
  if (hiddenFrom(old, actor)) return given;
  return carriedFromSuperseded(old, given);
}
