// Ctrl-C during `cairn export <file>`: the file is left as it was, no temp file stays behind, exit 130 with one JSON error under --json.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { bigProject } from "../helpers/big-project.js";
import { BIN, sandbox } from "../helpers/cli.js";

const sb = sandbox();
after(() => sb.cleanup());


/** Runs the export and sends SIGINT as soon as its temp file appears beside the target. */
function exportInterrupted(p: string, target: string, json: boolean): Promise<{ code: number | null; stdout: string; stderr: string; signalled: boolean }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, "--project", p, "export", target, "--force", ...(json ? ["--json"] : [])], { cwd: p, env: sb.env });
    let stdout = "";
    let stderr = "";
    let signalled = false;
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const poll = setInterval(() => {
      if (!fs.readdirSync(path.dirname(target)).some((n) => n.endsWith(".tmp"))) return;
      clearInterval(poll);
      signalled = true;
      child.kill("SIGINT");
    }, 2);
    child.on("exit", (code) => {
      clearInterval(poll);
      resolve({ code, stdout, stderr, signalled });
    });
  });
}

test("Ctrl-C during an export to a file: the old file stays as it was, no temp file is left, exit 130 saying so (one JSON error with --json)", { timeout: 600_000 }, async () => {
  const p = await bigProject(sb, "big", 20_000);
  const out = path.join(sb.root, "out");
  fs.mkdirSync(out);
  const target = path.join(out, "backup.jsonl");
  fs.writeFileSync(target, "the previous backup\n");
  for (const json of [false, true]) {
    const r = await exportInterrupted(p, target, json);
    assert.ok(r.signalled, `the export's temp file was seen: ${r.stderr}`);
    assert.deepEqual(fs.readdirSync(out), ["backup.jsonl"], `no temp file left behind (json ${json})`);
    assert.equal(fs.readFileSync(target, "utf8"), "the previous backup\n", "the old file is untouched");
    assert.equal(r.code, 130, `${r.stdout}\n${r.stderr}`);
    if (json) {
      const body = JSON.parse(r.stdout);
      assert.equal(body.error.code, "INTERRUPTED");
      assert.ok(body.error.message.includes(target), body.error.message);
    } else {
      assert.match(r.stderr, /stopped/);
      assert.ok(r.stderr.includes(target), r.stderr);
    }
  }
});
