// The team hive from the command line: init, push and pull (lossless, idempotent, merging), doctor and status — and never the password.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { SqliteStore } from "../../src/store/sqlite-store.js";
import { sandbox } from "../helpers/cli.js";
import { adminQuery, dropSchema, pgTestOptions, pgTestUrl, uniqueSchema } from "../helpers/pg.js";

const SECRET = "Sup3r-S3cret-pw";
/** Timeouts for a busy shared machine: these tests are about what the CLI does, not how fast. */
const PATIENT = { CAIRN__hive_postgres__read_timeout_ms: "10000", CAIRN__hive_postgres__connect_timeout_ms: "30000" };

/** The test server's URL with a password in it (trust auth ignores it; Cairn must never show it). */
function withPassword(url: string): string {
  const u = new URL(url);
  u.password = SECRET;
  return u.toString();
}

test("cairn hive push copies a hive file losslessly and idempotently; a teammate's overlapping hive merges; pull copies it back", { ...pgTestOptions(), timeout: 600_000 }, async () => {
  const url = pgTestUrl()!;
  const schema = uniqueSchema("push");
  const sb = sandbox();
  try {
    const env = { ...sb.env, CAIRN__hive_postgres__schema: schema, ...PATIENT };
    const p = sb.project("api");
    const shared = "Pin the Terraform provider versions in required_providers; an unpinned upgrade rewrote our state.";
    for (const lesson of [shared, "Set the Go HTTP client timeout explicitly; the zero value never times out.", "Run prettier --check in CI, not prettier --write."]) {
      const r = await sb.json(p, "promote", lesson);
      assert.equal(r.code, 0, r.stderr);
    }
    const local = new SqliteStore(sb.hive, "hive");
    const before = [];
    for await (const e of local.iterateEntries()) before.push({ e, events: await local.listEvents(e.id) });
    await local.close();
    assert.equal(before.length, 3);

    const push = await sb.raw(["--json", "--project", p, "hive", "push", "--to", withPassword(url)], { env });
    assert.equal(push.code, 0, push.stderr);
    const report = JSON.parse(push.stdout) as { inserted: number; merged: number; unchanged: number; to: string };
    assert.equal(report.inserted, 3);
    assert.doesNotMatch(push.stdout + push.stderr, new RegExp(SECRET));
    const rows = await adminQuery<{ id: string; seq: string; data: { lifecycle: { confirmations: unknown[] } } }>(url, `SELECT id, seq, data FROM "${schema}".entries ORDER BY seq`);
    assert.deepEqual(rows.map((r) => [r.id, `H-${r.seq}`]), before.map((b) => [b.e.id, b.e.handle]), "ids and handles kept");
    for (const b of before) {
      const row = rows.find((r) => r.id === b.e.id)!;
      assert.deepEqual(row.data.lifecycle.confirmations, b.e.lifecycle.confirmations, "confirmations by project kept");
      const events = await adminQuery<{ type: string; at: string; actor: string }>(url, `SELECT type, at, actor FROM "${schema}".events WHERE entry_id = $1 ORDER BY seq`, [b.e.id]);
      assert.deepEqual(events, b.events.map((x) => ({ type: x.type, at: x.at, actor: x.actor })), "history kept");
    }

    const again = await sb.raw(["--json", "--project", p, "hive", "push", "--to", url], { env });
    assert.equal(again.code, 0, again.stderr);
    assert.deepEqual(JSON.parse(again.stdout), { ...JSON.parse(again.stdout), inserted: 0, merged: 0, unchanged: 3 }, "a second push changes nothing");

    // A teammate's own hive file holding the same lesson (another id, another project).
    const bobHive = path.join(sb.root, "bob-hive.db");
    const bobEnv = { ...env, CAIRN_HIVE: bobHive };
    const bobProject = sb.project("web");
    assert.equal((await sb.raw(["--json", "--project", bobProject, "promote", shared], { env: bobEnv })).code, 0);
    const bob = await sb.raw(["--json", "--project", bobProject, "hive", "push", "--to", url], { env: bobEnv });
    assert.equal(bob.code, 0, bob.stderr);
    assert.equal(JSON.parse(bob.stdout).merged, 1, "the overlapping lesson merged, not duplicated");
    const counted = await adminQuery<{ n: number }>(url, `SELECT count(*)::int AS n FROM "${schema}".entries`);
    assert.equal(counted[0]!.n, 3);
    const merged = await adminQuery<{ data: { lifecycle: { confirmations: Array<{ project_id: string }> } } }>(url, `SELECT data FROM "${schema}".entries WHERE id = $1`, [before.find((b) => b.e.lesson === shared)!.e.id]);
    assert.equal(new Set(merged[0]!.data.lifecycle.confirmations.map((c) => c.project_id)).size, 2, "both projects' confirmations");
    assert.equal(JSON.parse((await sb.raw(["--json", "--project", bobProject, "hive", "push", "--to", url], { env: bobEnv })).stdout).merged, 0, "and only once");

    const backup = path.join(sb.root, "backup.db");
    const pull = await sb.raw(["--json", "--project", p, "hive", "pull", "--from", url, "--to", backup], { env });
    assert.equal(pull.code, 0, pull.stderr);
    assert.equal(JSON.parse(pull.stdout).inserted, 3);
    const copy = new SqliteStore(backup, "hive");
    try {
      assert.equal(await copy.totalEntries(), 3);
      for (const b of before) assert.equal((await copy.getEntry(b.e.id))?.handle, b.e.handle);
    } finally {
      await copy.close();
    }
  } finally {
    await dropSchema(url, schema);
    sb.cleanup();
  }
});

