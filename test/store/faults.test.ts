// Damaged, read-only and full databases (issue 11, items 16–18): typed errors naming the file, a way out, no lost writes.
import { execFile, execFileSync } from "node:child_process";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { openCairn } from "../../src/index.js";
import { BIN, sandbox, type CliResult } from "../helpers/cli.js";
import { makeSandbox, removeSandbox } from "../fixtures/workers/sandbox.js";
import { canDropPrivileges } from "../helpers/privileges.js";

const LESSONS = Array.from({ length: 40 }, (_, i) => `Run prisma generate after editing schema file number ${i} of the billing service before building`);

/** Adds the lessons through the CLI (one process), returns the project dir. */
async function projectWithLessons(sb: ReturnType<typeof sandbox>, name: string): Promise<string> {
  const dir = sb.project(name);
  const file = path.join(sb.root, `${name}.jsonl`);
  fs.writeFileSync(file, LESSONS.map((lesson, i) => JSON.stringify({ lesson, category: "tooling", id: `ext-${i}` })).join("\n") + "\n");
  const r = await sb.json(dir, "import", file, "--format", "opencode-swarm");
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.body.imported, LESSONS.length);
  return dir;
}

/** Overwrites the page holding `text` (a lesson's row) with a fixed garbage pattern, as a bad sector or a stray write would. */
function overwritePageHolding(file: string, text: string): void {
  const bytes = fs.readFileSync(file);
  const at = bytes.indexOf(Buffer.from(text));
  assert.ok(at > 0, "the lesson is in the file");
  const fd = fs.openSync(file, "r+");
  fs.writeSync(fd, Buffer.alloc(4096, 0xa7), 0, 4096, Math.floor(at / 4096) * 4096);
  fs.closeSync(fd);
}

function errorOf(r: CliResult): { code: string; message: string } {
  return (JSON.parse(r.stdout) as { error: { code: string; message: string } }).error;
}

test("regression 11.16: a damaged project database is named, doctor finds it, doctor --repair salvages it and keeps the damaged file", async () => {
  const sb = sandbox();
  try {
    const dir = await projectWithLessons(sb, "damaged");
    const db = path.join(dir, ".swarm", "cairn.db");
    for (const s of ["-wal", "-shm"]) fs.rmSync(db + s, { force: true });
    overwritePageHolding(db, "schema file number 20 of");

    // S-21 is lesson number 20, whose page is gone.
    const show = await sb.run(dir, "show", "S-21", "--json");
    assert.equal(show.code, 1, show.stdout);
    const err = errorOf(show);
    assert.equal(err.code, "DAMAGED", err.message);
    assert.ok(err.message.includes(db), err.message);
    assert.match(err.message, /cairn doctor --repair/);

    const doctor = await sb.json(dir, "doctor");
    assert.equal(doctor.code, 1);
    assert.equal(doctor.body.ok, false);
    const swarm = doctor.body.tiers.find((t: { tier: string }) => t.tier === "swarm");
    assert.equal(swarm.damaged, true);
    assert.equal(swarm.location, db);

    const repair = await sb.json(dir, "doctor", "--repair");
    assert.equal(repair.code, 0, repair.stderr + JSON.stringify(repair.body));
    assert.equal(repair.body.ok, true);
    const [report] = repair.body.repairs;
    assert.equal(report.file, db);
    assert.ok(fs.existsSync(report.kept_as), "the damaged file is kept");
    assert.match(path.basename(report.kept_as), /^cairn\.db\.damaged-\d{4}-/);
    const recovered = report.tables.find((t: { table: string }) => t.table === "entries").recovered;
    assert.ok(recovered > 0, "readable lessons are salvaged");

    const list = await sb.json(dir, "list", "--limit", "100");
    assert.equal(list.code, 0, list.stderr);
    assert.equal(list.body.length, recovered);
    // The full-text index was rebuilt in the fresh file: recall finds salvaged lessons.
    const recall = await sb.json(dir, "recall", "prisma generate billing schema");
    assert.equal(recall.code, 0, recall.stderr);
    assert.ok(recall.body.length > 0);
    // New handles continue after the old ones: none is reused.
    const added = await sb.json(dir, "add", "Always run npm ci in CI instead of npm install for reproducible builds");
    assert.equal(added.code, 0, added.stderr);
    assert.ok(Number(String(added.body.handle).slice(2)) > LESSONS.length, JSON.stringify(added.body));
  } finally {
    sb.cleanup();
  }
});

