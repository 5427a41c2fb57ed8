// Audit finding 3 on the edit path: a person's edit (web editor, review, Markdown mirror) may not turn a lesson into a second copy of another.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { withCairn } from "../helpers/engine.js";
import { sandbox } from "../helpers/cli.js";

const MIGRATIONS = "Run the database migrations before starting the integration test suite, otherwise fixtures fail to load.";
const PARAPHRASE = "Run database migrations before you start the integration tests, otherwise fixtures fail to load.";
const WEBHOOK = "Rotate the webhook signing secret through the vault API, then redeploy the three consumers.";
const rejected = (re: RegExp) => (e: Error & { code?: string }) => e.code === "REJECTED" && re.test(e.message);

test("regression: an edit whose new wording repeats another live lesson (exactly or near) is refused, naming it; nothing is saved", async () => {
  await withCairn(async (c) => {
    const a = await c.add({ lesson: MIGRATIONS, category: "testing" });
    const b = await c.add({ lesson: WEBHOOK, category: "security" });
    for (const text of [PARAPHRASE, MIGRATIONS]) {
      await assert.rejects(c.edit(b.id!, { lesson: text }, "human:alice", "web"), rejected(new RegExp(`${a.handle}\\b`)));
      assert.equal((await c.get(b.id!)).lesson, WEBHOOK, "the refused edit wrote nothing");
    }
    const block = await c.inject({ task: "run the integration tests after the database migrations" });
    assert.deepEqual(block.entries.map((e) => e.id), [a.id], "one lesson, shown once");
    // Near miss: a rewording of its own text, or another lesson that shares words but not the advice, is saved.
    const own = await c.edit(a.id!, { lesson: PARAPHRASE }, "human:alice", "web");
    assert.deepEqual(own.changed, ["lesson"]);
    const other = await c.edit(b.id!, { lesson: "Rotate the webhook signing secret through the vault API before the integration tests, then redeploy the consumers." }, "human:alice", "web");
    assert.deepEqual(other.changed, ["lesson"]);
    // Fields other than the wording stay editable on a pair stored before this check existed.
    const tags = await c.edit(b.id!, { tags: ["webhooks"] }, "human:alice", "web");
    assert.deepEqual(tags.changed, ["tags"]);
  });
});

const sb = sandbox();
after(() => sb.cleanup());

test("regression: cairn mirror --pull of a file edited into a copy of another lesson reports the file and leaves the database as it was", async () => {
  const p = sb.project("mirror-dup");
  const a = (await sb.json(p, "add", MIGRATIONS)).body;
  const b = (await sb.json(p, "add", WEBHOOK)).body;
  assert.equal((await sb.json(p, "mirror")).body.written, 2);
  const dir = path.join(p, ".swarm", "knowledge", "candidates");
  const file = path.join(dir, fs.readdirSync(dir).find((f) => f.startsWith(`${b.handle}-`))!);
  fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace(`\n${WEBHOOK}\n`, `\n${PARAPHRASE}\n`));
  const pulled = await sb.json(p, "mirror", "--pull");
  assert.notEqual(pulled.code, 0);
  assert.deepEqual(pulled.body.applied, []);
  assert.equal(pulled.body.errors.length, 1, JSON.stringify(pulled.body));
  assert.match(pulled.body.errors[0].message, new RegExp(`${a.handle}\\b`));
  const listed = (await sb.json(p, "list")).body as Array<{ lesson: string }> | { entries: Array<{ lesson: string }> };
  const lessons = (Array.isArray(listed) ? listed : listed.entries).map((e) => e.lesson).sort();
  assert.deepEqual(lessons, [MIGRATIONS, WEBHOOK].sort());
});
