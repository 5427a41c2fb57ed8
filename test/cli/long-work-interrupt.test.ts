// Ctrl-C or SIGTERM in the middle of `cairn reindex` or `cairn hive push/pull`: what was done is kept, stderr says what was and was not, exit 130/143, and a second run finishes it.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import path from "node:path";
import { SqliteStore } from "../../src/store/sqlite-store.js";
import { bigProject, fillStore } from "../helpers/big-project.js";
import { BIN, sandbox } from "../helpers/cli.js";
import { adminQuery, dropSchema, pgTestOptions, pgTestUrl, uniqueSchema } from "../helpers/pg.js";

const sb = sandbox();
after(() => sb.cleanup());

/** Runs `cairn …args` and sends `signal` once stderr matches `progress` (polled), then waits for the exit. */
function interruptAt(args: string[], env: NodeJS.ProcessEnv, progress: RegExp, signal: NodeJS.Signals): Promise<{ code: number | null; stdout: string; stderr: string; sent: boolean }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: sb.root, env });
    let stdout = "";
    let stderr = "";
    let sent = false;
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString();
      if (!sent && progress.test(stderr)) {
        sent = true;
        child.kill(signal);
      }
    });
    child.on("close", (code) => resolve({ code, stdout, stderr, sent }));
  });
}

const N = 8_000;
const builtin = () => ({ ...sb.env, CAIRN__embedding__provider: "builtin" });

for (const [signal, code] of [["SIGTERM", 143], ["SIGINT", 130]] as const) {
  test(`${signal} during \`cairn reindex\` keeps the vectors embedded so far, says what is left, exits ${code}; the next run finishes`, { timeout: 600_000 }, async () => {
    const p = await bigProject(sb, `reindex-${signal}`, N);
    const r = await interruptAt(["--project", p, "reindex", "--tier", "swarm"], builtin(), /embedding… \d+\/\d+/, signal);
    assert.ok(r.sent, `no progress seen:\n${r.stderr}`);
    assert.equal(r.code, code, `${r.stdout}\n${r.stderr}`);
    const said = /swarm: (\d+) embedded, (\d+) still without a vector/.exec(r.stderr);
    assert.ok(said, `stderr says what was and was not done:\n${r.stderr}`);
    const [embedded, remaining] = [Number(said[1]), Number(said[2])];
    assert.ok(embedded > 0 && remaining > 0, r.stderr);
    assert.equal(embedded + remaining, N);
    const doctor = await sb.json(p, "doctor");
    assert.equal(doctor.code === 0 || doctor.code === 1, true, doctor.stderr);
    const again = await sb.raw(["--json", "--project", p, "reindex", "--tier", "swarm"], { env: builtin() });
    assert.equal(again.code, 0, again.stderr);
    assert.equal(JSON.parse(again.stdout).tiers[0].embedded, remaining, "the second run embeds only what the first left");
  });
}

test("SIGTERM during `cairn hive push` and Ctrl-C during `cairn hive pull` keep every entry copied whole, say how many of how many, exit 143 and 130; the next run finishes", { ...pgTestOptions(), timeout: 600_000 }, async () => {
  const url = pgTestUrl()!;
  const schema = uniqueSchema("push_stop");
  const total = 3_000;
  try {
    const env = { ...sb.env, CAIRN__hive_postgres__schema: schema, CAIRN__hive_postgres__read_timeout_ms: "10000", CAIRN__hive_postgres__connect_timeout_ms: "30000" };
    const file = path.join(sb.root, "big-hive.db");
    await fillStore(file, "hive", total);
    const push = await interruptAt(["hive", "push", "--from", file, "--to", url], env, /copied 500 entries/, "SIGTERM");
    assert.ok(push.sent, `no progress seen:\n${push.stderr}`);
    assert.equal(push.code, 143, `${push.stdout}\n${push.stderr}`);
    const said = /(\d+) of (\d+) entries copied/.exec(push.stderr);
    assert.ok(said, `stderr says what was and was not copied:\n${push.stderr}`);
    const copied = Number(said[1]);
    assert.equal(Number(said[2]), total);
    assert.ok(copied >= 500 && copied < total, push.stderr);
    const rows = await adminQuery<{ n: string }>(url, `SELECT count(*) AS n FROM "${schema}".entries`);
    assert.equal(Number(rows[0]!.n), copied, "every entry said copied is there, whole, and no other");
    const again = await sb.raw(["--json", "hive", "push", "--from", file, "--to", url], { env });
    assert.equal(again.code, 0, again.stderr);
    const report = JSON.parse(again.stdout) as { inserted: number; unchanged: number };
    assert.deepEqual([report.inserted, report.unchanged], [total - copied, copied]);

    const target = path.join(sb.root, "pulled.db");
    const pull = await interruptAt(["hive", "pull", "--from", url, "--to", target], env, /copied 500 entries/, "SIGINT");
    assert.ok(pull.sent, `no progress seen:\n${pull.stderr}`);
    assert.equal(pull.code, 130, `${pull.stdout}\n${pull.stderr}`);
    const pulled = Number(/(\d+) of (\d+) entries copied/.exec(pull.stderr)?.[1] ?? NaN);
    assert.ok(pulled >= 500 && pulled < total, pull.stderr);
    const local = new SqliteStore(target, "hive");
    assert.equal(await local.totalEntries(), pulled, "the file opens and holds what was said");
    await local.close();
    const rest = await sb.raw(["--json", "hive", "pull", "--from", url, "--to", target], { env });
    assert.equal(rest.code, 0, rest.stderr);
    assert.equal((JSON.parse(rest.stdout) as { inserted: number }).inserted, total - pulled);
  } finally {
    await dropSchema(url, schema).catch(() => undefined);
  }
});
