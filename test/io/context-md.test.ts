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
  // Placed by the one category mapping (seed 001's section → category), as the jsonl import places them.
  assert.deepEqual(got, [
    { line: 4, lesson: "Run migrations before seeding the database. This matters in CI where the DB starts empty.", category: "tooling", kind: "learning", tags: ["legacy-category:lesson"] },
    { line: 6, lesson: "Use fake timers for polling code.", category: "other", kind: "learning", tags: ["legacy-category:lesson"] },
    { line: 12, lesson: "Repository pattern wraps every SQL call.", category: "other", kind: "pattern", tags: ["legacy-category:pattern"] },
    { line: 15, lesson: "Invoices are immutable once sent.", category: "other", kind: "insight", tags: ["legacy-category:domain", "domain"] },
    { line: 18, lesson: "Chose libsql over better-sqlite3. - because it ships prebuilt binaries", category: "other", kind: "decision", tags: ["legacy-category:decision"] },
    { line: 22, lesson: "Keep one writer per database file.", category: "other", kind: "decision", tags: ["legacy-category:decision"] },
  ]);
  assert.deepEqual(ok[0]!.input!.derived_from, { kind: "import", ref: "context.md" });
});

test("heading variants: hyphens, underscores, case, trailing words", async () => {
  const md = "## LESSONS_LEARNED\n- a\n## lessons-learned (phase 2)\n- b\n## Lessonsish\n- c\n";
  const { ok } = await collect(parseFile(writeTmp("context.md", md), "context-md"));
  assert.deepEqual(ok.map((r) => r.input!.lesson), ["a", "b"]);
});

test("seed 001's migration mapping (lessons-learned → lesson, patterns → pattern, sme-cache → domain, decisions → decision): a bullet is stored as the same row of knowledge.jsonl with that category would be", async () => {
  const bullets: Array<[section: string, seedCategory: string, lesson: string]> = [
    ["Lessons Learned", "lesson", "Run the database migrations before the integration tests in CI; the fixtures need the schema."],
    ["Patterns", "pattern", "Wrap every SQL call of src/db in the repository layer so the handlers never build queries."],
    ["SME Cache", "domain", "Invoices are immutable once sent; a correction is a credit note referencing the invoice number."],
    ["Decisions", "decision", "We chose libsql over better-sqlite3 because it ships prebuilt binaries for Bun and Node."],
  ];
  const md = bullets.map(([section, , lesson]) => `## ${section}\n- ${lesson}\n`).join("\n");
  const jsonl = bullets.map(([, category, lesson], i) => JSON.stringify({ id: `lesson-${i}`, lesson, category })).join("\n") + "\n";
  const fromMd = (await collect(parseFile(writeTmp("context.md", md), "context-md"))).ok;
  const fromJsonl = (await collect(parseFile(writeTmp("knowledge.jsonl", jsonl), "opencode-swarm"))).ok;
  const placed = (r: (typeof fromMd)[number]) => ({ lesson: r.input!.lesson, category: r.input!.category, kind: r.input!.kind, tags: r.input!.tags });
  assert.deepEqual(fromMd.map(placed), fromJsonl.map(placed));
  assert.ok(fromMd.some((r) => r.input!.category !== "other"), "categories are placed, not all 'other'");
});
