// Config files as editors save them: a UTF-8 byte-order mark (Windows Notepad) is not a syntax error.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { loadConfig, updateUserConfig } from "../../src/config.js";

test("project and user config files that start with a UTF-8 BOM are read", () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "cairn-config-bom-"));
  try {
    const projectDir = path.join(root, "project");
    fs.mkdirSync(path.join(projectDir, ".swarm"), { recursive: true });
    fs.writeFileSync(path.join(projectDir, ".swarm", "cairn.json"), '\uFEFF{"knowledge": {"max_inject_count": 3}}');
    const userFile = path.join(root, "user.json");
    fs.writeFileSync(userFile, '\uFEFF{"knowledge": {"swarm_max_entries": 1234}}');
    const env = { CAIRN_CONFIG: userFile, HOME: root };
    const { config } = loadConfig({ projectDir, env });
    assert.equal(config.knowledge.max_inject_count, 3);
    assert.equal(config.knowledge.swarm_max_entries, 1234);
    // Updating keeps the other keys of such a file.
    updateUserConfig({ hive_path: path.join(root, "hive.db") }, env);
    assert.equal(JSON.parse(fs.readFileSync(userFile, "utf8")).knowledge.swarm_max_entries, 1234);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test("updating a user config file that is a symlink (dotfiles) writes the file it names and keeps the link", () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "cairn-config-link-"));
  try {
    const real = path.join(root, "dotfiles", "cairn.json");
    fs.mkdirSync(path.dirname(real));
    fs.writeFileSync(real, '{"knowledge": {"swarm_max_entries": 1234}}');
    const link = path.join(root, "config.json");
    fs.symlinkSync(real, link);
    updateUserConfig({ hive_path: path.join(root, "hive.db") }, { CAIRN_CONFIG: link, HOME: root });
    assert.ok(fs.lstatSync(link).isSymbolicLink(), "the link is still a link");
    const written = JSON.parse(fs.readFileSync(real, "utf8"));
    assert.equal(written.hive_path, path.join(root, "hive.db"));
    assert.equal(written.knowledge.swarm_max_entries, 1234);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test("opencode-swarm's own knowledge keys Cairn has no key for are refused each with what replaces it here, not a bare 'unknown key'", () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "cairn-config-swarm-keys-"));
  try {
    const projectDir = path.join(root, "project");
    fs.mkdirSync(path.join(projectDir, ".swarm"), { recursive: true });
    // Keys of opencode-swarm's KnowledgeConfigSchema (its src/config/schema.ts) outside seed 001's table.
    const swarmOnly = {
      sweep_enabled: true,
      schema_version: 1,
      delegate_max_inject_count: 8,
      context_budget_threshold: 4000,
      min_encounter_score: 0.1,
      initial_encounter_score: 1,
      encounter_increment: 0.1,
      max_encounter_score: 10,
      retrieval: {},
    };
    fs.writeFileSync(path.join(projectDir, ".swarm", "cairn.json"), JSON.stringify({ knowledge: swarmOnly }));
    const env = { CAIRN_CONFIG: path.join(root, "none.json"), HOME: root };
    fs.writeFileSync(env.CAIRN_CONFIG, "{}");
    let message = "";
    assert.throws(() => loadConfig({ projectDir, env }), (e: Error) => ((message = e.message), true));
    for (const key of Object.keys(swarmOnly)) {
      // Each key is followed by what to do instead, in parentheses, not left bare.
      assert.match(message, new RegExp(`\\b${key} \\(opencode-swarm's [^)]*\\)`), `${key}: ${message}`);
    }
    // Those with a Cairn setting name it.
    assert.match(message, /delegate_max_inject_count \([^)]*knowledge\.max_inject_count/);
    assert.match(message, /retrieval \([^)]*embedding\.retrieval/);
    // The lenient load (doctor) names the same.
    const { problems } = loadConfig({ projectDir, env, lenient: true });
    assert.match(problems.find((p) => p.key === "knowledge.sweep_enabled")?.problem ?? "", /sweep_enabled \(opencode-swarm's/);
    // seed 002's top-level plugin switch in a config file: the plugin option, and where plugin options are written.
    fs.writeFileSync(path.join(projectDir, ".swarm", "cairn.json"), JSON.stringify({ inject_phase_reminders: true }));
    assert.throws(() => loadConfig({ projectDir, env }), /inject_phase_reminders \(opencode-swarm's phase reminders; here the plugin option "system_instruction".*in the options of Cairn.s plugin entry in opencode\.json\)/);
    // A near miss is still a typo, not a migrated key.
    fs.writeFileSync(path.join(projectDir, ".swarm", "cairn.json"), JSON.stringify({ knowledge: { sweep_enable: true } }));
    assert.throws(() => loadConfig({ projectDir, env }), /sweep_enable(?! \(opencode-swarm)/);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});