/** Asserts a CLI run failed with the damaged-database error for `file`: one JSON error with --json, the message on stderr without. */
function assertDamaged(r: CliResult, file: string, json: boolean, what: string): void {
  assert.equal(r.code, 1, `${what}: ${r.stdout}${r.stderr}`);
  assert.doesNotMatch(r.stderr, /Answering from the/, what);
  const message = json ? errorOf(r).message : r.stderr;
  if (json) assert.equal(errorOf(r).code, "DAMAGED", what);
  assert.ok(message.includes(file), `${what}: ${message}`);
  assert.match(message, /cairn doctor --repair/, what);
}

test("a damaged tier asked for alone (--tier swarm or --tier hive) fails with the damage, instead of \"answering from the other tier only\" and answering empty", async () => {
  const sb = sandbox();
  try {
    const dir = await projectWithLessons(sb, "damaged-tier");
    const db = path.join(dir, ".swarm", "cairn.db");
    // The hive's lessons, through the library: the same texts, so a page of the hive holds lesson 20 too.
    const cairn = await openCairn({ projectDir: dir, hivePath: sb.hive, env: sb.env });
    try {
      for (const lesson of LESSONS) await cairn.add({ lesson, category: "tooling" }, { tier: "hive" });
    } finally {
      await cairn.close();
    }

    // The project's file damaged in a lesson's page: it opens, and fails mid-read.
    for (const s of ["-wal", "-shm"]) fs.rmSync(db + s, { force: true });
    overwritePageHolding(db, "schema file number 20 of");
    for (const args of [["list", "--tier", "swarm"], ["recall", "prisma generate billing schema", "--tier", "swarm"]]) {
      assertDamaged(await sb.run(dir, ...args, "--json"), db, true, args.join(" "));
      assertDamaged(await sb.run(dir, ...args), db, false, args.join(" "));
    }
    // Asked for both tiers, the hive still answers, with the notice.
    const both = await sb.json(dir, "list", "--limit", "100");
    assert.equal(both.code, 0, both.stderr);
    assert.match(both.stderr, /Answering from the hive tier only/);
    assert.ok(both.body.length > 0 && both.body.every((e: { tier: string }) => e.tier === "hive"), JSON.stringify(both.body).slice(0, 300));

    // The hive's file damaged in a lesson's page: --tier hive fails alike.
    for (const s of ["-wal", "-shm"]) fs.rmSync(sb.hive + s, { force: true });
    overwritePageHolding(sb.hive, "schema file number 20 of");
    for (const args of [["list", "--tier", "hive"], ["recall", "prisma generate billing schema", "--tier", "hive"]]) {
      assertDamaged(await sb.run(dir, ...args, "--json"), sb.hive, true, args.join(" "));
    }
    // Both tiers damaged: no tier is left to answer from, so a read of both fails too.
    for (const args of [["list"], ["recall", "prisma generate billing schema"]]) {
      const r = await sb.run(dir, ...args, "--json");
      assert.equal(r.code, 1, `${args.join(" ")}: ${r.stdout}${r.stderr}`);
      assert.equal(errorOf(r).code, "DAMAGED", args.join(" "));
      assert.match(errorOf(r).message, /cairn doctor --repair/);
    }

    // Files damaged from the first byte (left out when opened): a tier asked for alone says so too.
    fs.writeFileSync(db, Buffer.alloc(64 * 1024, 0x5a));
    fs.writeFileSync(sb.hive, "not a database\n".repeat(400));
    for (const [file, tier] of [[db, "swarm"], [sb.hive, "hive"]] as const) {
      for (const args of [["list", "--tier", tier], ["recall", "prisma generate billing schema", "--tier", tier], ["export", path.join(sb.root, `${tier}.jsonl`), "--tier", tier], ["rejected", "--tier", tier]]) {
        assertDamaged(await sb.run(dir, ...args, "--json"), file, true, args.join(" "));
      }
    }
  } finally {
    sb.cleanup();
  }
});

