// What a new user trips over first with plausible wrong input: each case once failed silently or destroyed data.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { BIN, sandbox } from "../helpers/cli.js";
import { storeOverlongTitle } from "../helpers/out-of-schema.js";

const sb = sandbox();
after(() => sb.cleanup());

const LESSON = "Run the migrations with npm run db:migrate before starting the API server locally";

test("export refuses to write over a database (the project's own, or the hive), which stays readable", async () => {
  const p = sb.project("export-over-db");
  const added = await sb.json(p, "add", LESSON);
  assert.equal(added.body.action, "added", added.stderr);
  const swarmDb = path.join(p, ".swarm", "cairn.db");
  const before = fs.readFileSync(swarmDb);
  for (const target of [swarmDb, sb.hive]) {
    const r = await sb.json(p, "export", target);
    assert.equal(r.code, 2, `${target}: ${r.stdout}`);
    assert.equal(r.body.error.code, "INVALID_INPUT");
    assert.match(r.body.error.message, /SQLite database/);
    assert.match(r.body.error.message, /\.jsonl/, "the message names what to write instead");
    assert.equal(fs.readFileSync(target, "latin1").slice(0, 15), "SQLite format 3", `${target} is still a database`);
  }
  assert.ok(fs.readFileSync(swarmDb).subarray(0, 100).equals(before.subarray(0, 100)));
  const listed = await sb.json(p, "list");
  assert.equal(listed.code, 0, listed.stderr);
  assert.deepEqual(listed.body.map((e: { handle: string }) => e.handle), [added.body.handle]);
  assert.equal(listed.stderr, "", "no damage notice");
  // An ordinary file is still replaced with --force, as the help says.
  const backup = path.join(p, "backup.jsonl");
  fs.writeFileSync(backup, "old\n");
  const ok = await sb.json(p, "export", backup, "--force");
  assert.equal(ok.code, 0, ok.stdout);
  assert.equal(ok.body.written, 1);
});

