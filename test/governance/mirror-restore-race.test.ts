// A mirror pull that clears `supersedes:` restores the replaced lesson: a change to that lesson by another process between the check and the restore saves nothing.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { openCairn } from "../../src/index.js";
import type { Store } from "../../src/store/store.js";
import { APPROVAL_ON, openEnv, supersededPair } from "./helpers.js";

const MIRROR_ON = { governance: { ...APPROVAL_ON.governance, mirror: { enabled: true } } };

function fileFor(dir: string, handle: string): string {
  for (const rel of (fs.readdirSync(dir, { recursive: true }) as string[]).sort()) if (path.basename(rel).startsWith(`${handle}-`)) return path.join(dir, rel);
  throw new Error(`no mirror file for ${handle}`);
}

test("`supersedes:` cleared while another process quarantines the replaced lesson (after the check, before the restore): nothing saved, the quarantine stands", async () => {
  const env = await openEnv(MIRROR_ON);
  // Another engine on the same files, as a second `cairn` process would be.
  const bob = await openCairn({ projectDir: env.sb.projectDir, hivePath: env.sb.hivePath, env: env.sb.env, config: MIRROR_ON, actor: "human:bob" });
  const dir = path.join(env.sb.projectDir, ".swarm", "knowledge");
  try {
    const { old, repl } = await supersededPair(env.human);
    const file = fileFor(dir, repl.handle!);
    fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace(/^supersedes: .*$/m, "supersedes:"));
    // The interleaving, deterministic: the moment the pull's edit of the replacement commits (after its
    // restorability check), the other process quarantines the lesson the pull is about to restore.
    const swarm = (env.human as unknown as { services: { swarm: Store } }).services.swarm;
    let interleaved = false;
    const off = swarm.subscribe(async (c) => {
      if (interleaved || c.type !== "update" || c.entry.id !== repl.id || c.entry.lifecycle.supersedes !== undefined) return;
      interleaved = true;
      await bob.quarantine(old.id!, "wrong for pnpm 9", "human:bob");
    });
    const r = await env.human.pullMirror();
    off();
    assert.ok(interleaved, "the other process's change landed between the check and the restore");
    assert.deepEqual(r.applied, [], "nothing saved");
    assert.equal(r.errors.length, 1, JSON.stringify(r));
    assert.match(r.errors[0]!.message, /Nothing saved/);
    const o = await env.human.get(old.id!);
    assert.equal(o.lifecycle.status, "quarantined", "the other process's quarantine is not undone by a restore it never asked for");
    assert.equal((await env.human.get(repl.id!)).lifecycle.supersedes, old.id, "the replacement still names what it replaces");
  } finally {
    await bob.close();
    await env.close();
  }
});
