// The one plan reader (.swarm/plan.md and opencode-swarm's plan.json): phases, statuses, tasks, current phase, summary, precedence, bad files.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { MAX_PLAN_BYTES, PlanReader, parsePlanMarkdown, phaseSummary, readPlanContext } from "../../src/retrieval/plan.js";
import { makeSandbox, removeSandbox, withWorld } from "./helpers.js";

function project(files: Record<string, string | Buffer>): { dir: string; done: () => void } {
  const sb = makeSandbox();
  for (const [name, content] of Object.entries(files)) {
    const file = path.join(sb.projectDir, ".swarm", name);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
  }
  return { dir: sb.projectDir, done: () => removeSandbox(sb) };
}

const PLAN_MD = `# Project: billing
Swarm: mega

## Phase 1: Setup [COMPLETE]
- [x] 1.1: Create the repo layout [SMALL]
- [x] 1.2: Add CI

## Phase 2: Webhook intake [IN PROGRESS]
Goal: accept provider events.
- [x] 2.1: Parse the event envelope [SMALL]
- [ ] 2.2: Verify the HMAC signature of incoming webhooks [MEDIUM]
  - Acceptance: reject events whose signature does not match
  - Files: src/webhooks/verify.ts
- [ ] 2.3: Store events idempotently

## Phase 3: Ledger
- [ ] 3.1: Write ledger rows
`;

