// The CLI under CAIRN_ACTOR (set by the OpenCode plugin for an agent's shell): writes are the agent's, and it cannot act as a person.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { sandbox, type CliResult } from "../helpers/cli.js";

const sb = sandbox();
after(() => sb.cleanup());
const project = sb.project("actor");
const agentEnv = { ...sb.env, CAIRN_ACTOR: "agent:coder" };

/** `cairn --project <p> …args --json` with extra environment, stdout parsed. */
async function json(env: NodeJS.ProcessEnv, ...args: string[]): Promise<CliResult & { body: any }> {
  const r = await sb.raw(["--project", project, ...args, "--json"], { env });
  return { ...r, body: JSON.parse(r.stdout) };
}

test("an agent's CAIRN_ACTOR attributes writes, and approve/reject/review are refused even with --actor human:*", async () => {
  assert.equal((await sb.run(project, "init")).code, 0);
  const added = await json(agentEnv, "add", "Run the migration dry run before applying schema changes to the staging database.");
  assert.equal(added.code, 0, added.stderr);
  const id = added.body.id as string;
  assert.equal((await json(sb.env, "show", id)).body.entry.provenance.created_by, "agent:coder", "the default actor is CAIRN_ACTOR");

  for (const args of [["approve", id], ["approve", id, "--actor", "human:alice"], ["reject", id, "--actor", "human:alice"], ["review", "--actor", "human:alice"], ["review"]]) {
    const r = await json(agentEnv, ...args);
    assert.equal(r.code, 1, `${args.join(" ")}: ${r.stdout}`);
    assert.equal(r.body.error.code, "FORBIDDEN", args.join(" "));
  }
  const claimed = await json(agentEnv, "approve", id, "--actor", "human:alice");
  assert.match(claimed.body.error.message, /CAIRN_ACTOR=agent:coder .*cannot act as a person/);
  assert.equal((await json(sb.env, "show", id)).body.entry.lifecycle.status, "candidate", "nothing was approved");

  // An agent may still name another non-human actor; a malformed CAIRN_ACTOR is a usage error.
  assert.equal((await json(agentEnv, "add", "Pin the Node version in .nvmrc so CI and laptops build with the same runtime.", "--actor", "agent:reviewer")).code, 0);
  assert.equal((await json({ ...sb.env, CAIRN_ACTOR: "root" }, "list")).code, 2);

  // A person (no CAIRN_ACTOR, or a human one) approves as before.
  const ok = await json(sb.env, "approve", id, "--actor", "human:alice");
  assert.equal(ok.code, 0, ok.stdout);
  assert.equal(ok.body.approved[0].approved_by, "human:alice");
});
