// A hive path whose folder does not exist (a typo in --hive, CAIRN_HIVE or hive_path) is refused, not made into a new empty hive.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { sandbox } from "../helpers/cli.js";

const sb = sandbox();
after(() => sb.cleanup());

const LESSON = "Check for null before reading req.user in the auth middleware";

test("--hive in a folder that does not exist is refused with the path and how to create it; nothing is created", async () => {
  const p = sb.project("flag");
  const typo = path.join(sb.root, "no", "such", "dir", "h.db");
  for (const args of [["list"], ["add", LESSON, "--category", "security"]]) {
    const r = await sb.run(p, "--hive", typo, ...args);
    assert.equal(r.code, 2, `${args[0]}: ${r.stdout}${r.stderr}`);
    const lines = r.stderr.trim().split("\n");
    assert.equal(lines.length, 1, `one line: ${r.stderr}`);
    assert.ok(lines[0]!.includes(typo), `names the path: ${r.stderr}`);
    assert.match(lines[0]!, /--hive/);
    assert.match(lines[0]!, /mkdir -p|cairn init/);
    const j = await sb.json(p, "--hive", typo, ...args);
    assert.equal(j.code, 2);
    assert.equal(j.body.error.code, "INVALID_CONFIG");
    assert.equal(fs.existsSync(path.join(sb.root, "no")), false, `${args[0]} created ${path.join(sb.root, "no")}`);
  }
});

test("CAIRN_HIVE and hive_path in a folder that does not exist are refused the same way, naming the setting", async () => {
  const p = sb.project("env");
  const typo = path.join(sb.root, "typo-env", "h.db");
  const env = { ...sb.env, CAIRN_HIVE: typo };
  const r = await sb.raw(["--project", p, "add", LESSON, "--category", "security"], { env });
  assert.equal(r.code, 2, r.stdout + r.stderr);
  assert.ok(r.stderr.includes(typo) && r.stderr.includes("CAIRN_HIVE"), r.stderr);
  assert.equal(fs.existsSync(path.dirname(typo)), false);

  const inConfig = path.join(sb.root, "typo-config", "h.db");
  const config = path.join(sb.root, "cfg.json");
  fs.writeFileSync(config, JSON.stringify({ hive_path: inConfig }));
  const noEnv = { ...sb.env };
  delete noEnv.CAIRN_HIVE;
  const c = await sb.raw(["--project", p, "--config", config, "add", LESSON, "--category", "security"], { env: noEnv });
  assert.equal(c.code, 2, c.stdout + c.stderr);
  assert.ok(c.stderr.includes(inConfig) && c.stderr.includes("hive_path"), c.stderr);
  assert.equal(fs.existsSync(path.dirname(inConfig)), false);
});

test("cairn init --hive creates the folder it was asked for, and the default platform hive folder is still made on first use", async () => {
  const p = sb.project("init");
  const wanted = path.join(sb.root, "new-team", "hive.db");
  const r = await sb.run(p, "--hive", wanted, "init");
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.ok(fs.existsSync(wanted), "init made the hive it was pointed at");

  const env: NodeJS.ProcessEnv = { ...sb.env, XDG_DATA_HOME: path.join(sb.root, "fresh-data") };
  delete env.CAIRN_HIVE;
  const add = await sb.raw(["--project", p, "add", LESSON, "--category", "security"], { env });
  assert.equal(add.code, 0, add.stdout + add.stderr);
  assert.ok(fs.existsSync(path.join(sb.root, "fresh-data", "cairn", "hive.db")), "the platform hive is created on first use");
});

test("a program embedding Cairn (the library, the opencode plugin) gets the configured hive folder made, as before; only a typed path is refused", async () => {
  const { openCairn } = await import("../../src/engine.js");
  const p = sb.project("library");
  const hivePath = path.join(sb.root, "embedded", "team", "hive.db");
  const cairn = await openCairn({ projectDir: p, hivePath, env: sb.env });
  try {
    await cairn.add({ lesson: LESSON, category: "security" });
  } finally {
    await cairn.close();
  }
  assert.ok(fs.existsSync(hivePath), "the library made the hive it was configured with");
});
