// A phase swept twice in a row ages its lessons once; a different phase in between lets the same title age again.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { withCairn } from "../helpers/engine.js";
import { sandbox } from "../helpers/cli.js";

const LESSON = "Seed the currency table before the invoice tests or every total rounds to zero.";

test("engine: the same phase swept twice in a row ages once, and says the repeat was skipped", async () => {
  await withCairn(async (c) => {
    const added = await c.add({ lesson: LESSON, category: "testing" });
    assert.equal(added.action, "added", added.reason);
    const first = await c.sweep({ phase: "Phase 1" });
    assert.equal(first.find((r) => r.tier === "swarm")!.aged, 1);
    const again = await c.sweep({ phase: "Phase 1" });
    const swarm = again.find((r) => r.tier === "swarm")!;
    assert.equal(swarm.aged, 0);
    assert.match(swarm.skipped ?? "", /Phase 1/);
    assert.equal((await c.get(added.id!)).lifecycle.phases_alive, 1);
    // Phase completion shares the guard: the plugin and the CLI cannot age one phase twice between them.
    const viaPhase = await c.completePhase("Phase 1");
    assert.ok(viaPhase.sweep.every((r) => r.skipped), JSON.stringify(viaPhase));
    assert.equal((await c.get(added.id!)).lifecycle.phases_alive, 1);
    // A later plan's "Phase 1" ages again once another phase came between.
    await c.sweep({ phase: "Phase 2" });
    await c.sweep({ phase: "Phase 1" });
    assert.equal((await c.get(added.id!)).lifecycle.phases_alive, 3);
  });
});

const sb = sandbox();
after(() => sb.cleanup());

test("cli: `cairn sweep --phase` run twice says the second run skipped, in text and --json", async () => {
  const p = sb.project("sweep-twice");
  const added = await sb.json(p, "add", LESSON, "--category", "testing");
  assert.equal(added.body.action, "added", added.stderr);
  const first = await sb.run(p, "sweep", "--phase", "Phase 1");
  assert.equal(first.code, 0, first.stderr);
  assert.match(first.stdout, /swarm: aged 1/);
  const second = await sb.run(p, "sweep", "--phase", "Phase 1");
  assert.equal(second.code, 0, second.stderr);
  assert.match(second.stdout + second.stderr, /already swept/i);
  assert.doesNotMatch(second.stdout, /aged 1/);
  const json = await sb.json(p, "sweep", "--phase", "Phase 1");
  const swarm = json.body.sweep.find((r: { tier: string }) => r.tier === "swarm");
  assert.equal(swarm.aged, 0);
  assert.match(swarm.skipped, /Phase 1/);
  const shown = await sb.json(p, "show", added.body.handle);
  assert.equal(shown.body.lifecycle?.phases_alive ?? shown.body.entry?.lifecycle?.phases_alive, 1, JSON.stringify(shown.body).slice(0, 400));
});
