// Ctrl-C or SIGTERM in the middle of `cairn reindex` or `cairn hive push/pull`: what was done is kept, stderr says what was and was not, exit 130/143, and a second run finishes it.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { bigProject } from "../helpers/big-project.js";
import { BIN, sandbox } from "../helpers/cli.js";

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
