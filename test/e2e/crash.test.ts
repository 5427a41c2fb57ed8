// kill -9 in the middle of a 10,000-row import: the database opens intact with exactly the committed rows.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { openCairn } from "../../src/index.js";
import { distinctLesson } from "../fixtures/workers/lessons.js";
import { makeSandbox, openReadOnly, removeSandbox, runWorker } from "../fixtures/workers/sandbox.js";

const ROWS = 10_000;
const KILL_AFTER = 500;

function writeSwarmToolsFile(file: string): void {
  const base = Date.parse("2025-06-01T00:00:00Z");
  const lines: string[] = [];
  for (let i = 0; i < ROWS; i++) {
    lines.push(
      JSON.stringify({
        id: `mem-${i}`,
        information: distinctLesson(7 + (i % 5), i),
        created_at: String(base + i * 60_000),
        tags: `crash-test,batch-${i % 17}`,
      }),
    );
  }
  fs.writeFileSync(file, lines.join("\n") + "\n");
}

function countRows(dbFile: string): { rows: number; counter: number } {
  const db = openReadOnly(dbFile);
  try {
    const rows = (db.prepare("SELECT count(*) AS n FROM entries").get([]) as { n: number }).n;
    const counter = (db.prepare("SELECT value FROM meta WHERE key = 'entry_count'").get([]) as { value: number }).value;
    return { rows, counter };
  } finally {
    db.close();
  }
}

test("kill -9 during a trusted 10,000-row import leaves an intact database holding exactly the committed rows", async (t) => {
  const sb = makeSandbox();
  try {
    const file = path.join(sb.root, "memories.jsonl");
    writeSwarmToolsFile(file);
    const dbFile = path.join(sb.projectDir, ".swarm", "cairn.db");

    const run = runWorker("import-worker.ts", [sb.projectDir, sb.hivePath, file], sb.env);
    await run.waitForLine(/^OPEN$/);
    let seen = 0;
    // Gives up only when the import stops making progress for two minutes; a busy machine is slow, not stuck.
    let movedAt = Date.now();
    while (Date.now() - movedAt < 120_000) {
      if (run.stdoutLines().some((l) => l.startsWith("DONE"))) break;
      const rows = countRows(dbFile).rows;
      if (rows > seen) [seen, movedAt] = [rows, Date.now()];
      if (seen > KILL_AFTER) break;
      await sleep(10);
    }
    assert.ok(seen > KILL_AFTER, `the import never committed more than ${KILL_AFTER} rows before finishing (saw ${seen})`);
    run.child.kill("SIGKILL");
    const exit = await run.done;
    assert.equal(exit.signal, "SIGKILL", "the import was still running when killed");
    assert.ok(!exit.stdout.includes("DONE"), "the import had not finished");
    const progress = exit.stdout.split("\n").filter((l) => l.startsWith("PROGRESS ")).map((l) => Number(l.split(" ")[1]));
    const lastProgress = progress.length ? Math.max(...progress) : 0;

    // Before any engine touches it: what a plain reader sees is what was committed.
    const before = countRows(dbFile);
    assert.ok(before.rows >= seen, `rows observed before the kill (${seen}) are still there (${before.rows})`);
    assert.ok(before.rows < ROWS, "the kill landed mid-import");
    // onProgress(n) fires after the batch holding record n commits, so records 1..n were acknowledged.
    assert.ok(before.rows >= lastProgress, `acknowledged progress ${lastProgress} but only ${before.rows} rows`);
    assert.equal(before.counter, before.rows, "the row counter moved in the same transactions as the rows");

    const cairn = await openCairn({ projectDir: sb.projectDir, hivePath: sb.hivePath, env: sb.env });
    try {
      const [swarm] = await cairn.doctor();
      assert.equal(swarm!.integrity, "ok");
      assert.equal(swarm!.entries, before.rows);
      const listed = await cairn.list({ tier: "swarm", limit: ROWS + 10 });
      assert.equal(listed.length, before.rows, "every committed entry parses and lists");
      t.diagnostic(`killed after ${seen} rows seen; committed ${before.rows} of ${ROWS}; integrity ${swarm!.integrity}; rows after reopen ${swarm!.entries}`);
      for (const e of listed) {
        assert.match(e.provenance.external_id ?? "", /^mem-\d+$/);
        assert.ok(e.lesson.length > 0);
      }
    } finally {
      await cairn.close();
    }
    // Opening, checking and listing changed nothing: the count is stable across connections.
    assert.deepEqual(countRows(dbFile), before);
  } finally {
    removeSandbox(sb);
  }
});
