// The README's row-level security recipe, applied as written: an agent's database login can learn and count, but not approve or delete.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import { randomBytes } from "node:crypto";
import { EntrySchema } from "../../src/core/entry.js";
import { newEntryId } from "../../src/core/ids.js";
import { PostgresStore } from "../../src/store/pg/pg-store.js";
import { adminQuery, dropSchema, pgTestOptions, pgTestUrl, uniqueSchema } from "../helpers/pg.js";

function recipe(): string {
  const readme = fs.readFileSync(new URL("../../README.md", import.meta.url), "utf8");
  const m = /<!-- hive-rls:start -->\s*```sql\n([\s\S]*?)```\s*<!-- hive-rls:end -->/.exec(readme);
  assert.ok(m, "the README carries the recipe between its markers");
  return m[1]!;
}

function loginUrl(url: string, user: string): string {
  const u = new URL(url);
  u.username = user;
  u.password = "";
  return u.toString();
}

test("the README's row-level security recipe keeps agents from approving and deleting, and lets people do both", { ...pgTestOptions(), timeout: 120_000 }, async () => {
  const url = pgTestUrl()!;
  const schema = uniqueSchema("rls");
  const tag = randomBytes(4).toString("hex");
  const agents = `cairn_t_agents_${tag}`;
  const people = `cairn_t_people_${tag}`;
  const agentLogin = `cairn_t_agent_${tag}`;
  const personLogin = `cairn_t_person_${tag}`;
  const owner = new PostgresStore({ url, schema }, "hive");
  const stores: PostgresStore[] = [owner];
  try {
    await owner.schemaVersion();
    const sql = recipe()
      .replaceAll("cairn_agents", agents)
      .replaceAll("cairn_people", people)
      .replaceAll("SCHEMA cairn ", `SCHEMA "${schema}" `)
      .replaceAll("cairn.", `"${schema}".`);
    await owner.db.exec(sql);
    await adminQuery(url, `CREATE ROLE ${agentLogin} LOGIN IN ROLE ${agents}`);
    await adminQuery(url, `CREATE ROLE ${personLogin} LOGIN IN ROLE ${people}`);

    const agent = new PostgresStore({ url: loginUrl(url, agentLogin), schema }, "hive");
    const person = new PostgresStore({ url: loginUrl(url, personLogin), schema }, "hive");
    stores.push(agent, person);
    const at = new Date().toISOString();
    const e = await agent.insertEntry(
      EntrySchema.parse({ id: newEntryId(), handle: "", tier: "hive", lesson: "Drain the queue before scaling the workers down.", category: "process", kind: "learning", created_at: at, updated_at: at }),
      { type: "created", actor: "agent:coder" },
    );
    await agent.recordUsage([e.id], "shown", "agent:coder");
    await agent.updateEntry(e.id, (x) => ({ ...x, tags: ["ops"] }), { type: "updated", actor: "agent:coder" });
    const approve = (x: typeof e) => ({ ...x, provenance: { ...x.provenance, approved_by: "human:ann", approved_at: new Date().toISOString() } });
    await assert.rejects(agent.updateEntry(e.id, approve, { type: "approved", actor: "human:ann" }), /only people approve/);
    await assert.rejects(agent.deleteEntry(e.id, { type: "removed", actor: "agent:coder" }), /permission denied/, "agents cannot delete");
    const approved = await person.updateEntry(e.id, approve, { type: "approved", actor: "human:ann" });
    assert.ok(approved.provenance.approved_at);
    const events = await owner.listEvents(e.id);
    assert.deepEqual(events.map((x) => [x.type, x.db_role]).slice(-1), [["approved", personLogin]], "the approval is recorded under the person's database role");
    assert.ok(events.some((x) => x.db_role === agentLogin));
    assert.equal(await person.deleteEntry(e.id, { type: "removed", actor: "human:ann" }), true);
  } finally {
    for (const s of stores) await s.close();
    await dropSchema(url, schema);
    for (const role of [agentLogin, personLogin, agents, people]) await adminQuery(url, `DROP ROLE IF EXISTS ${role}`).catch(() => {});
  }
});
