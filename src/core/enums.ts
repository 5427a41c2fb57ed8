// The entry model's enumerations and their types, with no dependency (the CLI's help and argument parsing load only this).
import { CairnError } from "../errors.js";

export const TIERS = ["swarm", "hive"] as const;
export const CATEGORIES = [
  "process", "architecture", "tooling", "security", "testing",
  "debugging", "performance", "integration", "todo", "other",
] as const;
export const KINDS = [
  "correction", "decision", "commitment", "insight", "learning",
  "confidence", "pattern", "cross_agent", "workflow_note", "gap",
] as const;
export const STATUSES = [
  "draft", "candidate", "established", "promoted", "archived", "superseded", "quarantined",
] as const;
/** A lesson's scope: `global` or `stack:<name>` (lowercase), the same rule for entries and `knowledge.scope_filter`. */
// A stack's name as opencode-swarm accepts it ([a-zA-Z0-9_-]{1,64}, here lower-cased) and with . + (node.js, c++).
export const SCOPE_PATTERN = /^(global|stack:[a-z0-9_-][a-z0-9._+-]{0,63})$/;
export const SCOPE_RULE = 'scope must be "global" or "stack:<name>" (up to 64 lowercase letters, digits, . _ + -)';
export const PRIORITIES = ["low", "medium", "high", "critical"] as const;
export const ENFORCEMENTS = ["warn", "enforce"] as const;
/** The twelve root-cause categories of the Knowledge Objects document. */
export const ROOT_CAUSES = [
  "null_reference", "race_condition", "type_mismatch", "config_error", "missing_validation",
  "state_management", "api_contract", "dependency_issue", "logic_error",
  "security_vulnerability", "performance_issue", "other",
] as const;

export type Tier = (typeof TIERS)[number];
export type Category = (typeof CATEGORIES)[number];
export type Kind = (typeof KINDS)[number];
export type Status = (typeof STATUSES)[number];
export type Priority = (typeof PRIORITIES)[number];

/**
 * Retrieval priority of each kind (Memory Lane taxonomy): what the agent was told to do
 * differently outranks what it merely noticed.
 */
export const KIND_WEIGHTS: Readonly<Record<Kind, number>> = {
  correction: 1.0, decision: 1.0, commitment: 1.0,
  insight: 0.7, learning: 0.7, confidence: 0.7,
  pattern: 0.4, cross_agent: 0.4, workflow_note: 0.4, gap: 0.4,
};

/** Statuses an agent may be shown. Drafts wait for a person; the rest are retired. */
export const LIVE_STATUSES: readonly Status[] = ["candidate", "established", "promoted"];

export const VERDICTS = ["applied", "ignored", "violated", "helpful", "harmful"] as const;
export type Verdict = (typeof VERDICTS)[number];

/**
 * Names a status filter takes for a set of statuses, one mapping for every face (CLI `--status`, MCP
 * knowledge_query, the web page's filter): "active" is what opencode-swarm calls a lesson an agent may
 * see (every live status); "approved" is what the Markdown mirror and seed 004 call a vetted lesson in
 * use, the mirror's approved/ folder: established and promoted (its `status: approved` approves a lesson).
 */
export const STATUS_ALIASES = {
  active: LIVE_STATUSES,
  approved: ["established", "promoted"],
} as const satisfies Readonly<Record<string, readonly Status[]>>;
export type StatusAlias = keyof typeof STATUS_ALIASES;
/** Every value a status filter accepts: the statuses, then the aliases. */
export const STATUS_FILTERS = [...STATUSES, ...(Object.keys(STATUS_ALIASES) as StatusAlias[])] as const;
export type StatusFilter = Status | StatusAlias;

/** A status filter's values with each alias replaced by its statuses, naming any unknown value. */
export function expandStatuses(values: readonly string[]): Status[] {
  const out = values.flatMap((v): string[] => (Object.hasOwn(STATUS_ALIASES, v) ? [...STATUS_ALIASES[v as StatusAlias]] : [v]));
  const bad = out.filter((v) => !(STATUSES as readonly string[]).includes(v));
  if (bad.length) {
    throw new CairnError(
      "INVALID_INPUT",
      `Unknown status ${bad.slice(0, 3).map((b) => b.slice(0, 40)).join(", ")}; use ${STATUSES.join(", ")}, approved for established and promoted ones, or active for every live one.`,
    );
  }
  return [...new Set(out)] as Status[];
}

/** Parses a comma-separated status filter (`--status a,b`), aliases included (STATUS_ALIASES). */
export function parseStatuses(list: string | undefined): Status[] | undefined {
  if (!list) return undefined;
  return expandStatuses(list.split(",").map((s) => s.trim()).filter(Boolean));
}
