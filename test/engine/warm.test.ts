// cairn.warm() (issue 16.2): changes no data, and the first add of a warmed process costs far less CPU than a cold one's.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import path from "node:path";
import Database from "libsql";
import { openCairn } from "../../src/index.js";
import type { SqliteDriver } from "../../src/store/driver.js";
import fs from "node:fs";
import { makeSandbox, removeSandbox, REPO_ROOT, WORKERS_DIR, type Sandbox } from "../fixtures/workers/sandbox.js";

const TOPICS = ["prisma", "redis", "docker", "vitest", "kafka", "nginx", "eslint", "terraform"];

async function seed(sb: Sandbox): Promise<void> {
  const c = await openCairn({ projectDir: sb.projectDir, hivePath: sb.hivePath, env: sb.env });
  try {
    for (let i = 0; i < 40; i++) {
      const t = TOPICS[i % TOPICS.length]!;
      await c.add({ lesson: `The ${t} step ${i} in src/${t}/job${i}.ts must retry with a backoff of ${i + 2} seconds.`, category: "tooling", kind: "learning" });
    }
  } finally {
    await c.close();
  }
}

/** What a warm-up must not change: rows, events and usage counters in both tiers. */
function snapshot(sb: Sandbox): string {
  return [path.join(sb.projectDir, ".swarm", "cairn.db"), sb.hivePath]
    .map((file) => {
      const db = new Database(file, { readonly: true });
      try {
        const row = (sql: string) => Object.values(db.prepare(sql).raw().get() as unknown[]);
        return JSON.stringify([
          row("SELECT count(*) FROM entries"),
          row("SELECT count(*), max(seq) FROM events"),
          row("SELECT sum(shown), sum(consulted), max(updated_at) FROM entries"),
        ]);
      } finally {
        db.close();
      }
    })
    .join("\n");
}

let runs = 0;
function firstAddCpu(sb: Sandbox, mode: "warm" | "cold"): number {
  const args = ["--import", "tsx", path.join(WORKERS_DIR, "warm-worker.ts"), sb.projectDir, sb.hivePath, mode, String(++runs * 7919)];
  const out = execFileSync(process.execPath, args, { env: sb.env, encoding: "utf8" });
  const line = out.split("\n").find((l) => l.startsWith("RESULT "));
  assert.ok(line, out);
  const r = JSON.parse(line.slice(7)) as { action: string; cpuMicros: number };
  assert.equal(r.action, "added");
  return r.cpuMicros;
}

test("regression 16.2: warm() writes nothing", async () => {
  const sb = makeSandbox();
  try {
    await seed(sb);
    const before = snapshot(sb);
    const c = await openCairn({ projectDir: sb.projectDir, hivePath: sb.hivePath, env: sb.env, actor: "agent:test" });
    try {
      await c.warm();
      await c.warm();
    } finally {
      await c.close();
    }
    assert.equal(snapshot(sb), before);
  } finally {
    removeSandbox(sb);
  }
});

test("regression 16.2: after warm(), a process's first add costs well under half the CPU of a cold process's first add", async () => {
  const sb = makeSandbox();
  try {
    await seed(sb);
    // Best of two each: one process is one sample on a shared machine.
    const warm = Math.min(firstAddCpu(sb, "warm"), firstAddCpu(sb, "warm"));
    const cold = Math.min(firstAddCpu(sb, "cold"), firstAddCpu(sb, "cold"));
    assert.ok(warm * 2 < cold, `first add after warm() ${(warm / 1000).toFixed(1)} ms CPU vs cold ${(cold / 1000).toFixed(1)} ms`);
  } finally {
    removeSandbox(sb);
  }
});

/** The collections V8 ran in a fresh warmed process: the last one during warm(), and the major ones during its first three adds. */
function warmCollections(sb: Sandbox): { lastInWarm: { major: boolean; forced: boolean } | null; majorsInFirstAdds: number; gcGlobal: string } {
  const args = ["--import", "tsx", path.join(WORKERS_DIR, "warm-gc-worker.ts"), sb.projectDir, sb.hivePath, String(++runs * 7919)];
  const out = execFileSync(process.execPath, args, { env: sb.env, encoding: "utf8" });
  const line = out.split("\n").find((l) => l.startsWith("RESULT "));
  assert.ok(line, out);
  const r = JSON.parse(line.slice(7)) as { actions: string[]; lastInWarm: { major: boolean; forced: boolean } | null; majorsInFirstAdds: number; gcGlobal: string };
  assert.deepEqual(r.actions, ["added", "added", "added"]);
  return r;
}

test("regression 16.2: warm() collects its own garbage before it returns, so no major collection lands in the first adds", async () => {
  const sb = makeSandbox();
  try {
    await seed(sb);
    // On the bench's 10k corpus warm() left V8 part way through marking ~15 MB of its garbage, and the
    // Mark-Compact that ended it (90–200 ms under load) fell in 2 of 6 first adds. Whether V8 is
    // marking when warm() returns depends on the heap, so the check is on what warm() does: its last
    // collection is a full one it asked for, after its own calls; the adds then run none.
    const r = warmCollections(sb);
    assert.deepEqual(r.lastInWarm, { major: true, forced: true }, "warm() ended with a full collection it asked for");
    assert.equal(r.majorsInFirstAdds, 0, "no major collection in the first three adds");
    assert.equal(r.gcGlobal, "undefined", "no gc() left on the global object");
  } finally {
    removeSandbox(sb);
  }
});

