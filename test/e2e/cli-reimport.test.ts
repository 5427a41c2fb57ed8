// Seed 000 ("dedup bypassed"), seed 001 (migration is idempotent): importing the same opencode-swarm file again adds nothing, archived rows included.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { sandbox } from "../helpers/cli.js";

const sb = sandbox();
after(() => sb.cleanup());

const row = (id: string, lesson: string, status: string) =>
  JSON.stringify({ id, tier: "swarm", lesson, category: "pattern", tags: ["node"], scope: "global", confidence: 0.9, status, confirmed_by: [], retrieval_outcomes: [], phases_alive: 1, max_phases: 10 });

test("importing the same opencode-swarm knowledge.jsonl twice stores each row once: an archived row is not added a second time", async () => {
  const project = sb.project("reimport");
  const file = path.join(project, "knowledge.jsonl");
  fs.writeFileSync(file, [
    row("lesson-1", "Pin the Node major version in .nvmrc and in the CI image together so builds match.", "archived"),
    row("lesson-2", "Run prisma generate after editing prisma/schema.prisma or the generated client is stale.", "active"),
  ].join("\n") + "\n");
  const first = await sb.json(project, "import", file);
  assert.equal(first.body.imported, 2, first.stdout);
  const again = await sb.json(project, "import", file);
  assert.equal(again.code, 0, again.stderr);
  assert.equal(again.body.imported, 0, `nothing new on a second import: ${again.stdout}`);
  const all = await sb.json<Array<{ lesson: string; lifecycle: { status: string } }>>(project, "list", "--status", "archived,candidate,established,promoted,quarantined,superseded,draft");
  const pinned = all.body.filter((e) => e.lesson.startsWith("Pin the Node major version"));
  assert.equal(pinned.length, 1, `one archived entry, not one per import: ${JSON.stringify(all.body)}`);
  assert.equal(pinned[0]!.lifecycle.status, "archived");
  assert.equal(all.body.length, 2);
});
