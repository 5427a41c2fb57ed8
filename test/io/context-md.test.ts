// context.md: the four known sections, continuation lines, ignored sections, line numbers.
import { test } from "node:test";
import assert from "node:assert/strict";
import { parseFile } from "../../src/io/parse.js";
import { collect, writeTmp } from "./helpers.js";

const MD = [
  "# Project context", //                                   1
  "",
  "## Lessons Learned",
  "- Run migrations before seeding the database.", //        4
  "  This matters in CI where the DB starts empty.",
  "* Use fake timers for polling code.", //                  6
  "",
  "## Current Task", //                                     8
  "- This bullet is not knowledge.",
  "",
  "## patterns",
  "- Repository pattern wraps every SQL call.", //          12
  "",
  "## SME-Cache",
  "- Invoices are immutable once sent.", //                 15
  "",
  "## decisions",
  "- Chose libsql over better-sqlite3.", //                 18
  "    - because it ships prebuilt binaries",
  "Trailing paragraph text is not part of the bullet.",
  "### Sub heading keeps the section",
  "- Keep one writer per database file.", //               22
].join("\r\n");

test("maps the four sections and folds indented continuation lines", async () => {
  const { ok, bad } = await collect(parseFile(writeTmp("context.md", MD), "context-md"));
  assert.deepEqual(bad, []);
  const got = ok.map((r) => ({ line: r.line, lesson: r.input!.lesson, category: r.input!.category, kind: r.input!.kind, tags: r.input!.tags }));
  assert.deepEqual(got, [
    { line: 4, lesson: "Run migrations before seeding the database. This matters in CI where the DB starts empty.", category: "other", kind: "learning", tags: [] },
    { line: 6, lesson: "Use fake timers for polling code.", category: "other", kind: "learning", tags: [] },
    { line: 12, lesson: "Repository pattern wraps every SQL call.", category: "other", kind: "pattern", tags: [] },
    { line: 15, lesson: "Invoices are immutable once sent.", category: "other", kind: "learning", tags: ["domain"] },
    { line: 18, lesson: "Chose libsql over better-sqlite3. - because it ships prebuilt binaries", category: "other", kind: "decision", tags: [] },
    { line: 22, lesson: "Keep one writer per database file.", category: "other", kind: "decision", tags: [] },
  ]);
  assert.deepEqual(ok[0]!.input!.derived_from, { kind: "import", ref: "context.md" });
});

test("heading variants: hyphens, underscores, case, trailing words", async () => {
  const md = "## LESSONS_LEARNED\n- a\n## lessons-learned (phase 2)\n- b\n## Lessonsish\n- c\n";
  const { ok } = await collect(parseFile(writeTmp("context.md", md), "context-md"));
  assert.deepEqual(ok.map((r) => r.input!.lesson), ["a", "b"]);
});
