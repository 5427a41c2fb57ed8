// A restored row crosses from the import worker as its strings (prepared-transfer.ts): rebuilt, it restores the same row as the item itself.
import { test } from "node:test";
import assert from "node:assert/strict";
import { parseCairnLine } from "../../src/io/formats/cairn.js";
import { prepareItem, type PrepareContext } from "../../src/io/prepare.js";
import { packItem, unpackItem } from "../../src/io/prepared-transfer.js";
import { restoredEntry } from "../../src/io/restore.js";
import type { ParseItem } from "../../src/io/types.js";

const ctx = { config: {}, trusted: true, hive: true } as unknown as PrepareContext;
const at = "2026-01-02T03:04:05.000Z";
const line = (i: number, fields: Record<string, unknown>) =>
  JSON.stringify({ id: `0190a0a0-0000-7000-8000-${String(i).padStart(12, "0")}`, handle: `S-${i}`, tier: "swarm", category: "tooling", kind: "learning", created_at: at, updated_at: at, ...fields });

const LINES = [
  line(1, { lesson: "Pin the runner image digest; a floating tag broke the release." }),
  // The gates take the zero-width space out: the restored entry's lesson differs from the file's.
  line(2, { lesson: "Warm the cache\u200b before the load test.", title: "Cache warm-up", tags: ["ci"], applicability: { file_globs: ["src/**"], triggers: ["loadTest"] } }),
  // A date the parser repairs: its warning travels too.
  line(3, { lesson: "Retry the billing webhook with backoff.", updated_at: "2026-01-02 03:04:05Z", usage: { helpful: -0 } }),
  line(4, { lesson: "Deploy with token ghp_" + "Z9y8X7w6V5u4T3s2R1q0P9o8N7m6L5k4J3i2 now." }),
  line(5, { lesson: "A hive lesson about release pipelines and their caches.", tier: "hive" }),
  "{ not json",
];

test("a restored row that passed its gates is sent as strings and rebuilt into an item that restores the same row", () => {
  let packed = 0;
  let warned = 0;
  for (const [i, text] of LINES.entries()) {
    const item = prepareItem(parseCairnLine(text, i + 1) as ParseItem, ctx, { ahead: true });
    const sent = structuredClone(packItem(item));
    const back = unpackItem(sent);
    if (!("packed" in sent)) {
      assert.deepEqual(back, item, "an item that is not a passed restore travels as it is");
      continue;
    }
    packed++;
    assert.ok(item.ok && back.ok && item.record.entry && back.record.entry && item.gate?.ok && back.gate?.ok);
    assert.equal(back.record.line, item.record.line);
    assert.equal(back.record.tier, item.record.tier);
    assert.deepEqual(back.record.warnings, item.record.warnings);
    if (back.record.warnings?.length) warned++;
    assert.deepEqual(back.derived, item.derived);
    assert.deepEqual(back.gate, item.gate);
    // What the restore stores: the entry restoredEntry makes (as its JSON reads: a -0 count is 0, as SQLite stores it), and the columns derived from it.
    assert.deepEqual(restoredEntry(back.record.entry, back.gate), JSON.parse(JSON.stringify(restoredEntry(item.record.entry, item.gate))));
    assert.equal(JSON.stringify(restoredEntry(back.record.entry, back.gate)), item.derived!.json);
  }
  assert.equal(packed, 4, "the passed rows travel packed; the refused one and the bad line do not");
  assert.equal(warned, 1, "a repaired date's warning travels with its row");
});

test("a row the worker left its columns to is packed from its gate, and this thread derives the same columns", () => {
  let packed = 0;
  for (const [i, text] of LINES.entries()) {
    const parsed = parseCairnLine(text, i + 1) as ParseItem;
    const ahead = unpackItem(structuredClone(packItem(prepareItem(parsed, ctx, { ahead: true }))));
    const sent = structuredClone(packItem(prepareItem(parsed, ctx, { ahead: false })));
    const back = unpackItem(sent);
    if ("packed" in sent) {
      packed++;
      assert.equal(sent.fingerprint, undefined, "nothing derived ahead travels");
    }
    assert.deepEqual(back, ahead);
  }
  assert.equal(packed, 4, "a passed row travels packed whichever thread derives its columns");
});
