// knowledge_add: record a lesson through the gates; a duplicate reinforces, a rejection comes back with its reason.
import { z } from "zod";
import { CATEGORY_NAMES, LEGACY_CATEGORY_NOTE, unknownCategoryMessage, type LessonInput } from "../../core/categories.js";
import { CATEGORIES, ENFORCEMENTS, KINDS, PRIORITIES, ROOT_CAUSES } from "../../core/entry.js";
import { defineTool, writeOutcome } from "./shared.js";

const list = (max: number, describe: string) => z.array(z.string().min(1)).max(max).optional().describe(describe);

const args = {
  lesson: z
    .string()
    .min(1)
    .describe(
      "The lesson: one or two self-contained sentences saying what to do or avoid, where, and why — e.g. " +
        '"In src/auth/middleware.ts check the session token for null before reading its claims; a missing token crashed /login." ' +
        "Be specific (vague advice is rejected) and never include secrets, keys or passwords.",
    ),
  category: z
    .enum(CATEGORY_NAMES, { error: (issue) => unknownCategoryMessage(issue.input) })
    .optional()
    .describe(`The area it belongs to (default other): ${CATEGORIES.join(", ")}. ${LEGACY_CATEGORY_NOTE}.`),
  kind: z
    .enum(KINDS)
    .optional()
    .describe(
      "What sort of lesson: correction (you were told to do it differently), decision, commitment, insight, learning (default), confidence, pattern, cross_agent, workflow_note, gap. Corrections and decisions rank highest.",
    ),
  tags: list(30, 'Short keywords for search, letters/digits/_ . : / + # - only, e.g. ["auth", "jwt"].'),
  scope: z
    .string()
    .optional()
    .describe('"global" (default) or "stack:<name>" to show it only where that tech stack is in use, e.g. "stack:react".'),
  confidence: z.number().min(0).max(1).optional().describe("How sure you are that the lesson holds, 0 to 1 (default 0.5)."),
  phase: z.string().max(120).optional().describe("The phase or task in which you learned it, e.g. \"Phase 2: auth\"; counts as its first confirmation."),
  tier: z
    .enum(["swarm", "hive"])
    .default("swarm")
    .describe(
      "swarm (default) = this project only. hive = every project of this user: only for lessons true beyond this codebase; it passes a stricter gate.",
    ),
  title: z.string().max(80).optional().describe("A short title, at most 80 characters."),
  why: z.string().max(500).optional().describe("What goes wrong if the lesson is ignored."),
  prevention_rule: z.string().max(500).optional().describe("A rule that prevents the mistake, e.g. \"validate tokens in one helper\"."),
  detection_pattern: z
    .string()
    .max(300)
    .optional()
    .describe(
      'How to spot the mistake: an RE2 regex (e.g. "token\\.(claims|payload)"), a glob ("src/auth/**"), or keywords ("kw: refreshToken, claims"). ' +
        "Agents see the prevention rule before edits that match it. A pattern that matches any text is refused.",
    ),
  suggested_guardrail: z.string().max(500).optional().describe("A test, lint rule or hook that would enforce the rule (a person may implement it)."),
  root_cause: z.enum(ROOT_CAUSES).optional().describe("Root-cause category of the mistake the lesson prevents."),
  file_globs: list(50, 'Files the lesson applies to, as globs, e.g. ["src/auth/**"]; it then ranks higher when those files are in play.'),
  tech_stack: list(30, 'Technologies it applies to, e.g. ["typescript", "jwt"].'),
  projects: list(50, 'Projects it applies to (names); omit or ["*"] for any.'),
  supersedes: z.string().min(1).max(200).optional().describe("Id or handle (S-12) of an older lesson this one replaces; it is retired when this one is accepted."),
  derived_from: z.string().max(300).optional().describe('The task or issue this was learned from, e.g. "issue #123" or "Phase 2 task 3" (traceability).'),
  triggers: list(30, "Words or phrases whose presence in a task makes this lesson relevant."),
  required_actions: list(20, "Things an agent must do when the lesson applies (makes it a directive)."),
  forbidden_actions: list(20, "Things an agent must not do when the lesson applies (makes it a directive)."),
  priority: z.enum(PRIORITIES).optional().describe("How much it matters when it applies (default medium); high and critical render as directives."),
  verification_checks: list(20, "Checks that show the lesson was followed, e.g. \"npm test passes\"."),
  enforcement: z.enum(ENFORCEMENTS).optional().describe("warn (default): advisories from this lesson warn before a matching edit; enforce: they block it."),
  agents: list(30, 'Agents the lesson is for, e.g. ["coder", "reviewer"]; omit for every agent. Others are never shown it.'),
  tools: list(30, 'Tools the lesson is for, e.g. ["bash", "edit"]; omit for every tool.'),
  entities: list(30, 'What it is about, as tags like "feature:auth" or "service:billing" (found by search).'),
  hive_eligible: z.boolean().optional().describe("true: once confirmed in enough phases it is promoted to the cross-project hive automatically."),
  // Range checks live in the engine's one input schema (core/entry.ts), shared with the CLI and imports.
  max_phases: z.number().optional().describe("How many phase completions the lesson lives before it is archived, used or not (default: the project's setting, 10; todo 3; promoted lessons never expire)."),
};

