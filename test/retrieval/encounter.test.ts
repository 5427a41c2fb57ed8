// Issue 11 item 6: the hive encounter score (seed 001) — sightings weighted by source project vs other projects.
import { test } from "node:test";
import assert from "node:assert/strict";
import { openCairn, type Cairn, type ConfigInput } from "../../src/index.js";
import { addProject, makeSandbox, removeSandbox } from "../fixtures/workers/sandbox.js";

const NOISY = "Pin the Node major version in an .nvmrc file so local shells and the CI build use the same runtime.";
const SHARED = "Cache the npm download folder between CI runs keyed on package-lock.json so the build does not fetch every package again.";

/**
 * NOISY is met again in three more phases of its source project only; SHARED once in its source
 * project and once in each of two other projects. Returns the encounter part of each one's score.
 */
async function encounterParts(config: ConfigInput): Promise<{ noisy: number; shared: number }> {
  const sb = makeSandbox("alpha");
  const open: Cairn[] = [];
  const project = async (dir: string) => {
    const c = await openCairn({ projectDir: dir, hivePath: sb.hivePath, env: sb.env, config });
    open.push(c);
    return c;
  };
  try {
    const a = await project(sb.projectDir);
    const [b, c] = [await project(addProject(sb, "beta")), await project(addProject(sb, "gamma"))];
    const noisy = await a.add({ lesson: NOISY, category: "tooling", phase: "p1" }, { tier: "hive" });
    for (const phase of ["p2", "p3", "p4"]) assert.equal((await a.add({ lesson: NOISY, category: "tooling", phase }, { tier: "hive" })).action, "reinforced");
    const shared = await a.add({ lesson: SHARED, category: "tooling", phase: "p1" }, { tier: "hive" });
    for (const other of [b, c]) assert.equal((await other.add({ lesson: SHARED, category: "tooling", phase: "p1" }, { tier: "hive" })).action, "reinforced");
    const hits = await a.recall("CI build node runtime npm packages", { tier: "hive" });
    const part = (id: string | undefined) => {
      const hit = hits.find((h) => h.entry.id === id);
      assert.ok(hit, `recalled ${id}`);
      return hit.breakdown.encounter ?? Number.NaN;
    };
    return { noisy: part(noisy.id), shared: part(shared.id) };
  } finally {
    for (const c of open) await c.close();
    removeSandbox(sb);
  }
}

test("regression 11.6: same_project_weight and cross_project_weight weigh a hive lesson's sightings in its ranking", async () => {
  const defaults = await encounterParts({});
  // Defaults (1.0 / 0.5): four sightings in one project (4.0) beat one in each of three projects (2.0).
  assert.ok(defaults.noisy > defaults.shared, JSON.stringify(defaults));
  const crossCounts = await encounterParts({ knowledge: { cross_project_weight: 3 } });
  // 4.0 against 1 + 3 + 3 = 7.0: lessons other projects keep meeting now rank higher.
  assert.ok(crossCounts.shared > crossCounts.noisy, JSON.stringify(crossCounts));
  assert.ok(crossCounts.shared > defaults.shared);
  const noSame = await encounterParts({ knowledge: { same_project_weight: 0 } });
  assert.equal(noSame.noisy, 0, "sightings in the source project count for nothing");
  assert.ok(noSame.shared > 0 && noSame.shared < defaults.shared, JSON.stringify(noSame));
});
