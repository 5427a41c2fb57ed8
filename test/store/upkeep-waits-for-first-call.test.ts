// Upkeep that falls due while a process's first injection or advisory check is still loading its code waits for that call's answer, as it waits for any call in flight.
import { test } from "node:test";
import assert from "node:assert/strict";
import { betweenCalls } from "../../src/store/between-calls.js";
import { withCairn } from "../helpers/engine.js";

const turn = () => new Promise((r) => setImmediate(r));

/*
 * Each call here is the first of its kind in this process (this file runs alone), so its module is
 * loaded inside the call: file reads that leave the event loop free for a due timer. An idle FTS merge
 * step landing there committed inside an injection (test/store/deferred-usage.test.ts saw 4 commits
 * where 3 were expected on a busy machine).
 */
// The advisory check first: the injection's code brings the advisory module with it.
test("upkeep due while the first advisory check loads its code runs after the answer", async () => {
  await withCairn(async (cairn) => {
    const ran: string[] = [];
    setImmediate(() => betweenCalls(() => ran.push("upkeep")));
    await cairn.checkAdvisories({ files: ["src/db/migrate.ts"] });
    ran.push("answer");
    await turn();
    await turn();
    assert.deepEqual(ran, ["answer", "upkeep"]);
  });
});

test("upkeep due while the first injection loads its code runs after the answer", async () => {
  await withCairn(async (cairn) => {
    await cairn.add({ lesson: "Prisma interactive transactions time out after five seconds; batch the import writes into chunks.", category: "tooling" });
    const ran: string[] = [];
    setImmediate(() => betweenCalls(() => ran.push("upkeep")));
    await cairn.inject({ task: "speed up the nightly prisma import job" });
    ran.push("answer");
    await turn();
    await turn();
    assert.deepEqual(ran, ["answer", "upkeep"]);
  });
});
