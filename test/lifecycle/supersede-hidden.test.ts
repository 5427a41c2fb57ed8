// A lesson a person quarantined or archived is refused to an agent's supersede on the CLI (--actor, CAIRN_ACTOR) as on MCP.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { sandbox } from "../helpers/cli.js";

const sb = sandbox();
after(() => sb.cleanup());

const OLD = "In src/db/pool.ts release every client in a finally block; a leaked client exhausted the pool under load.";
const NEW = "In src/db/pool.ts use pool.query() for one-off statements so clients are always released; a leak exhausted the pool.";

test("cli: an agent's `supersede` or `add --supersedes` of a lesson a person quarantined or archived exits FORBIDDEN and changes nothing", async () => {
  const p = sb.project("hidden");
  const q = await sb.json(p, "add", OLD);
  const a = await sb.json(p, "add", "Run the e2e suite in packages/web with --workers=1; parallel runs share one browser profile and flake.");
  assert.equal((await sb.run(p, "quarantine", q.body.handle, "wrong after the pool rewrite")).code, 0);
  assert.equal((await sb.run(p, "archive", a.body.handle, "the suite moved")).code, 0);
  const agentEnv = { ...sb.env, CAIRN_ACTOR: "agent:coder" };
  for (const old of [q.body.handle, a.body.handle]) {
    const tries = [
      await sb.run(p, "supersede", old, NEW, "--actor", "agent:coder", "--json"),
      await sb.raw(["--json", "--project", p, "add", NEW, "--supersedes", old], { env: agentEnv }),
    ];
    for (const r of tries) {
      assert.notEqual(r.code, 0, r.stdout);
      const err = JSON.parse(r.stdout).error;
      assert.equal(err.code, "FORBIDDEN", r.stdout);
      assert.match(err.message, new RegExp(`${old} was (quarantined|archived by a person).*only a person can supersede it`));
    }
  }
  const shown = async (h: string) => (await sb.json(p, "show", h)).body.entry.lifecycle.status;
  assert.equal(await shown(q.body.handle), "quarantined");
  assert.equal(await shown(a.body.handle), "archived");
  const listed = await sb.json(p, "list", "--status", "all");
  assert.ok(!JSON.stringify(listed.body).includes("pool.query()"), "no replacement was stored");
  // A person may.
  const person = await sb.json(p, "supersede", q.body.handle, NEW);
  assert.equal(person.code, 0, person.stderr);
});
