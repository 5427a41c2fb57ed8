// Seed audit (003 Memory Lane, 004 Knowledge Objects) from outside: the built CLI in a throwaway home.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { sandbox } from "../helpers/cli.js";

const sb = sandbox();
after(() => sb.cleanup());

test("feedback counts read as counts: two helpful verdicts a moment apart show as 2, not 1.99999993…", async () => {
  // Seed 003 §6.4: verdicts decay with a 90-day half-life; a few milliseconds of decay is no reason to print 16 digits.
  const p = sb.project("feedback-numbers");
  const added = await sb.json(p, "add", "Run prisma generate after editing schema.prisma or the generated client is stale", "--category", "tooling");
  assert.equal(added.body.action, "added", added.stderr);
  for (const v of ["helpful", "helpful", "harmful"]) assert.equal((await sb.run(p, "feedback", added.body.handle, v)).code, 0);
  const shown = await sb.run(p, "show", added.body.handle);
  assert.match(shown.stdout, /helpful 2, harmful 1\b/, shown.stdout);
  const json = await sb.json(p, "show", added.body.handle);
  const usage = json.body.entry?.usage ?? json.body.usage;
  assert.equal(usage.helpful, 2, JSON.stringify(usage));
  assert.equal(usage.harmful, 1);
});
