// A database of many long lessons written straight to the store (the gates are not under test): exporting, importing or copying it takes a while.
import path from "node:path";
import type { Tier } from "../../src/core/entry.js";
import { EntrySchema } from "../../src/core/entry.js";
import { newEntryId } from "../../src/core/ids.js";
import { SqliteStore } from "../../src/store/sqlite-store.js";
import type { Sandbox } from "./cli.js";

/** Writes `n` lessons into the SQLite file at `file` as entries of `tier`. */
export async function fillStore(file: string, tier: Tier, n: number): Promise<void> {
  const store = new SqliteStore(file, tier);
  const at = new Date().toISOString();
  const pending: Promise<unknown>[] = [];
  store.driver.transaction(() => {
    for (let i = 0; i < n; i++) {
      const lesson = `In services/billing-${i}/worker.ts retry the ledger-${i} webhook at most ${(i % 7) + 2} times before paging on-call; ` + `a retry storm of ledger-${i} filled queue ${i} and `.repeat(12) + "took the service down.";
      const e = EntrySchema.parse({ id: newEntryId(), handle: "", tier, lesson: lesson.slice(0, 1900), category: "tooling", kind: "learning", created_at: at, updated_at: at });
      pending.push(store.insertEntry(e, { type: "created", actor: "human:test" }));
    }
  });
  await Promise.all(pending);
  await store.close();
}

export async function bigProject(sb: Sandbox, name: string, n: number): Promise<string> {
  const p = sb.project(name);
  await fillStore(path.join(p, ".swarm", "cairn.db"), "swarm", n);
  return p;
}
