// A read-only project database inside OpenCode: lessons are still injected, and /swarm status and the plugin log say why nothing is counted.
import { execFile, execFileSync } from "node:child_process";
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openCairn } from "../../src/engine.js";
import { INJECTION_SENTINEL } from "../../src/retrieval/render.js";
import { REPO_ROOT, WORKERS_DIR } from "../fixtures/workers/sandbox.js";
import { SANDBOX } from "./helpers.js";
import { canDropPrivileges } from "../helpers/privileges.js";

const LESSON = "In src/auth/middleware.ts check the session token for null before reading its claims; a missing token crashed /login.";
const TASK = "fix the session token null check in src/auth/middleware.ts";


interface Shown {
  turns: string[];
  status: string;
  log: string;
  /** The user-level file the plugin logs to when the project's log cannot be written, and what it holds. */
  fallback: string;
  fallbackLog: string;
}

function pluginAsNobody(dir: string): Promise<{ shown: Shown; stderr: string }> {
  const args = ["--reuid=nobody", "--regid=nogroup", "--clear-groups", process.execPath, "--import", "tsx", path.join(WORKERS_DIR, "opencode-status-worker.ts"), dir, TASK];
  return new Promise((resolve, reject) =>
    execFile("setpriv", args, { cwd: REPO_ROOT, env: process.env, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) =>
      err ? reject(new Error(`worker failed: ${err.message}\n${stderr}`)) : resolve({ shown: JSON.parse(stdout) as Shown, stderr }),
    ),
  );
}

for (const variant of ["file 0444", "folder 0555"] as const) {
  test(`a read-only project database (${variant}): lessons are injected, and /swarm status lists the file, why it is read-only and what is not recorded; nothing in the conversation`, { skip: canDropPrivileges() ? false : "needs root and setpriv to run a child as nobody" }, async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "cairn-oc-ro-"));
    try {
      const dir = path.join(root, "project");
      fs.mkdirSync(dir);
      const c = await openCairn({ projectDir: dir, hivePath: path.join(SANDBOX, "hive.db"), actor: "human:test" });
      assert.equal((await c.add({ lesson: LESSON, category: "security" })).action, "added");
      await c.close();
      const swarmDir = path.join(dir, ".swarm");
      const db = path.join(swarmDir, "cairn.db");
      // The project belongs to nobody, so only the mode bits under test stop it writing.
      execFileSync("chown", ["-R", "nobody", root]);
      fs.chmodSync(root, 0o755);
      if (variant === "file 0444") fs.chmodSync(db, 0o444);
      else fs.chmodSync(swarmDir, 0o555);

      const { shown, stderr } = await pluginAsNobody(dir);
      for (const turn of shown.turns) {
        assert.ok(turn.includes(INJECTION_SENTINEL) && turn.includes("session token"), `the lesson is still injected: ${turn}`);
        assert.doesNotMatch(turn, /read-only|not writable|usage counters/, "nothing about it in the conversation");
      }
      assert.match(stderr, /usage counters are not updated/);
      const problems = shown.status.split("\nProblems:\n")[1] ?? "";
      assert.ok(problems.includes(db), `/swarm status names the file under Problems:\n${shown.status}`);
      assert.match(problems, variant === "file 0444" ? /file is not writable \(mode 0444/ : /folder .* is not writable \(mode 0555/);
      assert.match(problems, /usage counters are not updated/);
      if (variant === "file 0444") {
        // The folder is writable, so the plugin log is: the problem is in it once, for both turns and the status.
        assert.equal(shown.log.split(db).length - 1, 1, `plugin log: ${shown.log}`);
        assert.equal(shown.fallbackLog, "", "no fallback while the project's log is writable");
      } else {
        // The log's own folder is read-only: it said so, loudly and once, and logged to a file the user owns instead.
        const log = path.join(swarmDir, "cairn-plugin.log");
        assert.equal(shown.log, "");
        const said = problems.split("\n").filter((l) => l.includes(log));
        assert.equal(said.length, 1, `/swarm status names the unwritable log once:\n${shown.status}`);
        assert.match(said[0]!, /cannot be written \(permission denied\)/);
        assert.ok(said[0]!.includes(shown.fallback), `and where it is written instead: ${said[0]}`);
        assert.match(stderr, /cairn-plugin\.log cannot be written/);
        assert.ok(shown.fallbackLog.includes(db), `the fallback log has the read-only problem: ${shown.fallbackLog}`);
        assert.ok(shown.fallbackLog.includes("cannot be written"), "and why it is used");
      }
    } finally {
      execFileSync("chmod", ["-R", "u+w", root]);
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
}
