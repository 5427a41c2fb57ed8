// opencode-swarm config keys Cairn has no key of that name for, and what to do instead: one table for the config files and the plugin options.

/**
 * Keyed by the path as opencode-swarm writes it. Cairn's config stays strict (a key it does not act on
 * is refused, so a setting never silently does nothing); these answers make the refusal say what to do.
 */
const SWARM_KEYS: Readonly<Record<string, string>> = {
  "context_budget.model_limits": "model_limits is a top-level key here, beside context_budget, not inside it",
  "knowledge.delegate_max_inject_count": "delegated agents get their directives within knowledge.max_inject_count and the same context budget as orchestrators; the plugin option \"delegated_directives\" turns them off. Remove this key",
  "knowledge.context_budget_threshold": "injection shrinks by itself as the context window fills (full, half, quarter, then nothing below 5% left of model_limits); context_budget.warn_threshold and critical_threshold warn the architect. Remove this key",
  "knowledge.sweep_enabled": "not needed: the TTL sweep runs whenever a phase completes (it ages lessons, archives expired ones, removes expired todos; evergreen and promoted ones stay); keep lessons longer with knowledge.default_max_phases and todo_max_phases. Remove this key",
  "knowledge.schema_version": "not needed: cairn.db records its own schema version and upgrades itself. Remove this key",
  "knowledge.retrieval": "how recall finds lessons is embedding.retrieval here (hybrid, lexical or semantic), with embedding.provider. Remove this key",
  "knowledge.directive_min_confidence": "not needed: a lesson is a directive when it names actions, triggers or a high priority, not by a confidence floor; gate what is written with the quality gates (knowledge.validation_enabled). Remove this key",
};

// Cairn keeps no running encounter score: it is counted afresh from each project's recorded sightings.
const ENCOUNTER = "not needed: the hive's encounter score is counted from the recorded sightings (one per project and phase), each worth knowledge.same_project_weight or cross_project_weight, so there is no stored score to start, step, floor or cap. Remove this key";
const ENCOUNTER_KEYS = ["min_encounter_score", "initial_encounter_score", "encounter_increment", "max_encounter_score"];

// A plugin option of opencode-swarm's top level; here the plugin's options are in its entry in opencode.json.
const PHASE_REMINDERS = "the plugin option \"system_instruction\" adds the current phase and task to system prompts (\"phase_summary_chars\" sets their length)";

/**
 * What replaces an opencode-swarm key at `keyPath` ("knowledge.sweep_enabled"), or undefined when it is
 * none of theirs. `plugin`: asked about the plugin's own options (no need to say where they are written).
 */
export function swarmKeyAdvice(keyPath: string, plugin = false): string | undefined {
  if (keyPath === "inject_phase_reminders") return `opencode-swarm's phase reminders; here ${PHASE_REMINDERS}${plugin ? "" : ", in the options of Cairn's plugin entry in opencode.json"}`;
  const [group, key] = keyPath.split(".");
  if (group === "knowledge" && key && ENCOUNTER_KEYS.includes(key)) return `opencode-swarm's ${key}; ${ENCOUNTER}`;
  const answer = SWARM_KEYS[keyPath];
  return answer && `opencode-swarm's ${key ?? keyPath}; ${answer}`;
}
