// Real agent memories (swarm-tools export): a trusted import must keep every one that holds no secret.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { validateLessonText } from "../../src/quality/gates.js";
import { MEMORIES_FILE as FILE, WITHOUT_MEMORIES } from "../helpers/shared-data.js";

test("trusted import of the real swarm-tools memories rejects nothing but real secrets", { skip: WITHOUT_MEMORIES }, (t) => {
  const lines = readFileSync(FILE, "utf8").split("\n").filter((l) => l.trim() !== "");
  const rows: Array<{ line: number; information: string }> = [];
  const unparsable: number[] = [];
  lines.forEach((l, i) => {
    try {
      const o = JSON.parse(l) as { information?: unknown };
      if (typeof o.information === "string") rows.push({ line: i + 1, information: o.information });
      else unparsable.push(i + 1);
    } catch {
      unparsable.push(i + 1);
    }
  });
  assert.equal(rows.length, 729);
  assert.deepEqual(unparsable, [730]);

  const wrongly: string[] = [];
  for (const { line, information } of rows) {
    const r = validateLessonText(information, { trusted: true });
    for (const i of r.issues) {
      if (i.severity === "warn") continue;
      if (i.layer === "secret") t.diagnostic(`line ${line}: secret refused (${i.code}): ${i.message}`);
      else wrongly.push(`line ${line}: ${i.layer}/${i.code}: ${i.message}`);
    }
  }
  assert.deepEqual(wrongly, []);
});
