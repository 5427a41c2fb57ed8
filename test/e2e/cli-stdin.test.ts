// Regression 12.9: a lesson can be given on standard input (`cairn add -`), so a pasted token never sits in argv,
// shell history or npm's debug log — and the README says so next to the first `add`.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { BIN, REPO, bytesUnder, sandbox } from "../helpers/cli.js";

function runWithStdin(args: string[], input: string | Buffer, env: NodeJS.ProcessEnv, cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd, env, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? 1, stdout, stderr }));
    child.stdin.end(input);
  });
}

test("regression 12.9: `cairn add -` reads the lesson from stdin; a token given that way is refused and never stored", async () => {
  const sb = sandbox();
  try {
    const project = sb.project("stdin");
    const token = "gl" + "pat-" + "Zq7Vx2Lm9Pt4Rw8Ky3Nb";
    const refused = await runWithStdin(["--project", project, "add", "-", "--json"], `The registry login uses ${token} in CI\n`, sb.env, sb.root);
    assert.equal(refused.code, 2, refused.stdout + refused.stderr);
    assert.equal(JSON.parse(refused.stdout).action, "rejected");
    assert.ok(!refused.stdout.includes(token) && !refused.stderr.includes(token));
    assert.ok(!bytesUnder(path.join(project, ".swarm")).includes(Buffer.from(token)));
    const ok = await runWithStdin(["--project", project, "add", "-", "--json"], "Run prisma generate after editing prisma/schema.prisma\n", sb.env, sb.root);
    assert.equal(ok.code, 0, ok.stderr);
    assert.equal(JSON.parse(ok.stdout).action, "added");
  } finally {
    sb.cleanup();
  }
});

test("regression 12.9: the README points to `add -` / `--from-file` next to the first `add`", () => {
  const readme = fs.readFileSync(path.join(REPO, "README.md"), "utf8");
  const first = readme.indexOf("cairn add ");
  const window = readme.slice(first, first + 1500);
  assert.match(window, /cairn add - /);
  assert.match(window, /--from-file/);
  assert.match(window, /history/);
});

test("a lesson piped or saved as UTF-16 (a Windows shell, Notepad's \"Unicode\") is read as text, not refused as control characters", async () => {
  const sb = sandbox();
  try {
    const project = sb.project("utf16");
    const lesson = "Set statement_timeout=30s on the reporting role in db/roles.sql so runaway queries stop";
    const piped = await runWithStdin(["--project", project, "add", "-", "--json"], Buffer.from(`\uFEFF${lesson}\r\n`, "utf16le"), sb.env, sb.root);
    assert.equal(piped.code, 0, piped.stdout + piped.stderr);
    assert.equal(JSON.parse(piped.stdout).action, "added");
    const file = path.join(sb.root, "lesson.yaml");
    const yaml = "lesson: Pin esbuild to 0.28 in tools/build because 0.29 changed the banner option\r\ncategory: tooling\r\n";
    fs.writeFileSync(file, Buffer.from(Buffer.from(`\uFEFF${yaml}`, "utf16le")).swap16());
    const fromFile = await runWithStdin(["--project", project, "add", "--from-file", file, "--json"], "", sb.env, sb.root);
    assert.equal(fromFile.code, 0, fromFile.stdout + fromFile.stderr);
    const listed = await runWithStdin(["--project", project, "list", "--json"], "", sb.env, sb.root);
    const lessons = (JSON.parse(listed.stdout) as Array<{ lesson: string; category: string }>).map((e) => e.lesson).sort();
    assert.deepEqual(lessons, [lesson, "Pin esbuild to 0.28 in tools/build because 0.29 changed the banner option"].sort());
  } finally {
    sb.cleanup();
  }
});

test("`cairn add -` stops reading standard input once it is past any lesson's size and refuses it as oversize at once", async () => {
  const sb = sandbox();
  try {
    const project = sb.project("flood");
    const offered = 64 * 1024 * 1024;
    const chunk = Buffer.from("word ".repeat(13107) + "\n");
    const child = spawn(process.execPath, [BIN, "--project", project, "add", "-"], { cwd: sb.root, env: sb.env, stdio: ["pipe", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    child.stdin.on("error", () => {}); // EPIPE once the CLI stops reading: what this test wants
    let written = 0;
    let closed = false;
    const done = new Promise<number>((resolve) => child.on("close", (code) => { closed = true; resolve(code ?? 1); }));
    while (!closed && written < offered) {
      written += chunk.length;
      if (!child.stdin.write(chunk)) await new Promise((r) => { child.stdin.once("drain", r); child.once("close", r); });
    }
    if (!closed) child.stdin.end();
    const code = await done;
    assert.equal(code, 2, stderr);
    assert.match(stderr, /over 16000/);
    // The CLI read about a megabyte (plus what the pipe buffers), not the 64 MB offered.
    assert.ok(written < offered / 8, `wrote ${written} of ${offered} bytes before the CLI stopped reading`);
  } finally {
    sb.cleanup();
  }
});
