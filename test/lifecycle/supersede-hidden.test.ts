// A lesson a person quarantined or archived is refused to an agent's supersede on the CLI (--actor, CAIRN_ACTOR) as on MCP.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { sandbox } from "../helpers/cli.js";

const sb = sandbox();
after(() => sb.cleanup());

const OLD = "In src/db/pool.ts release every client in a finally block; a leaked client exhausted the pool under load.";
const NEW = "In src/db/pool.ts use pool.query() for one-off statements so clients are always released; a leak exhausted the pool.";

test("cli: an agent's `supersede` or `add --supersedes` of a lesson a person quarantined (no entry, as `show` answers an agent) or archived (only a person) is refused and changes nothing", async () => {
  const p = sb.project("hidden");
  const q = await sb.json(p, "add", OLD);
  const a = await sb.json(p, "add", "Run the e2e suite in packages/web with --workers=1; parallel runs share one browser profile and flake.");
  assert.equal((await sb.run(p, "quarantine", q.body.handle, "wrong after the pool rewrite")).code, 0);
  assert.equal((await sb.run(p, "archive", a.body.handle, "the suite moved")).code, 0);
  const agentEnv = { ...sb.env, CAIRN_ACTOR: "agent:coder" };
  // Quarantined: hidden from every agent, so it is answered as missing, exactly as `show` answers.
  const showQ = await sb.run(p, "show", q.body.handle, "--actor", "agent:coder", "--json");
  const supQ = await sb.run(p, "supersede", q.body.handle, NEW, "--actor", "agent:coder", "--json");
  assert.equal(supQ.code, showQ.code, supQ.stdout);
  assert.deepEqual(JSON.parse(supQ.stdout).error, JSON.parse(showQ.stdout).error);
  const addQ = await sb.raw(["--json", "--project", p, "add", NEW, "--supersedes", q.body.handle], { env: agentEnv });
  assert.equal(addQ.code, 2, addQ.stdout);
  assert.match(JSON.parse(addQ.stdout).reason, /supersedes: no entry/);
  // Archived by a person: visible, and refused with what the agent can do instead.
  const supA = await sb.run(p, "supersede", a.body.handle, NEW, "--actor", "agent:coder", "--json");
  assert.equal(JSON.parse(supA.stdout).error.code, "FORBIDDEN", supA.stdout);
  assert.match(JSON.parse(supA.stdout).error.message, new RegExp(`${a.body.handle} was archived by a person.*only a person can supersede it`));
  const addA = await sb.raw(["--json", "--project", p, "add", NEW, "--supersedes", a.body.handle], { env: agentEnv });
  assert.equal(addA.code, 2, addA.stdout);
  assert.match(JSON.parse(addA.stdout).reason, /archived by a person; only a person can supersede it.*without supersedes/);
  const shown = async (h: string) => (await sb.json(p, "show", h)).body.entry.lifecycle.status;
  assert.equal(await shown(q.body.handle), "quarantined");
  assert.equal(await shown(a.body.handle), "archived");
  const listed = await sb.json(p, "list", "--status", "all");
  assert.ok(!JSON.stringify(listed.body).includes("pool.query()"), "no replacement was stored");
  // A person may.
  const person = await sb.json(p, "supersede", q.body.handle, NEW);
  assert.equal(person.code, 0, person.stderr);
});