test("init --hive saves the team URL; config, doctor, status and errors show it masked; the outbox is reported", { ...pgTestOptions(), timeout: 600_000 }, async () => {
  const url = pgTestUrl()!;
  const schema = uniqueSchema("cli");
  const sb = sandbox();
  try {
    const env = { ...sb.env, CAIRN__hive_postgres__schema: schema, ...PATIENT };
    const p = sb.project("api");
    const init = await sb.raw(["--json", "--project", p, "--hive", withPassword(url), "init"], { env });
    assert.equal(init.code, 0, init.stderr);
    const info = JSON.parse(init.stdout) as { hive: string; config: string };
    assert.match(info.hive, /\*\*\*/);
    assert.ok(fs.existsSync(info.config));
    assert.equal(fs.statSync(info.config).mode & 0o077, 0, "the config file holding the URL is owner-only");
    const { CAIRN_HIVE: _file, ...teamEnv } = env as NodeJS.ProcessEnv;

    const config = await sb.raw(["--json", "--project", p, "config"], { env: teamEnv });
    assert.equal(config.code, 0, config.stderr);
    assert.match(JSON.parse(config.stdout).config.hive_url, /^postgres:\/\/postgres:\*\*\*@/);
    const human = await sb.raw(["--project", p, "config"], { env: teamEnv });
    const doctor = await sb.raw(["--json", "--project", p, "doctor"], { env: teamEnv });
    assert.equal(doctor.code, 0, doctor.stderr);
    const hive = (JSON.parse(doctor.stdout) as { tiers: Array<{ tier: string; kind: string; reachable: boolean; latency_ms: number; schema_version: number; outbox?: unknown }> }).tiers;
    assert.equal(hive[1]!.kind, "postgres");
    assert.equal(hive[1]!.reachable, true);
    assert.ok(hive[1]!.latency_ms >= 0 && hive[1]!.schema_version >= 1);
    assert.deepEqual(hive[0]!.outbox, { pending: 0, dead: 0 });

    // The same URL on a port where nothing listens: unreachable, said plainly, password masked.
    const dead = withPassword(url).replace(/:\d+\//, ":1/");
    const down = await sb.raw(["--project", p, "doctor"], { env: { ...teamEnv, CAIRN_HIVE_URL: dead } });
    assert.equal(down.code, 1);
    assert.match(down.stdout, /unreachable/);
    const promote = await sb.raw(["--project", p, "promote", "Rotate the webhook signing secret with a grace period for the old one."], { env: { ...teamEnv, CAIRN_HIVE_URL: dead } });
    assert.equal(promote.code, 0, promote.stderr);
    assert.match(promote.stdout, /queued/);
    const status = await sb.raw(["--json", "--project", p, "hive", "status"], { env: { ...teamEnv, CAIRN_HIVE_URL: dead } });
    assert.equal(JSON.parse(status.stdout).outbox.pending, 1, "the queued promotion waits in the outbox");
    const sync = await sb.raw(["--json", "--project", p, "hive", "sync"], { env: teamEnv });
    assert.equal(sync.code, 0, sync.stderr);
    assert.equal(JSON.parse(sync.stdout).applied, 1);
    const all = [init, config, human, doctor, down, promote, status, sync].map((r) => r.stdout + r.stderr).join("\n");
    assert.doesNotMatch(all, new RegExp(SECRET), "the password appears nowhere");
  } finally {
    await dropSchema(url, schema);
    sb.cleanup();
  }
});

test("hive push --from a file that does not exist says so and creates nothing (it made an empty hive there and reported \"pushed … 0 new\")", async () => {
  const sb = sandbox();
  try {
    const p = sb.project("api");
    const typo = path.join(sb.root, "backup", "hiev.db");
    fs.mkdirSync(path.dirname(typo), { recursive: true });
    // Nothing listens on port 1: a push that got as far as the database would fail differently.
    const push = await sb.raw(["--json", "--project", p, "hive", "push", "--from", typo, "--to", "postgres://cairn@127.0.0.1:1/team"]);
    assert.equal(push.code, 3, `${push.stdout}${push.stderr}`);
    const err = JSON.parse(push.stdout) as { error: { code: string; message: string } };
    assert.equal(err.error.code, "NOT_FOUND");
    assert.match(err.error.message, /no hive file/i);
    assert.ok(err.error.message.includes(typo), "the message names the file");
    assert.equal(fs.existsSync(typo), false, "no empty hive file is created at the typo'd path");
  } finally {
    sb.cleanup();
  }
});

test("hive push --to a file, or pull --from a file, says the option wants a postgres:// URL and which command copies into a file (it asked to \"give the team database: --to\" though --to was given)", async () => {
  const sb = sandbox();
  try {
    const p = sb.project("api");
    const file = path.join(sb.root, "backup.db");
    const push = await sb.raw(["--json", "--project", p, "hive", "push", "--to", file]);
    assert.equal(push.code, 2, `${push.stdout}${push.stderr}`);
    const pushErr = (JSON.parse(push.stdout) as { error: { code: string; message: string } }).error;
    assert.equal(pushErr.code, "INVALID_INPUT");
    assert.ok(pushErr.message.includes(file), `names what was given: ${pushErr.message}`);
    assert.match(pushErr.message, /not a postgres(?:ql)?:\/\/ URL/i);
    assert.match(pushErr.message, /cairn hive pull --to/);
    const pull = await sb.raw(["--json", "--project", p, "hive", "pull", "--from", file, "--to", path.join(sb.root, "copy.db")]);
    assert.equal(pull.code, 2, `${pull.stdout}${pull.stderr}`);
    const pullErr = (JSON.parse(pull.stdout) as { error: { code: string; message: string } }).error;
    assert.ok(pullErr.message.includes(file), `names what was given: ${pullErr.message}`);
    assert.match(pullErr.message, /not a postgres(?:ql)?:\/\/ URL/i);
    assert.match(pullErr.message, /cairn hive push --from/);
    assert.equal(fs.existsSync(file), false, "nothing is created at the path given");
  } finally {
    sb.cleanup();
  }
});

test("hive push of an empty hive to a database that does not exist fails naming it (it reported \"pushed … 0 new\" without ever connecting)", { ...pgTestOptions(), timeout: 120_000 }, async () => {
  const url = new URL(pgTestUrl()!);
  url.pathname = `/cairn_no_such_db_${process.pid}`;
  const sb = sandbox();
  try {
    const p = sb.project("api");
    const init = await sb.run(p, "init");
    assert.equal(init.code, 0, init.stderr);
    assert.ok(fs.existsSync(sb.hive), "an empty hive file of one's own");
    const push = await sb.raw(["--json", "--project", p, "hive", "push", "--to", url.toString()], { env: { ...sb.env, ...PATIENT } });
    assert.equal(push.code, 1, `${push.stdout}${push.stderr}`);
    const err = JSON.parse(push.stdout) as { error: { code: string; message: string } };
    assert.match(err.error.message, /cairn_no_such_db_\d+/);
    assert.match(err.error.message, /does not exist/);
  } finally {
    sb.cleanup();
  }
});

test("init --hive naming a database that does not exist says how to create it (it said only that the database does not exist)", { ...pgTestOptions(), timeout: 120_000 }, async () => {
  const url = new URL(pgTestUrl()!);
  const db = `cairn_no_such_db_init_${process.pid}`;
  url.pathname = `/${db}`;
  const sb = sandbox();
  try {
    const p = sb.project("api");
    const init = await sb.raw(["--json", "--project", p, "init", "--hive", url.toString()], { env: { ...sb.env, ...PATIENT } });
    assert.notEqual(init.code, 0, `${init.stdout}${init.stderr}`);
    const err = JSON.parse(init.stdout) as { error: { code: string; message: string } };
    assert.match(err.error.message, new RegExp(`database "${db}" does not exist`));
    assert.ok(err.error.message.includes(`CREATE DATABASE ${db}`), `says how to create it: ${err.error.message}`);
  } finally {
    sb.cleanup();
  }
});

test("init --hive with a server that does not answer says nothing was saved and what to check (it said only \"is unreachable: connect ECONNREFUSED\")", async () => {
  const sb = sandbox();
  try {
    const p = sb.project("api");
    // Nothing listens on port 1.
    const init = await sb.raw(["--json", "--project", p, "init", "--hive", "postgres://cairn@127.0.0.1:1/team"]);
    assert.equal(init.code, 1, `${init.stdout}${init.stderr}`);
    const err = JSON.parse(init.stdout) as { error: { code: string; message: string } };
    assert.equal(err.error.code, "UNAVAILABLE");
    assert.match(err.error.message, /is unreachable/);
    assert.match(err.error.message, /hive_url was not saved/);
    assert.match(err.error.message, /127\.0\.0\.1:1/);
    assert.equal(fs.existsSync(path.join(sb.env.XDG_CONFIG_HOME!, "cairn", "config.json")), false, "no config written");
  } finally {
    sb.cleanup();
  }
});
