// opencode-swarm's `hooks` config group (seed 002) and the Cairn plugin option each switch is now: one table for the config files and the plugin.

/** Each switch of the group, and what to write instead (in the plugin entry's options in opencode.json). */
const HOOK_SWITCHES: Readonly<Record<string, string>> = {
  system_enhancer: '"system_instruction"',
  compaction: '"compaction"',
  agent_awareness_max_chars: '"agent_awareness_max_chars"',
  agent_activity: '"agent_awareness_max_chars" (0 leaves other agents\' activity out)',
  // Cairn needs to know which agent a session runs (whom to inject for, whom a write is by), so it is not a switch.
  delegation_tracker: "no option (Cairn always notes which agent each session runs, in memory only)",
};

/**
 * Where the switches of a `hooks` group went: those given (all when it names none we know), as
 * `hooks.compaction → "compaction"`. `where` says where Cairn's plugin options are written.
 */
export function hooksGroupAdvice(where: string, given?: unknown): string {
  const named = given && typeof given === "object" && !Array.isArray(given) ? Object.keys(given).filter((k) => k in HOOK_SWITCHES) : [];
  const keys = named.length ? named : Object.keys(HOOK_SWITCHES);
  return `opencode-swarm's hook switches; here they are plugin options, ${where}: ${keys.map((k) => `hooks.${k} → ${HOOK_SWITCHES[k]}`).join("; ")}`;
}