test("doctor's own advice for a damaged database says what to do (repair, else a backup or an export), not \"Run `cairn doctor`\"; other commands still point at doctor", async () => {
  const sb = sandbox();
  try {
    const dir = await projectWithLessons(sb, "damaged-advice");
    const db = path.join(dir, ".swarm", "cairn.db");
    for (const s of ["-wal", "-shm"]) fs.rmSync(db + s, { force: true });
    overwritePageHolding(db, "schema file number 20 of");
    // A hive file saved over with text: damaged from its first byte (the fault path, not the integrity check).
    fs.mkdirSync(path.dirname(sb.hive), { recursive: true });
    fs.writeFileSync(sb.hive, "not a database\n".repeat(400));

    const list = await sb.run(dir, "list");
    assert.match(list.stderr, /Run `cairn doctor`/, "other commands send a person to doctor");

    for (const args of [["doctor"], ["doctor", "--json"]]) {
      const r = await sb.run(dir, ...args);
      assert.equal(r.code, 1, r.stdout + r.stderr);
      const said = r.stdout + r.stderr;
      assert.doesNotMatch(said, /Run `cairn doctor`/, `${args.join(" ")}: ${said}`);
      assert.match(r.stdout, /cairn doctor --repair/, args.join(" "));
      assert.match(r.stdout, /backup/, args.join(" "));
      assert.match(r.stdout, /cairn import/, args.join(" "));
    }
    const json = await sb.json(dir, "doctor");
    const damaged = json.body.tiers.filter((t: { damaged?: boolean }) => t.damaged).map((t: { tier: string }) => t.tier).sort();
    assert.deepEqual(damaged, ["hive", "swarm"], JSON.stringify(json.body.tiers));
  } finally {
    sb.cleanup();
  }
});

test("regression 11.16: a hive file that is not a database leaves the swarm tier working, with one notice", async () => {
  const sb = makeSandbox();
  try {
    fs.mkdirSync(path.dirname(sb.hivePath), { recursive: true });
    fs.writeFileSync(sb.hivePath, "this is not a database, it is a text file someone saved over it\n".repeat(20));
    const cairn = await openCairn({ projectDir: sb.projectDir, hivePath: sb.hivePath, env: sb.env });
    try {
      const added = await cairn.add({ lesson: LESSONS[0]!, category: "tooling" });
      assert.equal(added.action, "added");
      const hits = await cairn.recall("prisma generate billing schema");
      assert.equal(hits.length, 1);
      const block = await cairn.inject({ task: "edit the prisma schema of the billing service" });
      assert.match(block.text, /prisma generate/);
      await assert.rejects(cairn.add({ lesson: LESSONS[1]!, category: "tooling" }, { tier: "hive" }), (e: Error & { code?: string }) => {
        assert.equal(e.code, "DAMAGED");
        assert.ok(e.message.includes(sb.hivePath), e.message);
        return true;
      });
      const tiers = await cairn.doctor();
      const hive = tiers.find((t) => t.tier === "hive");
      assert.equal(hive?.damaged, true);
      assert.equal(hive?.location, sb.hivePath);
    } finally {
      await cairn.close();
    }
  } finally {
    removeSandbox(sb);
  }
});

test("regression 11.16: a damaged project database leaves the hive answering, and refuses writes to itself", async () => {
  const sb = makeSandbox();
  try {
    const first = await openCairn({ projectDir: sb.projectDir, hivePath: sb.hivePath, env: sb.env });
    await first.add({ lesson: LESSONS[2]!, category: "tooling" }, { tier: "hive" });
    await first.close();
    const db = path.join(sb.projectDir, ".swarm", "cairn.db");
    for (const s of ["", "-wal", "-shm"]) fs.rmSync(db + s, { force: true });
    fs.writeFileSync(db, Buffer.alloc(64 * 1024, 0x5a));
    const cairn = await openCairn({ projectDir: sb.projectDir, hivePath: sb.hivePath, env: sb.env });
    try {
      const hits = await cairn.recall("prisma generate billing schema");
      assert.deepEqual(hits.map((h) => h.tier), ["hive"]);
      await assert.rejects(cairn.add({ lesson: LESSONS[3]!, category: "tooling" }), (e: Error & { code?: string }) => e.code === "DAMAGED" && e.message.includes(db));
      // Nothing was written over the damaged file.
      assert.equal(fs.readFileSync(db).every((b) => b === 0x5a), true);
    } finally {
      await cairn.close();
    }
  } finally {
    removeSandbox(sb);
  }
});


