// Plugin options from opencode.json (`["cairn", { … }]`): plugin keys validated here, engine keys merged over the config files.
import { z } from "zod";
import { ConfigSchema, type ConfigInput } from "../../config.js";
import { hooksGroupAdvice } from "../../core/swarm-hook-options.js";
import { swarmKeyAdvice } from "../../core/swarm-key-advice.js";

export const PluginOptionsSchema = z
  .object({
    orchestrators: z
      .array(z.string().min(1))
      .default(["architect", "build", "plan"])
      .describe("Agents that get the full lessons block each turn (OpenCode's own primary agents are build and plan)."),
    inject: z.boolean().default(true).describe("Inject lessons into orchestrator turns."),
    delegated_directives: z.boolean().default(true).describe("Give delegated agents (coder, reviewer, …) the directives that apply to them."),
    system_instruction: z.boolean().default(true).describe("Add the standing knowledge-tools instruction and the phase summary to system prompts."),
    phase_summary_chars: z.number().int().min(0).max(2000).default(300).describe("Max chars of the current phase/task summary."),
    agent_awareness_max_chars: z.number().int().min(0).max(4000).default(300).describe("Max chars of the cross-agent activity summary (orchestrators only)."),
    command: z
      .string()
      .regex(/^[a-z][a-z0-9_-]{0,30}$/)
      .default("swarm")
      .describe("Name of the slash command (/swarm); change it if another plugin owns /swarm."),
    curate: z.boolean().default(true).describe("Learn from .swarm/plan.md Lessons Learned sections and evidence files."),
    compaction: z.boolean().default(true).describe("Carry the current phase's lessons into session compaction."),
  })
  .strict();

export type PluginOptions = z.output<typeof PluginOptionsSchema>;

const ENGINE_KEYS = new Set(Object.keys(ConfigSchema.shape));

export interface ResolvedOptions {
  plugin: PluginOptions;
  /** Engine config overrides (knowledge.*, model_limits, hive_path, …), merged over the config files by the engine. */
  engine: ConfigInput;
  /** One message per problem, for a single clear report. */
  problems: string[];
}

/** Never throws: a bad key is dropped (its default applies) and named in `problems`. */
export function resolveOptions(raw: unknown): ResolvedOptions {
  const problems: string[] = [];
  const input: Record<string, unknown> = {};
  const engine: Record<string, unknown> = {};
  if (raw !== undefined && (raw === null || typeof raw !== "object" || Array.isArray(raw))) {
    problems.push(`options must be an object, got ${Array.isArray(raw) ? "an array" : typeof raw}`);
  } else {
    for (const [k, v] of Object.entries((raw as Record<string, unknown>) ?? {})) {
      if (ENGINE_KEYS.has(k)) engine[k] = v;
      else input[k] = v;
    }
  }
  let r = PluginOptionsSchema.safeParse(input);
  if (!r.success) {
    for (const issue of r.error.issues) {
      const keys = issue.code === "unrecognized_keys" ? issue.keys : [String(issue.path[0] ?? "")];
      for (const key of keys) {
        const advice = issue.code === "unrecognized_keys" ? swarmKeyAdvice(key, true) : undefined;
        problems.push(
          issue.code !== "unrecognized_keys"
            ? `option "${issue.path.join(".")}": ${issue.message}`
            : key === "hooks"
              ? `unknown option "hooks" (${hooksGroupAdvice("beside hooks in this object, not inside it", input.hooks)})`
              : advice
                ? `unknown option "${key}" (${advice})`
                : `unknown option "${key}" (plugin options: ${Object.keys(PluginOptionsSchema.shape).join(", ")}; engine options: ${[...ENGINE_KEYS].join(", ")})`,
        );
        delete input[key];
      }
    }
    r = PluginOptionsSchema.safeParse(input);
  }
  return { plugin: r.success ? r.data : PluginOptionsSchema.parse({}), engine: engine as ConfigInput, problems };
}
