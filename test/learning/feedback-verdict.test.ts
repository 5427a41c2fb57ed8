// The library's feedback call takes only the five verdicts, as the CLI and MCP faces do.
import { test } from "node:test";
import assert from "node:assert/strict";
import type { Verdict } from "../../src/index.js";
import { withWorld } from "./helpers.js";

test("regression: Cairn.feedback refuses a verdict that is not one of the five, records nothing, and names the five", async () => {
  await withWorld(async ({ cairn }) => {
    const r = await cairn.add({ lesson: "Validate the session token before reading the user id from the request context.", category: "security" });
    const before = await cairn.history(r.id!);
    for (const bad of ["HELPFUL", "Harmful", "shown", "constructor", "__proto__", ""]) {
      await assert.rejects(cairn.feedback(r.id!, bad as Verdict), (e: Error & { code?: string }) => {
        assert.equal(e.code, "INVALID_INPUT", `${JSON.stringify(bad)}: ${e.message}`);
        assert.match(e.message, /applied, ignored, violated, helpful or harmful/);
        return true;
      }, `${JSON.stringify(bad)} was accepted as a verdict`);
    }
    const [e] = await cairn.list();
    assert.equal(e!.usage.shown, 0, "a 'shown' verdict counted a showing that never happened");
    assert.equal((await cairn.history(r.id!)).length, before.length, "a refused verdict left an event");
    // The five still work.
    assert.equal((await cairn.feedback(r.id!, "helpful")).usage.helpful, 1);
  });
});