function runAsNobody(args: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      "setpriv",
      ["--reuid=nobody", "--regid=nogroup", "--clear-groups", process.execPath, BIN, ...args],
      { env, cwd, maxBuffer: 16 * 1024 * 1024 },
      (err, stdout, stderr) => resolve({ code: err ? Number((err as { code?: unknown }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const dropPrivileges = canDropPrivileges();

for (const variant of ["file 0444", "folder 0555"] as const) {
  test(`regression 11.17: read-only data (${variant}) can be listed, shown and recalled; writes name the path and the permission`, { skip: dropPrivileges ? false : "needs root and setpriv to run a child as nobody" }, async () => {
    const sb = sandbox();
    try {
      const dir = await projectWithLessons(sb, "readonly");
      const swarmDir = path.join(dir, ".swarm");
      const db = path.join(swarmDir, "cairn.db");
      // The whole sandbox belongs to nobody, so only the mode bits under test stop it writing.
      execFileSync("chown", ["-R", "nobody", sb.root]);
      fs.chmodSync(sb.root, 0o755);
      if (variant === "file 0444") fs.chmodSync(db, 0o444);
      else fs.chmodSync(swarmDir, 0o555);
      const run = (...args: string[]) => runAsNobody(["--project", dir, ...args, "--json"], sb.env, sb.root);

      const list = await run("list", "--limit", "100");
      assert.equal(list.code, 0, list.stdout + list.stderr);
      assert.equal(JSON.parse(list.stdout).length, LESSONS.length);
      const show = await run("show", "S-3");
      assert.equal(show.code, 0, show.stdout + show.stderr);
      assert.equal(JSON.parse(show.stdout).entry.handle, "S-3");
      const recall = await run("recall", "prisma generate billing schema");
      assert.equal(recall.code, 0, recall.stdout + recall.stderr);
      assert.ok(JSON.parse(recall.stdout).length > 0);

      const add = await run("add", "Always run npm ci in CI instead of npm install for reproducible builds");
      assert.equal(add.code, 1);
      const err = errorOf(add);
      assert.equal(err.code, "READ_ONLY", err.message);
      assert.ok(err.message.includes(db), err.message);
      assert.match(err.message, variant === "file 0444" ? /file is not writable \(mode 0444/ : /folder .* is not writable \(mode 0555/);
    } finally {
      execFileSync("chmod", ["-R", "u+w", sb.root]);
      sb.cleanup();
    }
  });
}

test("regression 11.17: injecting from read-only data skips the usage counters with one notice", { skip: dropPrivileges ? false : "needs root and setpriv" }, async () => {
  const sb = sandbox();
  try {
    const dir = await projectWithLessons(sb, "readonly-inject");
    execFileSync("chown", ["-R", "nobody", sb.root]);
    fs.chmodSync(sb.root, 0o755);
    fs.chmodSync(path.join(dir, ".swarm", "cairn.db"), 0o444);
    const script = `
      const { openCairn } = await import(${JSON.stringify(path.resolve("dist/index.js"))});
      const c = await openCairn({ projectDir: ${JSON.stringify(dir)}, hivePath: ${JSON.stringify(sb.hive)} });
      for (let i = 0; i < 3; i++) { const r = await c.inject({ task: "edit the prisma schema of the billing service" }); if (!r.text) throw new Error("empty block"); }
      await c.close();`;
    const r = await new Promise<CliResult>((resolve) =>
      execFile("setpriv", ["--reuid=nobody", "--regid=nogroup", "--clear-groups", process.execPath, "--input-type=module", "-e", script], { env: sb.env, cwd: sb.root }, (err, stdout, stderr) =>
        resolve({ code: err ? 1 : 0, stdout, stderr }),
      ),
    );
    assert.equal(r.code, 0, r.stderr);
    const notices = r.stderr.split("\n").filter((l) => l.includes("usage counters are not updated"));
    assert.equal(notices.length, 1, r.stderr);
  } finally {
    execFileSync("chmod", ["-R", "u+w", sb.root]);
    sb.cleanup();
  }
});

function canMountTmpfs(): boolean {
  if (process.getuid?.() !== 0) return false;
  const probe = fs.mkdtempSync(path.join("/tmp", "cairn-mount-probe-"));
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", probe], { stdio: "ignore" });
    execFileSync("umount", [probe]);
    return true;
  } catch {
    return false;
  } finally {
    fs.rmSync(probe, { recursive: true, force: true });
  }
}

test("regression 11.18: a full disk is DISK_FULL naming the file and the space needed, and no acknowledged lesson is lost", { skip: canMountTmpfs() ? false : "needs root to mount a small tmpfs" }, async () => {
  const sb = sandbox();
  const mnt = path.join(sb.root, "small-disk");
  fs.mkdirSync(mnt);
  execFileSync("mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", mnt]);
  try {
    const dir = path.join(mnt, "project");
    fs.mkdirSync(dir);
    const acknowledged: string[] = [];
    let full: { code: string; message: string } | undefined;
    // Each import adds a batch of lessons distinct enough not to merge as duplicates (pseudo-random words).
    let seed = 7;
    const word = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return Array.from({ length: 7 }, (_, k) => String.fromCharCode(97 + ((seed >> (k * 3)) % 26))).join("");
    };
    for (let round = 0; round < 15 && !full; round++) {
      const file = path.join(sb.root, `round-${round}.jsonl`);
      const lessons = Array.from({ length: 100 }, () => `Before building the ${word()} service, run ${word()} generate and check the ${word()} ${word()} ${word()} config for ${word()} ${word()}`);
      fs.writeFileSync(file, lessons.map((lesson, i) => JSON.stringify({ lesson, category: "tooling", id: `r${round}-${i}` })).join("\n") + "\n");
      const r = await sb.run(dir, "import", file, "--format", "opencode-swarm", "--json");
      if (r.code === 0) acknowledged.push(...lessons);
      else full = errorOf(r);
    }
    assert.ok(full, "the disk filled up");
    assert.equal(full.code, "DISK_FULL", full.message);
    assert.ok(full.message.includes(path.join(dir, ".swarm", "cairn.db")), full.message);
    assert.match(full.message, /free on the file system holding it; Cairn needs at least [\d.]+ [KM]B free/);

    // Room again: every lesson an import acknowledged is there.
    execFileSync("mount", ["-o", "remount,size=16m", mnt]);
    const list = await sb.json(dir, "list", "--limit", "5000");
    assert.equal(list.code, 0, list.stderr);
    const stored = new Set(list.body.map((e: { lesson: string }) => e.lesson));
    assert.deepEqual(acknowledged.filter((l) => !stored.has(l)), []);
  } finally {
    execFileSync("umount", [mnt]);
    sb.cleanup();
  }
});

test("regression 11.18: a database at its page limit is DISK_FULL naming the file, and the write is rolled back", async () => {
  const sb = makeSandbox();
  try {
    const cairn = await openCairn({ projectDir: sb.projectDir, hivePath: sb.hivePath, env: sb.env });
    try {
      await cairn.add({ lesson: LESSONS[0]!, category: "tooling" });
      // The same SQLITE_FULL a full disk gives, on this connection only (max_page_count is not stored in the file).
      const { SqliteStore } = await import("../../src/store/sqlite-store.js");
      const services = (cairn as unknown as { services: { swarm: InstanceType<typeof SqliteStore> } }).services;
      const pages = services.swarm.driver.get<{ page_count: number }>("PRAGMA page_count")!.page_count;
      services.swarm.driver.exec(`PRAGMA max_page_count = ${pages}`);
      let error: (Error & { code?: string }) | undefined;
      for (let i = 1; i < LESSONS.length && !error; i++) {
        await cairn.add({ lesson: `${LESSONS[i]} ${"x".repeat(1500)}`, category: "tooling" }).catch((e: Error) => (error = e));
      }
      assert.ok(error, "the page limit was reached");
      assert.equal(error.code, "DISK_FULL", error.message);
      assert.ok(error.message.includes(path.join(sb.projectDir, ".swarm", "cairn.db")), error.message);
      assert.match(error.message, /size limit \(max_page_count = \d+ pages\)|disk is full/);
      // The connection still reads after the failed write.
      assert.ok((await cairn.list({ limit: 100 })).length >= 1);
    } finally {
      await cairn.close();
    }
  } finally {
    removeSandbox(sb);
  }
});

test("regression 11.16: over MCP a damaged hive is a typed tool error naming the file, and the project tier keeps answering", async () => {
  const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
  const { StdioClientTransport } = await import("@modelcontextprotocol/sdk/client/stdio.js");
  const sb = makeSandbox();
  fs.mkdirSync(path.dirname(sb.hivePath), { recursive: true });
  fs.writeFileSync(sb.hivePath, "not a database\n".repeat(100));
  const client = new Client({ name: "faults", version: "1.0.0" });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [path.resolve("dist/mcp.js"), "--project", sb.projectDir],
    cwd: sb.projectDir,
    env: { ...(sb.env as Record<string, string>), CAIRN_HIVE: sb.hivePath },
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
  try {
    await client.connect(transport);
    type Result = { isError?: boolean; structuredContent?: Record<string, unknown>; content: Array<{ type: string; text?: string }> };
    const add = (await client.callTool({ name: "knowledge_add", arguments: { lesson: LESSONS[4] } })) as Result;
    assert.ok(!add.isError, JSON.stringify(add));
    const recall = (await client.callTool({ name: "knowledge_recall", arguments: { query: "prisma generate billing schema" } })) as Result;
    assert.ok(!recall.isError, JSON.stringify(recall));
    assert.match(recall.content.map((c) => c.text ?? "").join("\n"), /prisma generate/);
    const hive = (await client.callTool({ name: "knowledge_add", arguments: { lesson: LESSONS[5], tier: "hive" } })) as Result;
    assert.equal(hive.isError, true);
    assert.equal(hive.structuredContent?.error, "DAMAGED");
    assert.ok(hive.content.map((c) => c.text ?? "").join("").includes(sb.hivePath));
    // One notice, however many calls touched the tiers.
    assert.equal(stderr.split("\n").filter((l) => l.includes("is damaged")).length, 1, stderr);
  } finally {
    await client.close().catch(() => undefined);
    removeSandbox(sb);
  }
});

test("regression 11.16: doctor --repair refuses while another process has the file open (its writes would follow the renamed file)", async () => {
  const sb = makeSandbox();
  try {
    const cairn = await openCairn({ projectDir: sb.projectDir, hivePath: sb.hivePath, env: sb.env });
    await cairn.add({ lesson: LESSONS[6]!, category: "tooling" });
    await cairn.close();
    const db = path.join(sb.projectDir, ".swarm", "cairn.db");
    const { spawn } = await import("node:child_process");
    const holder = spawn(process.execPath, ["-e", `const D = require("libsql"); const d = new D(${JSON.stringify(db)}); d.prepare("SELECT count(*) FROM entries").get(); console.log("open"); setInterval(() => {}, 1000);`], {
      cwd: path.resolve("."),
      stdio: ["ignore", "pipe", "inherit"],
    });
    try {
      await new Promise<void>((resolve) => holder.stdout.once("data", () => resolve()));
      const { repairDatabase } = await import("../../src/store/repair.js");
      await assert.rejects(repairDatabase(db), (e: Error & { code?: string }) => e.code === "CONFLICT" && e.message.includes(db));
      assert.ok(fs.existsSync(db), "the file was not moved");
      assert.deepEqual(fs.readdirSync(path.dirname(db)).filter((n) => n.includes("damaged")), []);
    } finally {
      holder.kill();
    }
  } finally {
    removeSandbox(sb);
  }
});
