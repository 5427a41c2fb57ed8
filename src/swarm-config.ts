// opencode-swarm's own config files (opencode-swarm.json): the knowledge settings in them Cairn does not read, named so a migrating user can move them.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { isDeepStrictEqual } from "node:util";
import { userConfigFile, type CairnConfig } from "./config.js";
import { decodeText } from "./core/decode.js";

/** One setting of opencode-swarm's that differs from what Cairn uses. */
export interface UnreadSwarmSetting {
  file: string;
  /** As opencode-swarm spells it: `knowledge.max_inject_count`, `context_budget.model_limits.<model>`. */
  key: string;
  theirs: unknown;
  /** Cairn's effective value, or undefined when Cairn has none for it (a model model_limits does not name). */
  ours: unknown;
}

/** Its loader's two files: the user's (~/.config/opencode, on every platform) and the project's. */
export function opencodeSwarmConfigFiles(projectDir: string, env: NodeJS.ProcessEnv): string[] {
  const home = env.HOME ?? env.USERPROFILE ?? os.homedir();
  return [path.join(env.XDG_CONFIG_HOME || path.join(home, ".config"), "opencode", "opencode-swarm.json"), path.join(projectDir, ".opencode", "opencode-swarm.json")];
}

/**
 * opencode-swarm's defaults that Cairn replaced on purpose (README: the caps were for JSONL files read whole):
 * a file holding one made no choice, and naming it would invite a user to shrink Cairn's cap to it. Each
 * is documented in its key's row of the config reference and under it (test/docs/readme keeps them so).
 */
export const REPLACED_DEFAULTS: Readonly<Record<string, unknown>> = {
  "knowledge.swarm_max_entries": 100,
  "knowledge.hive_max_entries": 200,
  "knowledge.rejected_max_entries": 20,
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function readObject(file: string): Record<string, unknown> | undefined {
  try {
    const v = JSON.parse(decodeText(fs.readFileSync(file))) as unknown;
    return isObject(v) ? v : undefined;
  } catch {
    // Missing or not JSON: opencode-swarm says so itself; nothing here is Cairn's to judge.
    return undefined;
  }
}

/**
 * The settings of seed 001's `knowledge.*` and seed 002's `context_budget` that opencode-swarm's files give
 * a value Cairn does not use. Cairn never reads them: a user who turned opencode-swarm's knowledge off to
 * use Cairn's must not turn Cairn off too. Keys Cairn has no equivalent for are opencode-swarm's alone.
 */
export function unreadSwarmSettings(projectDir: string, env: NodeJS.ProcessEnv, config: CairnConfig): UnreadSwarmSetting[] {
  const out: UnreadSwarmSetting[] = [];
  for (const file of opencodeSwarmConfigFiles(projectDir, env)) {
    const raw = readObject(file);
    if (!raw) continue;
    const pairs: Array<[string, unknown, unknown]> = [];
    const ours = config.knowledge as Record<string, unknown>;
    if (isObject(raw.knowledge)) for (const [k, v] of Object.entries(raw.knowledge)) if (k in ours) pairs.push([`knowledge.${k}`, v, ours[k]]);
    const budget = raw.context_budget;
    if (isObject(budget)) {
      for (const k of ["enabled", "warn_threshold", "critical_threshold"] as const) if (k in budget) pairs.push([`context_budget.${k}`, budget[k], config.context_budget[k]]);
      if (isObject(budget.model_limits)) for (const [m, v] of Object.entries(budget.model_limits)) pairs.push([`context_budget.model_limits.${m}`, v, config.model_limits[m]]);
    }
    for (const [key, theirs, value] of pairs) {
      if (!isDeepStrictEqual(theirs, value) && !isDeepStrictEqual(theirs, REPLACED_DEFAULTS[key])) out.push({ file, key, theirs, ours: value });
    }
  }
  return out;
}

/** `<file>: knowledge.max_inject_count = 3 (Cairn: 5)`. */
export function settingText(s: UnreadSwarmSetting): string {
  const ours = s.ours === undefined ? "model_limits has none" : JSON.stringify(s.ours);
  return `${s.file}: ${s.key} = ${JSON.stringify(s.theirs)} (Cairn: ${ours})`;
}

/** What to do about them, said once after the list (the user file as `cairn config` reads it on this platform). */
export function unreadSettingsFix(env: NodeJS.ProcessEnv): string {
  return (
    `Cairn does not read opencode-swarm's config; set the ones to keep in .swarm/cairn.json (this project), ${userConfigFile(env)} ` +
    "or the plugin's options (context_budget.model_limits as the top-level model_limits)."
  );
}
