// Seed 001's configuration table, as users of opencode-swarm know it: every key is ours with its default and type, or the README says why not.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import { parseConfig, type KnowledgeConfig } from "../../src/config.js";

type SeedType = "bool" | "int" | "float" | "array";

/**
 * Copied from ../shared/seeds/001_ec4defe94045bcea.txt ("Configuration": key, type, default), so the
 * test needs no file outside the repository. A change of default there is a change users notice.
 */
const SEED_001: ReadonlyArray<[key: keyof KnowledgeConfig, type: SeedType, value: unknown]> = [
  ["enabled", "bool", true],
  ["swarm_max_entries", "int", 100],
  ["hive_max_entries", "int", 200],
  ["auto_promote_days", "int", 90],
  ["max_inject_count", "int", 5],
  ["inject_char_budget", "int", 2000],
  ["max_lesson_display_chars", "int", 120],
  ["dedup_threshold", "float", 0.6],
  ["scope_filter", "array", ["global"]],
  ["hive_enabled", "bool", true],
  ["validation_enabled", "bool", true],
  ["evergreen_confidence", "float", 0.9],
  ["evergreen_utility", "float", 0.8],
  ["low_utility_threshold", "float", 0.3],
  ["min_retrievals_for_utility", "int", 3],
  ["default_max_phases", "int", 10],
  ["todo_max_phases", "int", 3],
  ["same_project_weight", "float", 1.0],
  ["cross_project_weight", "float", 0.5],
];

/** Where Cairn's default differs on purpose, and the words in README.md that say why. */
const DOCUMENTED_DEVIATIONS: Readonly<Partial<Record<keyof KnowledgeConfig, RegExp>>> = {
  swarm_max_entries: /`swarm_max_entries`\s+10,000[^]*100\/200 FIFO caps made sense for JSONL files/,
  hive_max_entries: /`hive_max_entries` 50,000[^]*100\/200 FIFO caps made sense for JSONL files/,
};

const defaults = parseConfig({}).knowledge;
const readme = fs.readFileSync(new URL("../../README.md", import.meta.url), "utf8");

for (const [key, type, value] of SEED_001) {
  test(`seed 001 key knowledge.${key}: same default (${JSON.stringify(value)}) or a documented reason`, () => {
    const ours = defaults[key];
    const why = DOCUMENTED_DEVIATIONS[key];
    if (why) {
      assert.notDeepEqual(ours, value, `knowledge.${key} is back to the seed's default: drop it from DOCUMENTED_DEVIATIONS and the README's reason`);
      assert.match(readme, why, `README.md must say why knowledge.${key} is ${JSON.stringify(ours)}, not the seed's ${JSON.stringify(value)}`);
    } else {
      assert.deepEqual(ours, value, `knowledge.${key}: seed 001 documents ${JSON.stringify(value)}`);
    }
  });

  test(`seed 001 key knowledge.${key}: takes a ${type}, as documented`, () => {
    const given = (v: unknown) => parseConfig({ knowledge: { [key]: v } }).knowledge[key];
    if (type === "bool") {
      assert.equal(given(false), false);
      assert.throws(() => given("no"), /knowledge\.|expected/i);
    } else if (type === "array") {
      assert.deepEqual(given(["global", "stack:node"]), ["global", "stack:node"]);
      assert.throws(() => given("global"));
    } else {
      const n = typeof value === "number" && value > 1 ? value + 1 : 0.5;
      const ok = type === "int" ? Math.max(1, Math.round(n)) : n;
      assert.equal(given(ok), ok);
      assert.throws(() => given(String(ok)), /should be a (whole )?number/i, "a number, not a string");
      if (type === "int") assert.throws(() => given(ok + 0.5), /should be a whole number/i, "an int refuses a fraction");
    }
  });
}

test("the config reference (README, `cairn config`) lists every seed 001 key under knowledge.*", () => {
  for (const [key] of SEED_001) assert.match(readme, new RegExp(`\\| \`knowledge\\.${key}\` \\|`), `knowledge.${key} in README's configuration table`);
});

test("seed 002's hooks group in a config file is refused naming the plugin options that replace it", () => {
  const seed002 = { hooks: { system_enhancer: true, compaction: true, agent_activity: true, delegation_tracker: false, agent_awareness_max_chars: 300 } };
  assert.throws(() => parseConfig(seed002, ".swarm/cairn.json"), (e: Error) => {
    assert.match(e.message, /unknown key\(s\) hooks \(/);
    // Each switch named with its place here: the plugin entry's options in opencode.json.
    for (const [theirs, ours] of [["system_enhancer", "system_instruction"], ["compaction", "compaction"], ["agent_awareness_max_chars", "agent_awareness_max_chars"], ["agent_activity", "agent_awareness_max_chars"]]) {
      assert.match(e.message, new RegExp(`hooks\\.${theirs} → "${ours}"`), theirs);
    }
    assert.match(e.message, /hooks\.delegation_tracker → no option/);
    assert.match(e.message, /opencode\.json/);
    return true;
  });
});