test("parsePlanMarkdown: title, numbered phases with statuses, tasks with ids, done flags and descriptions", () => {
  const plan = parsePlanMarkdown(PLAN_MD);
  assert.equal(plan.title, "Project: billing");
  assert.deepEqual(plan.phases.map((p) => [p.number, p.title, p.status, p.tasks.length]), [
    [1, "Phase 1: Setup", "complete", 2],
    [2, "Phase 2: Webhook intake", "in_progress", 3],
    [3, "Phase 3: Ledger", "unknown", 1],
  ]);
  assert.equal(plan.current?.number, 2);
  assert.deepEqual(plan.phases[0]!.tasks[0], { id: "1.1", text: "Create the repo layout", done: true });
  assert.deepEqual(plan.phases[1]!.tasks[1], {
    id: "2.2",
    text: "Verify the HMAC signature of incoming webhooks",
    done: false,
    detail: "Acceptance: reject events whose signature does not match. Files: src/webhooks/verify.ts",
  });
  assert.match(plan.phases[1]!.text, /^## Phase 2: Webhook intake \[IN PROGRESS\]\nGoal: accept provider events\.[\s\S]*2\.3: Store events idempotently$/);
  assert.equal(phaseSummary(plan, 300), "Phase 2: Webhook intake [IN PROGRESS] — 1/3 tasks done; next: 2.2 Verify the HMAC signature of incoming webhooks");
});

test("parsePlanMarkdown: the 'Phase: N' header names the current phase; heading-style tasks with ✅; summary bounded", () => {
  assert.equal(parsePlanMarkdown(`Phase: 1 | Updated: today\n\n## Phase 1: A\n- [x] done\n## Phase 2: B\n- [ ] open\n`).current?.number, 1);
  const plan = parsePlanMarkdown(`# v4.3\n\n## Phase 1: Hooks [COMPLETE]\n### 1.1: Fix default [SMALL] ✅\n### 1.2: Utilities [SMALL] ✅\n\n## Phase 2: Pruning\n### 2.1: Budget tracker [MEDIUM]\n### 2.2: Compaction [SMALL] ✅\n`);
  assert.equal(plan.phases[0]!.status, "complete");
  assert.deepEqual(plan.phases[0]!.tasks.map((t) => [t.id, t.text, t.done]), [["1.1", "Fix default", true], ["1.2", "Utilities", true]]);
  assert.equal(plan.current?.number, 2);
  assert.equal(phaseSummary(plan, 300), "Phase 2: Pruning — 1/2 tasks done; next: 2.1 Budget tracker");
  assert.equal(phaseSummary(plan, 20).length, 20);
  assert.equal(phaseSummary(parsePlanMarkdown("no phases here"), 300), "");
});

test("plan.md: the first phase with an unchecked task is current, and its first unchecked task with its description", () => {
  const p = project({ "plan.md": PLAN_MD });
  try {
    const ctx = readPlanContext(p.dir);
    assert.deepEqual(ctx, {
      phase: "Phase 2: Webhook intake",
      task: "Verify the HMAC signature of incoming webhooks. Acceptance: reject events whose signature does not match. Files: src/webhooks/verify.ts",
      phaseNumber: 2,
      tasksDone: 3,
      tasksTotal: 6,
    });
  } finally {
    p.done();
  }
});

test("plan.md: every task checked means no current phase, but the counts still say how far the plan got", () => {
  const p = project({ "plan.md": "## Phase 1: Only\n- [x] one\n- [X] two\n" });
  try {
    assert.deepEqual(readPlanContext(p.dir), { tasksDone: 2, tasksTotal: 2 });
  } finally {
    p.done();
  }
});

test("plan.md: a phase without checkboxes is skipped, '### Phase' headings and '*' bullets count", () => {
  const p = project({ "plan.md": "## Phase 1: Notes only\nSome text.\n\n### Phase 2 - Build\n* [ ] Wire the exporter\n" });
  try {
    const ctx = readPlanContext(p.dir);
    assert.equal(ctx?.phase, "Phase 2: Build");
    assert.equal(ctx?.task, "Wire the exporter");
    assert.equal(ctx?.phaseNumber, 2);
  } finally {
    p.done();
  }
});

const PLAN_JSON = {
  schema_version: "1.0.0",
  title: "billing",
  swarm: "mega",
  phases: [
    { id: 1, name: "Setup", status: "complete", tasks: [{ id: "1.1", phase: 1, status: "completed", description: "Create the repo" }] },
    {
      id: 2,
      name: "Webhook intake",
      status: "in_progress",
      tasks: [
        { id: "2.1", phase: 2, status: "completed", description: "Parse the envelope" },
        { id: "2.2", phase: 2, status: "in_progress", description: "Verify the HMAC signature", acceptance: "bad signatures get 401" },
        { id: "2.3", phase: 2, status: "pending", description: "Store events idempotently" },
      ],
    },
  ],
};

test("plan.json wins over plan.md when it is a valid opencode-swarm plan", () => {
  const p = project({ "plan.json": JSON.stringify(PLAN_JSON), "plan.md": "## Phase 9: Stale\n- [ ] old task\n" });
  try {
    assert.deepEqual(readPlanContext(p.dir), {
      phase: "Phase 2: Webhook intake",
      task: "Verify the HMAC signature. bad signatures get 401",
      phaseNumber: 2,
      tasksDone: 2,
      tasksTotal: 4,
    });
  } finally {
    p.done();
  }
});

test("PlanReader: plan.json gives structure and status, plan.md keeps each phase's prose and the plan text", () => {
  const md = `# billing\n\n## Phase 2: Webhook intake [IN PROGRESS]\n- [ ] 2.2: Verify the HMAC signature\n### Lessons Learned\n- Raw bodies must be kept for the HMAC check.\n`;
  const p = project({ "plan.json": JSON.stringify(PLAN_JSON), "plan.md": md });
  try {
    const read = new PlanReader(p.dir).read()!;
    assert.equal(read.text, md);
    assert.equal(read.plan.title, "billing");
    assert.deepEqual(read.plan.phases.map((ph) => [ph.number, ph.status, ph.tasks.filter((t) => t.done).length]), [[1, "complete", 1], [2, "in_progress", 1]]);
    assert.match(read.plan.current!.text, /Lessons Learned/);
    assert.equal(read.plan.phases[0]!.text, "## Phase 1: Setup [COMPLETE]\n- [x] 1.1: Create the repo");
    fs.rmSync(path.join(p.dir, ".swarm", "plan.md"));
    assert.match(new PlanReader(p.dir).read()!.text, /^# billing\n\n## Phase 1: Setup \[COMPLETE\][\s\S]*- \[ \] 2\.2: Verify the HMAC signature\n  - bad signatures get 401\n/);
  } finally {
    p.done();
  }
});

test("bad files never throw: broken JSON falls back to plan.md; junk, binary, empty and missing files give undefined", () => {
  const cases: Array<[Record<string, string | Buffer>, string | undefined]> = [
    [{ "plan.json": "{ not json", "plan.md": "## Phase 1: Fallback\n- [ ] use markdown\n" }, "Phase 1: Fallback"],
    [{ "plan.json": JSON.stringify({ phases: "nope" }), "plan.md": "## Phase 4: Md\n- [ ] x\n" }, "Phase 4: Md"],
    [{ "plan.json": JSON.stringify({ phases: [null, 3, { tasks: [{ status: 1 }] }] }) }, undefined],
    [{ "plan.md": Buffer.from([0, 255, 254, 10, 35, 35, 0, 7]) }, undefined],
    [{ "plan.md": "" }, undefined],
    [{}, undefined],
  ];
  for (const [files, phase] of cases) {
    const p = project(files);
    try {
      assert.equal(readPlanContext(p.dir)?.phase, phase, JSON.stringify(Object.keys(files)));
    } finally {
      p.done();
    }
  }
  assert.equal(readPlanContext("/definitely/not/a/project"), undefined);
  // A directory where the file should be is not a plan either.
  const p = project({});
  try {
    fs.mkdirSync(path.join(p.dir, ".swarm", "plan.md"), { recursive: true });
    assert.equal(readPlanContext(p.dir), undefined);
  } finally {
    p.done();
  }
});

test("a huge plan is read only up to the bound and still parses what fits", () => {
  const head = "## Phase 1: Huge\n- [ ] the first task\n";
  const filler = `- [x] done ${"x".repeat(100)}\n`.repeat(Math.ceil((MAX_PLAN_BYTES * 2) / 110));
  const p = project({ "plan.md": head + filler + "## Phase 2: Beyond the bound\n- [ ] never read\n" });
  try {
    const ctx = readPlanContext(p.dir);
    assert.equal(ctx?.phase, "Phase 1: Huge");
    assert.equal(ctx?.task, "the first task");
    assert.ok(ctx!.tasksTotal < MAX_PLAN_BYTES / 100, "tasks past the bound are not counted");
  } finally {
    p.done();
  }
});

test("a changed plan is re-read (the cache keys on mtime and size)", () => {
  const p = project({ "plan.md": "## Phase 1: A\n- [ ] first\n" });
  try {
    assert.equal(readPlanContext(p.dir)?.task, "first");
    const file = path.join(p.dir, ".swarm", "plan.md");
    fs.writeFileSync(file, "## Phase 1: A\n- [x] first\n- [ ] second one\n");
    const later = new Date(Date.now() + 5000);
    fs.utimesSync(file, later, later);
    assert.equal(readPlanContext(p.dir)?.task, "second one");
  } finally {
    p.done();
  }
});

test("engine: a context without phase or task is filled from the plan, so recall finds the current task's lesson", async () => {
  const sb = makeSandbox();
  fs.mkdirSync(path.join(sb.projectDir, ".swarm"), { recursive: true });
  fs.writeFileSync(path.join(sb.projectDir, ".swarm", "plan.md"), PLAN_MD);
  await withWorld(
    async ({ cairn }) => {
      const r1 = await cairn.add({ lesson: "Compare webhook HMAC signatures with crypto.timingSafeEqual, never with ===, so timing does not leak the secret.", category: "security" });
      const r2 = await cairn.add({ lesson: "Keep Grafana dashboards in version control as JSON so reviews can see panel changes.", category: "tooling" });
      assert.equal(r1.action, "added");
      assert.equal(r2.action, "added");
      const hits = await cairn.recall({ lastMessage: "ok, carry on" });
      assert.equal(hits[0]?.entry.id, r1.id, "the plan's task (HMAC signature) drives the query");
      // An explicit task wins over the plan.
      const explicit = await cairn.recall({ task: "Grafana dashboards in version control" });
      assert.equal(explicit[0]?.entry.id, r2.id);
    },
    {},
    sb,
  );
});
