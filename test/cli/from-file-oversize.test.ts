// `cairn add --from-file` pointed at a file far bigger than any lesson is refused from its size, as `cairn add -` is, not after reading and gating all of it.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { after, test } from "node:test";
import { BIN, sandbox } from "../helpers/cli.js";

const sb = sandbox();
after(() => sb.cleanup());

// A YAML lesson document of about 3 MB: three times what any one lesson's input may be.
function hugeDocument(name: string): string {
  const file = path.join(sb.root, name);
  fs.writeFileSync(file, `category: tooling\nlesson: Pin the Node version in CI ${"because builds drift ".repeat(150_000)}\n`);
  return file;
}

test("add --from-file <a 3 MB file> is refused from its size, naming the file, and stores nothing", async () => {
  const project = sb.project("file");
  const file = hugeDocument("big lesson ünï.yaml");
  const r = await sb.json(project, "add", "--from-file", file);
  assert.equal(r.code, 2, r.stdout + r.stderr);
  assert.equal(r.body.action, "rejected");
  assert.match(r.body.reason, /over 1024000 bytes/);
  assert.ok(r.body.reason.includes("big lesson ünï.yaml"), r.body.reason);
  const listed = await sb.json(project, "list");
  assert.deepEqual(listed.body, []);
});

test("add --from-file - reads standard input no further than any lesson may be", async () => {
  const project = sb.project("stdin");
  const file = hugeDocument("piped.yaml");
  const fd = fs.openSync(file, "r");
  try {
    const child = spawn(process.execPath, [BIN, "--project", project, "add", "--from-file", "-", "--json"], { cwd: sb.root, env: sb.env, stdio: [fd, "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout!.on("data", (d) => (stdout += d));
    child.stderr!.on("data", (d) => (stderr += d));
    const code = await new Promise<number>((resolve) => child.on("close", (c) => resolve(c ?? 1)));
    assert.equal(code, 2, stdout + stderr);
    const body = JSON.parse(stdout);
    assert.equal(body.action, "rejected");
    assert.match(body.reason, /over 1024000 bytes on standard input/);
  } finally {
    fs.closeSync(fd);
  }
});
