// `/swarm knowledge` lists a promoted lesson once: the hive copy, saying which of this project's lessons it came from.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { loadPlugin } from "./helpers.js";

const p = await loadPlugin();
after(() => p.close());
// /swarm is answered only once the config hook registered it.
await p.hook("config")({});

const PROMOTED = "Run the database migrations inside one transaction so a failed step leaves the schema unchanged.";
const LOCAL = "Seed the currency table before the invoice tests or every total rounds to zero.";

async function answer(args: string): Promise<string> {
  const out = { parts: [{ type: "text", text: "template" }] as never[] };
  await p.hook("command.execute.before")({ command: "swarm", sessionID: "ses_1", arguments: args }, out);
  return (out.parts[0] as unknown as { text: string }).text;
}

test("a promoted lesson is one line (the hive copy, naming its project original); an unpromoted one is listed as before", async () => {
  const cairn = await p.cairn();
  const added = await cairn.add({ lesson: PROMOTED, category: "architecture" });
  assert.equal(added.action, "added", added.reason);
  const local = await cairn.add({ lesson: LOCAL, category: "testing" });
  assert.equal(local.action, "added", local.reason);
  const promoted = await cairn.promote({ id: added.id! });
  assert.equal(promoted.action, "added", promoted.reason);

  const text = await answer("knowledge");
  const lines = text.split("\n").filter((l) => l.startsWith("- "));
  const about = lines.filter((l) => l.includes("database migrations inside one transaction"));
  assert.equal(about.length, 1, text);
  assert.ok(about[0]!.includes(`[${promoted.handle}]`), text);
  assert.ok(about[0]!.includes(added.handle!), `the hive line names the project original:\n${text}`);
  assert.equal(lines.filter((l) => l.includes(`[${local.handle}]`)).length, 1, text);
});
