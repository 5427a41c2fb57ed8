// swarm-tools memories.jsonl: the real 730-line file, malformed rows, CRLF, field mapping.
import { test } from "node:test";
import assert from "node:assert/strict";
import { NewEntryInputSchema } from "../../src/core/entry.js";
import { parseFile } from "../../src/io/parse.js";
import { collect, writeTmp } from "./helpers.js";
import { MEMORIES_FILE, WITHOUT_MEMORIES } from "../helpers/shared-data.js";

const REAL = MEMORIES_FILE;

test("real file: 729 records, line 730 reported as two objects on one line", { skip: WITHOUT_MEMORIES }, async () => {
  const { ok, bad } = await collect(parseFile(REAL, "swarm-tools"));
  assert.equal(ok.length, 729);
  assert.deepEqual(bad, [{ line: 730, error: "not valid JSON (two objects on one line?)" }]);
  assert.deepEqual(ok.map((r) => r.line), Array.from({ length: 729 }, (_, i) => i + 1));
  for (const r of ok) {
    const check = NewEntryInputSchema.safeParse(r.input);
    assert.ok(check.success, `line ${r.line}: ${check.success ? "" : check.error.message}`);
    assert.equal(r.input!.derived_from?.kind, "import");
    assert.ok(r.input!.external_id);
    assert.ok(r.input!.created_at, `line ${r.line} lost its date`);
  }
});

test("maps fields: epoch string → ISO, comma tags split and cleaned, id → external_id", async () => {
  const file = writeTmp(
    "memories.jsonl",
    JSON.stringify({
      id: "m1",
      information: "We decided to use vitest fake timers\r\nfor polling tests.",
      created_at: "1766343300618.0",
      tags: " testing, vitest ,O(n²),,a b c," + "x".repeat(61),
      metadata: "{}",
    }) + "\n",
  );
  const { ok, bad } = await collect(parseFile(file, "swarm-tools"));
  assert.equal(bad.length, 0);
  const input = ok[0]!.input!;
  assert.equal(input.lesson, "We decided to use vitest fake timers\r\nfor polling tests.");
  assert.equal(input.created_at, new Date(1766343300618).toISOString());
  assert.deepEqual(input.tags, ["testing", "vitest", "O-n²", "a-b-c"]);
  assert.equal(input.external_id, "m1");
  assert.equal(input.category, "testing");
  assert.equal(input.kind, "decision");
  assert.deepEqual(input.derived_from, { kind: "import", ref: "memories.jsonl" });
  assert.equal(ok[0]!.tier, undefined);
});

test("malformed lines mid-file are reported with the right numbers and parsing continues", async () => {
  const good = (n: number) => JSON.stringify({ id: `g${n}`, information: `lesson number ${n}`, created_at: "2025-01-01T00:00:00Z" });
  const lines = [
    good(1),
    "",
    '{"id":"x","information":',
    good(4),
    JSON.stringify({ id: "y" }),
    JSON.stringify({ id: "z", information: 42 }),
    "[1,2]",
    good(8),
    JSON.stringify({ id: "w", information: "   " }),
    good(10),
  ];
  const { ok, bad } = await collect(parseFile(writeTmp("m.jsonl", lines.join("\n") + "\n"), "swarm-tools"));
  assert.deepEqual(ok.map((r) => r.line), [1, 4, 8, 10]);
  assert.deepEqual(bad.map((b) => b.line), [3, 5, 6, 7, 9]);
  assert.match(bad[0]!.error, /not valid JSON/);
  assert.match(bad[1]!.error, /missing required field "information"/);
  assert.match(bad[2]!.error, /field "information" should be string, got a number/);
  assert.match(bad[3]!.error, /expected a JSON object, got a list/);
  assert.match(bad[4]!.error, /"information" is empty/);
});

test("CRLF line endings parse the same as LF", async () => {
  const rows = [1, 2, 3].map((n) => JSON.stringify({ id: `c${n}`, information: `crlf lesson ${n}`, tags: "a,b" }));
  const lf = await collect(parseFile(writeTmp("lf.jsonl", rows.join("\n") + "\n"), "swarm-tools"));
  const crlf = await collect(parseFile(writeTmp("crlf.jsonl", rows.join("\r\n") + "\r\n\r\n"), "swarm-tools"));
  assert.equal(crlf.bad.length, 0);
  assert.deepEqual(crlf.ok, lf.ok.map((r) => ({ ...r, input: { ...r.input, derived_from: { kind: "import", ref: "crlf.jsonl" } } })));
});
