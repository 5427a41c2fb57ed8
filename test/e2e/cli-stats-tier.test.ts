// `cairn stats --tier`: one tier's counts, as list/recall/export take it; refused clearly where it cannot apply.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { sandbox } from "../helpers/cli.js";

const sb = sandbox();
after(() => sb.cleanup());

let project = "";
before(async () => {
  project = sb.project("stats-tier");
  const swarm = await sb.json(project, "add", "Run the migrations with npm run db:migrate before starting the API server locally");
  assert.equal(swarm.body.action, "added", swarm.stderr);
  const hive = await sb.json(project, "add", "Pin the Node version in CI with .nvmrc so it matches the production runtime", "--tier", "hive");
  assert.equal(hive.body.action, "added", hive.stderr);
});

test("stats --tier swarm|hive counts that tier alone; all (the default) counts both", async () => {
  for (const tier of ["swarm", "hive"] as const) {
    const r = await sb.json(project, "stats", "--tier", tier);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.body.tiers.map((t: { tier: string }) => t.tier), [tier]);
    assert.equal(r.body.tiers[0].total, 1);
    const text = await sb.run(project, "stats", "--tier", tier);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, new RegExp(`^${tier} `, "m"));
    assert.doesNotMatch(text.stdout, new RegExp(`^${tier === "swarm" ? "hive" : "swarm"} `, "m"), "the other tier is left out");
  }
  const all = await sb.json(project, "stats", "--tier", "all");
  const plain = await sb.json(project, "stats");
  assert.deepEqual(all.body.tiers.map((t: { tier: string }) => t.tier), ["swarm", "hive"]);
  assert.deepEqual(plain.body.tiers.map((t: { tier: string }) => t.tier), ["swarm", "hive"]);
});

test("stats --tier with an unknown tier is a usage error naming the choices, as list's is", async () => {
  const r = await sb.json(project, "stats", "--tier", "bogus");
  assert.equal(r.code, 2, r.stdout);
  assert.equal(r.body.error.code, "INVALID_INPUT");
  assert.match(r.body.error.message, /all, swarm, hive/);
});

test("stats --governance --tier is refused (its metrics span both tiers), not silently ignored", async () => {
  const r = await sb.json(project, "stats", "--governance", "--tier", "swarm");
  assert.equal(r.code, 2, r.stdout);
  assert.equal(r.body.error.code, "INVALID_INPUT");
  assert.match(r.body.error.message, /--governance/);
  assert.match(r.body.error.message, /both tiers/);
});

test("stats --tier hive with the hive switched off says so instead of answering empty", async () => {
  const r = await sb.raw(["--project", project, "stats", "--tier", "hive", "--json"], { env: { ...sb.env, CAIRN__knowledge__hive_enabled: "false" } });
  assert.equal(r.code, 2, r.stdout + r.stderr);
  assert.match(JSON.parse(r.stdout).error.message, /hive is disabled/);
});