/** The given keys only, or undefined when none was given. */
function present<T extends Record<string, unknown>>(o: T): Partial<T> | undefined {
  const out = Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
  return Object.keys(out).length ? out : undefined;
}

export const knowledgeAdd = defineTool({
  name: "knowledge_add",
  description:
    "Record a lesson learned while working so that later agents (and you, in later phases) get it when relevant. " +
    "Use after a mistake, a correction from the user, a decision, or a non-obvious fact about this codebase. " +
    "It is validated first: a near-duplicate of an existing lesson reinforces that lesson instead of adding a copy, " +
    'and a vague, unsafe or secret-bearing lesson is rejected — the answer then starts with "rejected:" and says why. ' +
    "Returns the lesson's handle (S-12 in this project, H-3 in the hive), id, tier and status, or those of the lesson it reinforced, with any warnings.",
  args,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
  async run(a, ctx) {
    const prevention =
      a.prevention_rule || a.detection_pattern || a.suggested_guardrail
        ? { rule: a.prevention_rule, detection_pattern: a.detection_pattern, suggested_guardrail: a.suggested_guardrail }
        : undefined;
    const applicability = present({ file_globs: a.file_globs, triggers: a.triggers, tech_stack: a.tech_stack, projects: a.projects, agents: a.agents, tools: a.tools });
    const directive = present({
      required_actions: a.required_actions, forbidden_actions: a.forbidden_actions, verification_checks: a.verification_checks, priority: a.priority, enforcement: a.enforcement,
    });
    const input: LessonInput = {
      lesson: a.lesson,
      title: a.title,
      why: a.why,
      category: a.category,
      kind: a.kind,
      tags: a.tags,
      entities: a.entities,
      scope: a.scope,
      confidence: a.confidence,
      phase: a.phase,
      prevention,
      applicability,
      directive,
      root_cause: a.root_cause,
      supersedes: a.supersedes,
      hive_eligible: a.hive_eligible,
      max_phases: a.max_phases,
      ...(a.derived_from ? { derived_from: { kind: /\bissue\b|#\d/i.test(a.derived_from) ? ("issue" as const) : ("task" as const), ref: a.derived_from } } : {}),
      // An explicit add is a deliberate act, not automatic extraction (the audited tool got this wrong).
      auto_generated: false,
      session_id: ctx.sessionId,
    };
    // The hive is written only through the hive gate, so a direct add cannot skip its stricter checks.
    const result = a.tier === "hive" ? await ctx.cairn.promote({ lesson: input }, ctx.actor) : await ctx.cairn.add(input, { tier: "swarm", actor: ctx.actor });
    return writeOutcome(result);
  },
});
