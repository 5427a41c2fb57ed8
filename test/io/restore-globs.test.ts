// A lossless restore judges a row's file globs as add does: one outside the project (a home folder, a drive, a climb out with ..) never names a project file and carries the writer's machine paths into every project reading the hive.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { withCairn } from "../helpers/engine.js";
import { rawEntry } from "../retrieval/helpers.js";

test("a Cairn export row whose file glob is outside the project is refused with the reason add gives, trusted or not; its sibling rows are restored", async () => {
  await withCairn(async (c, sb) => {
    const rows = [
      rawEntry({ lesson: "Run the billing webhook tests with the stripe CLI forwarding events before merging any change.", category: "testing", globs: ["/home/alice/proj/src/billing/**"] }),
      rawEntry({ lesson: "Keep the payments retry worker idempotent by keying each job on the invoice id.", category: "testing", globs: ["src/payments/**", "../shared/payments/**"] }),
      rawEntry({ lesson: "Pin the stripe API version in the client constructor so a dashboard upgrade changes nothing.", category: "testing", globs: ["/src/payments/**"] }),
    ];
    const file = path.join(sb.root, "backup.jsonl");
    fs.writeFileSync(file, rows.map((r) => JSON.stringify(r)).join("\n") + "\n");
    // One function gates a restored row on either thread (io/restore.ts gateRestoredEntry), so the main thread's run stands for both.
    for (const trusted of [false, true]) {
      const report = await c.importFile(file, { format: "cairn", trusted });
      assert.equal(report.rejected, 2, `trusted ${trusted}: ${JSON.stringify(report)}`);
      const reasons = report.rejections.map((r) => r.reason).join("\n");
      assert.match(reasons, /"\/home\/alice\/proj\/src\/billing\/\*\*" is the machine's \/home folder, outside the project/, `trusted ${trusted}`);
      assert.match(reasons, /"\.\.\/shared\/payments\/\*\*" climbs out of the project/, `trusted ${trusted}`);
    }
    const stored = await c.list({ limit: 10 });
    assert.deepEqual(stored.map((e) => e.applicability.file_globs), [["/src/payments/**"]], "the anchored project glob is restored; nothing of the others");
  });
});
