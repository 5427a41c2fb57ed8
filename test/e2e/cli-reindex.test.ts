// `cairn reindex` and the vector lines of `cairn doctor`, through the built CLI: a store written without vectors is reported, reindexed, then healthy.
import { test } from "node:test";
import assert from "node:assert/strict";
import { sandbox } from "../helpers/cli.js";

test("cairn reindex: doctor reports lessons without a vector of the current model, reindex --json embeds them, doctor is then satisfied", async () => {
  const sb = sandbox();
  try {
    const project = sb.project("reindex");
    const wordsOnly = { ...sb.env, CAIRN__embedding__provider: "none" };
    const lessons = [
      "Run database migrations before starting the API server in CI.",
      "Quote shell variables that may hold paths with spaces.",
      "Set a timeout on every outbound HTTP request.",
    ];
    for (const l of lessons) {
      const { runCli } = await import("../helpers/cli.js");
      const r = await runCli(["--project", project, "add", l, "--category", "tooling", "--json"], { cwd: sb.root, env: wordsOnly });
      assert.equal(r.code, 0, r.stdout + r.stderr);
    }
    // Vectors are opt-in: the same project, now with the built-in model chosen.
    sb.env.CAIRN__embedding__provider = "builtin";
    const before = await sb.json(project, "doctor");
    const swarm = before.body.tiers.find((t: { tier: string }) => t.tier === "swarm");
    assert.equal(swarm.vectors.reindexNeeded, true);
    assert.equal(swarm.vectors.missing, lessons.length);
    const human = await sb.run(project, "doctor");
    assert.match(human.stdout, /run `cairn reindex`/);

    const run = await sb.json(project, "reindex", "--tier", "swarm");
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.body.tiers[0].embedded, lessons.length);
    assert.match(run.body.tiers[0].space.modelId, /^cairn-static-v1-/);

    const after = await sb.json(project, "doctor");
    assert.equal(after.body.tiers.find((t: { tier: string }) => t.tier === "swarm").vectors.reindexNeeded, false);
    const again = await sb.json(project, "reindex", "--tier", "swarm");
    assert.equal(again.body.tiers[0].embedded, 0, "nothing left to embed: the run resumes where vectors are missing");

    const explain = await sb.run(project, "recall", "outbound request timeout", "--explain");
    assert.match(explain.stdout, /semantic \d\.\d{3} \(cosine -?\d\.\d{2}\)/);
    const help = await sb.raw(["reindex", "--help"]);
    assert.match(help.stdout, /resumes where it stopped/);
  } finally {
    sb.cleanup();
  }
});

test("cairn reindex with vectors off says how to turn them on, not only that there is nothing to do", async () => {
  const sb = sandbox();
  try {
    const project = sb.project("reindex-off");
    const r = await sb.json(project, "reindex");
    assert.equal(r.code, 2, r.stderr);
    assert.equal(r.body.error.code, "INVALID_INPUT");
    assert.match(r.body.error.message, /embedding\.provider/);
    assert.match(r.body.error.message, /builtin/, "names a provider to set");
    assert.match(r.body.error.message, /CAIRN__embedding__provider=builtin|cairn\.json/, "and where to set it");
  } finally {
    sb.cleanup();
  }
});