/** The WAL header's checkpoint sequence and salts: they change exactly when the log is started over. */
const walGeneration = (file: string): string => fs.readFileSync(`${file}-wal`).subarray(12, 24).toString("hex");

/** Words only (the default) and with the built-in model on, whose adds also store a vector. */
for (const provider of ["none", "builtin"] as const) test(`regression 16.2: after warm(), the first add and the first inject prepare no statement and do not start the WAL (embedding.provider ${provider})`, async () => {
  const sb = makeSandbox();
  try {
    await seed(sb);
    const before = snapshot(sb);
    const c = await openCairn({ projectDir: sb.projectDir, hivePath: sb.hivePath, env: sb.env, actor: "agent:test", config: { embedding: { provider } } });
    try {
      const s = (c as unknown as { services: { swarm: { driver: SqliteDriver }; hive: { driver: SqliteDriver } } }).services;
      const drivers = [s.swarm.driver, s.hive.driver];
      await c.warm();
      assert.deepEqual(drivers.map((d) => d.rehearsals), [1, 1], "each tier rehearsed its writes");
      assert.equal(snapshot(sb), before, "the rehearsal changed no data");
      const statements = drivers.map((d) => d.statementCount);
      const generation = walGeneration(drivers[0]!.file);
      // Compiling the insert, the usage count and their triggers, and starting the WAL (a header
      // write and sync), were paid by the first add and the first inject of the process.
      const added = await c.add({ lesson: "The kafka consumer in src/kafka/consumer.ts must commit offsets only after the batch is stored.", category: "tooling", kind: "learning", tags: ["kafka"] });
      assert.equal(added.action, "added");
      assert.equal(walGeneration(drivers[0]!.file), generation, "the first add appended to the WAL the warm-up started");
      const shown = await c.inject({ task: "retry the prisma step with a backoff", files: ["src/prisma/job1.ts"] });
      assert.ok(shown.entries.length > 0, "the inject counted entries as shown");
      assert.deepEqual(drivers.map((d) => d.statementCount), statements, "no statement was prepared by the first add or inject");
    } finally {
      await c.close();
    }
  } finally {
    removeSandbox(sb);
  }
});

/** The optimising compiles (started or finished) that V8 traced during a fresh process's first add, and the modules it loaded. */
function firstAddWork(sb: Sandbox, mode: "warm" | "cold", text: "ascii" | "unicode"): { compiles: string[]; modulesLoaded: string[] } {
  const args = ["--allow-natives-syntax", "--trace-opt", "--import", "tsx", path.join(WORKERS_DIR, "first-add-compiles-worker.ts"), sb.projectDir, sb.hivePath, mode, String(++runs * 7919), text];
  const out = execFileSync(process.execPath, args, { env: sb.env, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  const result = out.split("\n").find((l) => l.startsWith("RESULT "));
  assert.ok(result, out.slice(-2000));
  const { action, modulesLoaded } = JSON.parse(result.slice(7)) as { action: string; modulesLoaded: string[] };
  assert.equal(action, "added");
  const lines = out.split("\n");
  const start = lines.findIndex((l) => l.includes("#CAIRN-FIRST-ADD-START"));
  const end = lines.findIndex((l) => l.includes("#CAIRN-FIRST-ADD-END"));
  assert.ok(start >= 0 && end > start, "both markers printed");
  const compiles = lines.slice(start, end).filter((l) => /compiling method|completed compiling/.test(l)).map((l) => /<JSFunction (?:([^ >(]+) )?\(sfi/.exec(l)?.[1] ?? "(anonymous)");
  return { compiles, modulesLoaded: modulesLoaded.map((m) => path.relative(REPO_ROOT, m)) };
}

test("regression 16.2: after warm(), the first add starts and finishes no optimising compile and loads no module", async () => {
  const sb = makeSandbox();
  try {
    await seed(sb);
    // Background compiles took the core from the first add (×1.5 to ×4 of the p50 by process); once
    // warm() has made the add path hot and waited for its compiles, that add compiles nothing.
    // A process is one sample on a shared machine (warm() waits at most 200 ms for the compiler to go
    // idle): one clean run of up to three proves the path; before the fix every run compiled.
    const seen: string[][] = [];
    while (seen.length < 3 && (seen.length === 0 || seen.at(-1)!.length > 0)) seen.push(firstAddWork(sb, "warm", "ascii").compiles);
    assert.deepEqual(seen.at(-1), [], `compiles during the first add, by run: ${JSON.stringify(seen)}`);
    // warm() had gated ASCII text only: the first lesson with a dash or an accent loaded the injection
    // check's look-alike table (~12 ms). (Its text reaches a few small functions the warm-up uses less:
    // their compiles, under 1 ms on a background thread, are not counted here.)
    assert.deepEqual(firstAddWork(sb, "warm", "unicode").modulesLoaded, []);
    const cold = firstAddWork(sb, "cold", "unicode");
    assert.ok(cold.compiles.length > 0 && cold.modulesLoaded.length > 0, "a cold process's first add compiles and loads (the checks can fail)");
  } finally {
    removeSandbox(sb);
  }
});
