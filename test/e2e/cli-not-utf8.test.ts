// A lesson whose bytes are not UTF-8 (a file saved as Latin-1 or Windows-1252) is refused, not stored with U+FFFD in place of its letters.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { BIN, sandbox } from "../helpers/cli.js";

const sb = sandbox();
after(() => sb.cleanup());

// "café" and "naïve" as Windows-1252 writes them: é = 0xE9, ï = 0xEF, each alone, which UTF-8 never allows.
const LATIN1 = Buffer.from("Run the caf\xe9 service's npm run db:migrate before starting the API; a na\xefve start crashed on a missing column", "latin1");

function addFromStdin(project: string, bytes: Buffer): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [BIN, "--project", project, "add", "-", "--json"], { cwd: project, env: sb.env }, (err, stdout, stderr) =>
      resolve({ code: err ? Number((err as { code?: unknown }).code ?? 1) : 0, stdout, stderr }),
    );
    child.stdin!.end(bytes);
  });
}

async function lessons(project: string): Promise<string[]> {
  const listed = await sb.json(project, "list");
  assert.equal(listed.code, 0, listed.stderr);
  return listed.body.map((e: { lesson: string }) => e.lesson);
}

test("`cairn add -` with Latin-1 bytes on stdin is refused (exit 2) naming standard input and the fix; nothing is stored", async () => {
  const p = sb.project("stdin-latin1");
  const r = await addFromStdin(p, LATIN1);
  assert.equal(r.code, 2, r.stdout);
  const body = JSON.parse(r.stdout);
  assert.equal(body.error.code, "INVALID_INPUT");
  assert.match(body.error.message, /standard input is not UTF-8/);
  assert.match(body.error.message, /save it as UTF-8/);
  assert.deepEqual(await lessons(p), []);
});

test("`cairn add --from-file` of a Latin-1 YAML file is refused naming the file and its line; a UTF-8 one keeps its letters", async () => {
  const p = sb.project("file-latin1");
  const file = path.join(p, "lesson.yaml");
  fs.writeFileSync(file, Buffer.concat([Buffer.from("category: tooling\nlesson: "), LATIN1, Buffer.from("\n")]));
  const r = await sb.json(p, "add", "--from-file", file);
  assert.equal(r.code, 2, r.stdout);
  assert.equal(r.body.error.code, "INVALID_INPUT");
  assert.ok(r.body.error.message.includes(`${file} is not UTF-8`), r.body.error.message);
  assert.match(r.body.error.message, /line 2/);
  assert.deepEqual(await lessons(p), []);

  const text = LATIN1.toString("latin1");
  fs.writeFileSync(file, `category: tooling\nlesson: "${text}"\n`, "utf8");
  const ok = await sb.json(p, "add", "--from-file", file);
  assert.equal(ok.body.action, "added", ok.stdout);
  assert.deepEqual(await lessons(p), [text], "é and ï kept as written");
});

test("`cairn import` skips a line that is not UTF-8 (reported by number with the fix) and imports the rest as written", async () => {
  const p = sb.project("import-latin1");
  const file = path.join(p, "memories.jsonl");
  const row = (id: string, text: Buffer) => Buffer.concat([Buffer.from(`{"id":"${id}","information":"`), text, Buffer.from(`"}\n`)]);
  const good = "Pin the Node version in .nvmrc so CI and local builds use the same runtime: café rule";
  fs.writeFileSync(file, Buffer.concat([row("m1", Buffer.from(good, "utf8")), row("m2", LATIN1), row("m3", Buffer.from("Use pg_dump --format=custom for PostgreSQL backups so pg_restore can restore selectively", "utf8"))]));
  const r = await sb.json(p, "import", file, "--format", "swarm-tools");
  assert.equal(r.code, 0, r.stdout);
  assert.equal(r.body.imported, 2, r.stdout);
  assert.equal(r.body.skipped_lines.length, 1, r.stdout);
  assert.equal(r.body.skipped_lines[0].line, 2);
  assert.match(r.body.skipped_lines[0].error, /not UTF-8/);
  assert.match(r.body.skipped_lines[0].error, /save the file as UTF-8/);
  const stored = await lessons(p);
  assert.ok(stored.includes(good), "the UTF-8 line keeps its é");
  assert.ok(!stored.some((l) => l.includes("\uFFFD")), `no replacement characters stored: ${JSON.stringify(stored)}`);
});
