// `--actor human:José`: the CLI takes the names the web sign-in takes (any alphabet, NFC), and refuses the same look-alikes, saying why.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { sandbox } from "../helpers/cli.js";

const sb = sandbox();
after(() => sb.cleanup());

const LESSON = "Pin the Node version in .nvmrc so CI and laptops build with the same runtime and lockfile behaviour";

test("--actor human:José records José (NFC, however it was typed); a look-alike or an unknown character is refused naming the problem", async () => {
  const p = sb.project("actors");
  const added = await sb.json(p, "add", LESSON, "--actor", "human:Jose\u0301");
  assert.equal(added.code, 0, added.stdout);
  const shown = await sb.json(p, "show", added.body.id);
  assert.equal(shown.body.entry.provenance.created_by, "human:José");

  const mixed = await sb.json(p, "list", "--actor", "human:al\u0456ce");
  assert.equal(mixed.code, 2, mixed.stdout);
  assert.match(mixed.body.error.message, /mixes Latin and Cyrillic letters/);
  const bad = await sb.json(p, "list", "--actor", "human:bob/../x");
  assert.equal(bad.code, 2, bad.stdout);
  assert.match(bad.body.error.message, /letters of any alphabet, digits, _ \. -/);
  assert.match(bad.body.error.message, /\//, "names the character at fault");
  // The kind of actor is still one of the five.
  const kind = await sb.json(p, "list", "--actor", "robot:x");
  assert.equal(kind.code, 2);
  assert.match(kind.body.error.message, /<human\|agent\|import\|curator\|mcp>:<name>/);
});