test("a URL where a hive file belongs is refused, never made into a folder named `mysql:` or `postgres:`", async () => {
  const p = sb.project("hive-url");
  const cases: Array<{ args: string[]; env?: NodeJS.ProcessEnv; says: RegExp }> = [
    { args: ["--hive", "mysql://db.internal/team"], says: /--hive.*postgres:\/\// },
    { args: ["--hive", "https://example.com/hive.db"], says: /--hive.*postgres:\/\// },
    { args: [], env: { CAIRN_HIVE: "postgres://alice:s3cret@db.internal:5432/team" }, says: /CAIRN_HIVE_URL/ },
    { args: [], env: { CAIRN_HIVE: "sqlite:///tmp/hive.db" }, says: /CAIRN_HIVE/ },
  ];
  for (const c of cases) {
    const r = await sb.raw(["--project", p, ...c.args, "add", LESSON, "--json"], { cwd: p, env: { ...sb.env, ...c.env } });
    const what = `${c.args.join(" ")} ${JSON.stringify(c.env ?? {})}`;
    assert.equal(r.code, 2, `${what}: ${r.stdout}${r.stderr}`);
    const body = JSON.parse(r.stdout);
    assert.equal(body.error.code, "INVALID_CONFIG", what);
    assert.match(body.error.message, c.says, what);
    assert.doesNotMatch(r.stdout, /s3cret/, "the password is masked");
    assert.deepEqual(fs.readdirSync(p).filter((n) => n.endsWith(":")), [], `${what}: no folder named after the URL's scheme`);
  }
  // The MCP server and the web page take --hive as their environment: the same refusal, before they start.
  const mcp = await sb.raw(["--project", p, "--hive", "mysql://db.internal/team", "mcp"], { cwd: p, timeoutMs: 60_000 });
  assert.equal(mcp.code, 2, mcp.stderr);
  assert.match(mcp.stderr, /postgres:\/\//);
  assert.deepEqual(fs.readdirSync(p).filter((n) => n.endsWith(":")), []);
});

test("a pasted log of megabytes is refused as too long, not a crash (every layer still judges it)", async () => {
  const p = sb.project("huge-stdin");
  // One unbroken run of letters: a regex that backtracks per character ran out of stack on it.
  const huge = "a".repeat(10_000_000);
  const r = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    const child = execFile(process.execPath, [BIN, "--project", p, "add", "-", "--json"], { cwd: p, env: sb.env, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) =>
      resolve({ code: err ? Number((err as { code?: unknown }).code ?? 1) : 0, stdout, stderr }),
    );
    // The CLI stops reading past what any lesson may hold, so the rest of the write meets a closed pipe.
    child.stdin!.on("error", () => {});
    child.stdin!.end(huge);
  });
  assert.equal(r.code, 2, `${r.stdout}\n${r.stderr}`);
  const body = JSON.parse(r.stdout);
  assert.equal(body.action, "rejected");
  assert.ok(body.issues.some((i: { code: string }) => i.code === "oversize"), r.stdout.slice(0, 600));
  assert.doesNotMatch(r.stderr, /stack/i);
});

test("--project naming a file is refused like a missing folder, by read commands and doctor too", async () => {
  const file = path.join(sb.project("project-file"), "notes.txt");
  fs.writeFileSync(file, "not a project\n");
  for (const args of [["list"], ["recall", "auth middleware"], ["doctor"], ["stats"]]) {
    const r = await sb.json(file, ...args);
    assert.equal(r.code, 2, `${args.join(" ")}: ${r.stdout}`);
    assert.equal(r.body.error.code, "INVALID_INPUT", args.join(" "));
    assert.match(r.body.error.message, /is a file, not a folder/, args.join(" "));
  }
  assert.equal(fs.readFileSync(file, "utf8"), "not a project\n");
});

test("a long pasted reason for quarantine or archive is refused in one line naming the limit, not an internal error nor a silent cut; the lesson stays as it was", async () => {
  const p = sb.project("long-reason");
  const reason = "the stack trace from the failing deploy: " + "at handler (src/api/server.ts:42) ".repeat(60);
  for (const cmd of ["quarantine", "archive"]) {
    const added = await sb.json(p, "add", `${LESSON} (${cmd})`);
    assert.equal(added.body.action, "added", added.stdout);
    const r = await sb.json(p, cmd, added.body.handle, reason);
    assert.equal(r.code, 2, `${cmd}: ${r.stdout}${r.stderr}`);
    assert.equal(r.body.error.code, "INVALID_INPUT", cmd);
    assert.match(r.body.error.message, /reason is too long \(at most 500 characters; it has \d+\)/, cmd);
    const shown = await sb.json(p, "show", added.body.handle);
    assert.equal(shown.body.entry.lifecycle.status, "candidate", `${cmd}: nothing changed`);
    // The same command with the reason's first line goes through.
    const short = await sb.json(p, cmd, added.body.handle, reason.slice(0, 120));
    assert.equal(short.code, 0, `${cmd}: ${short.stdout}${short.stderr}`);
  }
});

test("a second `cairn ui` (or `mcp --http`) on a taken port says so and what to pass instead; `ui --json` errors are JSON", async () => {
  const p = sb.project("port-taken");
  const taken = net.createServer();
  await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
  const port = String((taken.address() as net.AddressInfo).port);
  try {
    const ui = await sb.raw(["--project", p, "ui", "--port", port, "--json"], { timeoutMs: 60_000 });
    assert.equal(ui.code, 1, ui.stdout + ui.stderr);
    const body = JSON.parse(ui.stdout);
    assert.equal(body.error.code, "IO_ERROR");
    assert.match(body.error.message, new RegExp(`port ${port} .*already in use.*--port 0`, "i"));
    const mcp = await sb.raw(["--project", p, "mcp", "--http", "--port", port], { timeoutMs: 60_000 });
    assert.equal(mcp.code, 1, mcp.stderr);
    assert.match(mcp.stderr, new RegExp(`port ${port} .*already in use.*--port 0`, "i"));
  } finally {
    taken.close();
  }
});

test("add --from-file naming a folder says which path is a folder", async () => {
  const p = sb.project("from-file-dir");
  const r = await sb.json(p, "add", "--from-file", p);
  assert.equal(r.code, 1, r.stdout);
  assert.equal(r.body.error.code, "IO_ERROR");
  assert.equal(r.body.error.message, `Cannot read ${p}: it is a folder; name a YAML or JSON lesson file in it.`);
});

test("hive push --to with a non-PostgreSQL URL is not told to pull into a file named after that URL", async () => {
  const p = sb.project("hive-push-url");
  const r = await sb.json(p, "hive", "push", "--to", "mysql://db.internal/team");
  assert.equal(r.code, 2, r.stdout);
  assert.doesNotMatch(r.body.error.message, /hive pull --to mysql:/);
  assert.match(r.body.error.message, /postgres:\/\//);
});

test("a validation error the engine did not word (a stored lesson's title over the schema's 80 characters) is INVALID_INPUT naming the field, not INTERNAL with zod's issue list", async () => {
  const p = sb.project("title-over-schema");
  const added = await sb.json(p, "add", LESSON);
  assert.equal(added.body.action, "added", added.stdout);
  storeOverlongTitle(path.join(p, ".swarm", "cairn.db"), added.body.id);
  const r = await sb.json(p, "archive", added.body.handle, "replaced by the compose file");
  assert.equal(r.code, 2, r.stdout + r.stderr);
  assert.equal(r.body.error.code, "INVALID_INPUT", r.stdout);
  assert.match(r.body.error.message, /title is too long \(at most 80 characters\)/);
  assert.doesNotMatch(r.body.error.message, /"code"|\[\s*\{/, "no raw issue list");
  const text = await sb.run(p, "archive", added.body.handle);
  assert.equal(text.code, 2);
  assert.doesNotMatch(text.stderr, /CAIRN_DEBUG|"origin"/, text.stderr);
});

test("`cairn mcp --port 7391` without --http is refused (exit 2, saying to add --http), not a stdio server that ignores the port", async () => {
  const p = sb.project("mcp-port-no-http");
  for (const args of [["mcp", "--port", "7391"], ["mcp", "--host", "0.0.0.0"], ["mcp", "--token", "abcdefabcdefabcdefabcdef"]]) {
    const r = await sb.raw(["--project", p, ...args], { cwd: p, timeoutMs: 20_000 });
    assert.equal(r.code, 2, `${args.join(" ")}: ${r.stdout}${r.stderr}`);
    assert.match(r.stderr, /--http/, args.join(" "));
    assert.doesNotMatch(r.stderr, /stdio server ready/, args.join(" "));
  }
});
