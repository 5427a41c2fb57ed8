// Injection, recall and the advisory check run as calls that upkeep (the idle checkpoint, the usage replay) waits for.
import { test } from "node:test";
import assert from "node:assert/strict";
import { callsInFlight } from "../../src/store/between-calls.js";
import type { Services } from "../../src/services.js";
import { withCairn } from "../helpers/engine.js";

test("inject, recall and checkAdvisories are calls in flight while they read the tiers, and none is left in flight after", async () => {
  await withCairn(async (cairn) => {
    await cairn.add({ lesson: "Run prisma migrate deploy before the container starts, or the api boots on an old schema", category: "tooling" });
    const s = (cairn as unknown as { services: Services }).services;
    const seen: number[] = [];
    const search = s.swarm.searchEntries.bind(s.swarm);
    s.swarm.searchEntries = (...a) => (seen.push(callsInFlight()), search(...a));
    const rulesVersion = s.swarm.rulesVersion.bind(s.swarm);
    s.swarm.rulesVersion = () => (seen.push(callsInFlight()), rulesVersion());

    await cairn.inject({ task: "deploy the api container with prisma migrations" });
    await cairn.recall("prisma migrate deploy");
    await cairn.checkAdvisories({ files: ["prisma/schema.prisma"] });
    assert.ok(seen.length >= 3, `each call read a tier (${seen.length})`);
    assert.ok(seen.every((n) => n === 1), `every read happened inside its call: ${seen.join(",")}`);
    assert.equal(callsInFlight(), 0);

    // A call that fails still ends.
    s.swarm.searchEntries = () => Promise.reject(new Error("disk gone"));
    await cairn.recall("prisma").catch(() => undefined);
    assert.equal(callsInFlight(), 0);
  });
});
