// Entry commands: add, list, show, rejected.
import fs from "node:fs";
import path from "node:path";
import { InvalidArgumentError, Option, type Command } from "commander";
import { decodeText } from "../../../core/decode.js";
import { nonEmptyList } from "../non-empty.js";
import { CairnError } from "../../../errors.js";
import { derivedFromLabel } from "../../../core/derived-from.js";
import { linkLabel, withHandles, type EntryLinks } from "../../../core/entry-links.js";
import type { Entry, NewEntryInput } from "../../../core/entry.js";
import { CATEGORIES, KINDS, parseStatuses, PRIORITIES, ROOT_CAUSES, TIERS, type Tier } from "../../../core/enums.js";
import { CATEGORY_CHOICES, CATEGORY_NAMES, LEGACY_CATEGORY_NOTE, type CategoryName, type LessonInput } from "../../../core/categories.js";
import type { ListedLesson } from "../../../governance/list-tiers.js";
import type { LessonFields } from "../../../governance/structured.js";
import type { WriteResult } from "../../../lifecycle/write.js";
import type { QualityIssue } from "../../../quality/types.js";
import { action, int, readCairn, withCairn } from "../context.js";
import { EXIT, usageError } from "../errors.js";
import { truncateAtWord } from "../../../quality/sanitize.js";
import { clean, list, statusColor, table, terminalWidth, type Output } from "../format.js";

interface AddFlags {
  category?: CategoryName;
  kind?: string;
  tags?: string;
  scope?: string;
  confidence?: number;
  phase?: string;
  tier?: Tier;
  title?: string;
  why?: string;
  rootCause?: LessonFields["root_cause"];
  prevention?: string;
  detect?: string;
  guardrail?: string;
  files?: string;
  stack?: string;
  projects?: string;
  supersedes?: string;
  enforce?: boolean;
  priority?: LessonFields["priority"];
  entities?: string;
  agents?: string;
  tools?: string;
  triggers?: string;
  require?: string[];
  forbid?: string[];
  verify?: string[];
  hiveEligible?: boolean;
  maxPhases?: number;
  fromFile?: string;
}

/** Only the keys given: a flag left out must not blank what a --from-file document set. */
function defined<T extends object>(o: T): T | undefined {
  const out = Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
  return Object.keys(out).length ? out : undefined;
}

function confidence(v: string): number {
  const n = Number(v);
  if (v.trim() === "" || Number.isNaN(n)) throw new InvalidArgumentError("confidence must be a number between 0 and 1.");
  return n;
}

/** The add/promote JSON contract: id, action, status always present (null when there is none). */
export function writeResultJson(r: WriteResult): Record<string, unknown> {
  return {
    id: r.id ?? null,
    action: r.action,
    status: r.status ?? null,
    ...(r.reason ? { reason: r.reason } : {}),
    handle: r.handle ?? null,
    tier: r.tier,
    issues: r.issues,
    ...(r.flags ? { flags: r.flags } : {}),
    ...(r.similarity !== undefined ? { similarity: r.similarity } : {}),
    ...(r.merged ? { merged: r.merged } : {}),
  };
}

/** Prints a write result and returns its exit code: a rejection is the caller's input problem (2). */
export function reportWrite(out: Output, r: WriteResult, extra: Record<string, unknown> = {}): number {
  if (out.json) out.print({ ...writeResultJson(r), ...extra });
  else if (r.action === "added") out.line(`${out.c.green("added")} ${r.handle} (${r.status})`);
  else if (r.action === "reinforced") out.line(`${out.c.cyan("reinforced")} ${r.handle}: ${r.reason ?? ""}`);
  else if (r.action === "queued") out.line(`${out.c.yellow("queued")} for the ${r.tier}: ${r.reason ?? ""}`);
  else out.error(`rejected: ${r.reason ?? "failed validation"}`);
  if (!out.json && r.action !== "rejected") {
    for (const i of r.issues.filter((x) => x.severity !== "reject")) {
      out.warn(i.severity === "review" ? `held for review (approve with \`cairn approve ${r.handle}\`): ${i.message}` : `warning: ${i.message}`);
    }
  }
  return r.action === "rejected" ? EXIT.USAGE : EXIT.OK;
}

/** The lesson fields the flags give; `over` a --from-file document when there is one. */
export function lessonFields(lesson: string | undefined, f: AddFlags): LessonFields {
  const prevention = defined({ rule: f.prevention, detection_pattern: f.detect, suggested_guardrail: f.guardrail });
  const applicability = defined({
    file_globs: list(f.files), tech_stack: list(f.stack), projects: list(f.projects), agents: list(f.agents), tools: list(f.tools), triggers: list(f.triggers),
  });
  return {
    ...(lesson !== undefined ? { lesson } : {}),
    ...(f.kind ? { kind: f.kind as NewEntryInput["kind"] } : {}),
    ...(f.tags ? { tags: list(f.tags) } : {}),
    ...(f.scope ? { scope: f.scope } : {}),
    ...(f.confidence !== undefined ? { confidence: f.confidence } : {}),
    ...(f.phase ? { phase: f.phase } : {}),
    ...(f.title ? { title: f.title } : {}),
    ...(f.why ? { why: f.why } : {}),
    ...(f.rootCause ? { root_cause: f.rootCause } : {}),
    ...(f.supersedes ? { supersedes: f.supersedes } : {}),
    // --no-enforce says "warn" outright, so a replacement need not keep the enforcement of what it supersedes.
    ...(f.enforce !== undefined ? { enforcement: f.enforce ? ("enforce" as const) : ("warn" as const) } : {}),
    ...(f.priority ? { priority: f.priority } : {}),
    ...(f.entities ? { entities: list(f.entities) } : {}),
    ...(f.require ? { required_actions: f.require } : {}),
    ...(f.forbid ? { forbidden_actions: f.forbid } : {}),
    ...(f.verify ? { verification_checks: f.verify } : {}),
    ...(f.hiveEligible !== undefined ? { hive_eligible: f.hiveEligible } : {}),
    ...(f.maxPhases !== undefined ? { max_phases: f.maxPhases } : {}),
    ...(prevention ? { prevention } : {}),
    ...(applicability ? { applicability } : {}),
  };
}

/** A --from-file document as read: its text and what to call it in messages. */
export interface LessonDocument {
  text: string;
  name: string;
}

/**
 * Structured fields are parsed by the engine's module (zod, YAML), loaded only when a command writes a lesson.
 * The --category flag may be opencode-swarm's name: the engine stores it as one of ours (core/categories.ts).
 */
export async function lessonInput(lesson: string | undefined, f: AddFlags, doc?: LessonDocument, out?: Output): Promise<LessonInput> {
  const { inputFromFields, parseLessonFile } = await import("../../../governance/structured.js");
  const base = doc ? parseLessonFile(doc.text, doc.name) : {};
  if (base.ignored_keys) {
    out?.note(`note: ${base.ignored_keys.join(", ")} in ${doc?.name === "<stdin>" ? "the document" : path.basename(doc?.name ?? "")} not applied: Cairn keeps a lesson's status, approvals and usage itself (a person approves with cairn approve).`);
  }
  const input = inputFromFields(base, lessonFields(lesson, f));
  return f.category ? { ...input, category: f.category } : input;
}

/** Our categories, or opencode-swarm's names for them; anything else is refused with what is accepted. */
function categoryName(v: string): CategoryName {
  if ((CATEGORY_NAMES as readonly string[]).includes(v)) return v as CategoryName;
  throw new InvalidArgumentError(CATEGORY_CHOICES);
}

/** The lesson options shared by add, promote and supersede (which names what it replaces as an argument). */
export function lessonOptions(cmd: Command, opts: { supersedes?: boolean } = {}): Command {
  cmd
    .addOption(new Option("--category <c>", `category: ${CATEGORIES.join(", ")}; ${LEGACY_CATEGORY_NOTE}`).argParser(categoryName))
    .addOption(new Option("--kind <k>", "kind of lesson").choices(KINDS))
    .option("--tags <a,b>", "comma-separated tags")
    .option("--scope <s>", 'applicability scope: "global" or "stack:<name>"')
    .option("--confidence <n>", "confidence 0..1", confidence)
    .option("--phase <p>", "phase in which it was learned (its first confirmation)")
    .option("--title <t>", "short title (at most 80 characters)")
    .option("--why <text>", "impact if ignored")
    .addOption(new Option("--root-cause <c>", "root-cause category").choices(ROOT_CAUSES))
    .option("--prevention <rule>", "how to prevent a recurrence")
    .option("--detect <pattern>", 'detection pattern: RE2 regex, glob ("src/auth/**") or keywords ("kw: a, b")')
    .option("--guardrail <text>", "a test, lint rule or hook that would enforce the rule")
    .option("--files <globs>", "comma-separated file globs it applies to")
    .option("--stack <a,b>", "comma-separated tech stack it applies to")
    .option("--projects <a,b>", 'comma-separated project names it applies to ("*" for any)')
    .option("--enforce", "advisories from this lesson block the agent's action instead of only warning")
    .option("--no-enforce", "advisories only warn (the default; for supersede, instead of the enforcement the old lesson had)")
    .addOption(new Option("--priority <p>", "how much it matters when it applies (high and critical render as directives)").choices(PRIORITIES))
    .option("--require <action>", "an action an agent must take when it applies (repeatable)", collect)
    .option("--forbid <action>", "an action an agent must not take when it applies (repeatable)", collect)
    .option("--verify <check>", "a check showing the lesson was followed (repeatable)", collect)
    .option("--triggers <a,b>", "comma-separated words or phrases that make it relevant when present")
    .option("--agents <a,b>", "comma-separated agents it is for (others never see it); default every agent")
    .option("--tools <a,b>", "comma-separated tools it is for; default every tool")
    .option("--entities <a,b>", 'comma-separated things it is about, e.g. "feature:auth,service:billing"')
    .option("--hive-eligible", "promote it to the hive automatically once confirmed in enough phases")
    .option("--max-phases <n>", "phase completions it lives before it is archived, used or not (default: knowledge.default_max_phases; promoted lessons never expire)", number);
  if (opts.supersedes !== false) cmd.option("--supersedes <id>", "an older entry this one replaces (retired when this one is accepted)");
  return cmd;
}

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** A plain number; the range is the engine's to check (the same message from every face). */
function number(v: string): number {
  const n = Number(v);
  if (v.trim() === "" || Number.isNaN(n)) throw new InvalidArgumentError("must be a number.");
  return n;
}

type Bounded = { text: string } | { oversize: QualityIssue };

/**
 * A --from-file document, read no further than any lesson may be (a 40 MB file took minutes of gating
 * only to be refused); a folder is named as such (the bare read error said "Cannot read: is a directory").
 */
async function readLessonDocument(fromFile: string): Promise<({ doc: LessonDocument }) | { oversize: QualityIssue }> {
  if (fromFile === "-") {
    const r = await readBounded(0, "standard input", "on standard input");
    return "oversize" in r ? r : { doc: { text: r.text, name: "<stdin>" } };
  }
  const file = path.resolve(fromFile);
  if (fs.statSync(file, { throwIfNoEntry: false })?.isDirectory()) {
    throw new CairnError("IO_ERROR", `Cannot read ${file}: it is a folder; name a YAML or JSON lesson file in it.`, { path: file });
  }
  const fd = fs.openSync(file, "r");
  try {
    const r = await readBounded(fd, file, `in ${file}`);
    return "oversize" in r ? r : { doc: { text: r.text, name: file } };
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * One lesson's input from a file descriptor (standard input, a file, a pipe), read no further than any
 * lesson may be: past that it is refused at once, with the gate's message, instead of after reading (and
 * holding) all of a flood. What a Windows shell pipes may be UTF-16 with a byte-order mark (decodeText).
 */
async function readBounded(fd: number, name: string, where: string): Promise<Bounded> {
  const { HARD_MAX_INPUT_BYTES, oversizeIssue } = await import("../../../quality/structure.js");
  const chunks: Buffer[] = [];
  let total = 0;
  const buf = Buffer.alloc(64 * 1024);
  for (;;) {
    let n: number;
    try {
      n = fs.readSync(fd, buf, 0, buf.length, null);
    } catch (e) {
      // A non-blocking stdin (some terminals and pipes) has nothing yet: wait briefly and read again.
      if ((e as NodeJS.ErrnoException).code === "EAGAIN") { await new Promise((r) => setTimeout(r, 5)); continue; }
      if ((e as NodeJS.ErrnoException).code === "EOF") break;
      throw e;
    }
    if (n === 0) break;
    chunks.push(Buffer.from(buf.subarray(0, n)));
    total += n;
    if (total > HARD_MAX_INPUT_BYTES) return { oversize: oversizeIssue(`over ${HARD_MAX_INPUT_BYTES} bytes ${where}`) };
  }
  return { text: decodeText(Buffer.concat(chunks), name) };
}

export function registerEntryCommands(program: Command): void {
  lessonOptions(
    program
      .command("add")
      .argument("[lesson]", "the lesson, one irreducible insight; `-` reads it from standard input (or give it in --from-file)")
      .description("record a lesson through the quality gates; a near-duplicate reinforces the existing entry"),
  )
    .addOption(new Option("--tier <tier>", "where to store it").choices(TIERS).default("swarm"))
    .option("--from-file <file>", "a YAML or JSON lesson (title, lesson, why, root_cause, prevention, applicability, …), `-` for standard input; flags override it")
    .addHelpText(
      "after",
      `
Exit codes: 0 added or reinforced, 2 rejected.

Examples:
  $ cairn add "Run migrations before seeding the test database" --category testing
  $ cairn add "Pin the Node version in CI to match production" --tags ci,node --tier hive --json
  $ cairn add "Check the session token for null before reading its claims in the auth middleware" \
      --title "Null check at auth token boundaries" --root-cause null_reference \
      --prevention "Return early when the token is missing" --detect 'token\.(claims|payload)' --files 'src/auth/**'
  $ cairn add --from-file lesson.yaml
  $ cairn add - < lesson.txt          (nothing in argv, shell history or npm's debug log)`,
    )
    .action(
      action(async (inv, lesson: string | undefined, flags: AddFlags) => {
        if (lesson === undefined && !flags.fromFile) throw usageError("Give the lesson text, `-` to read it from standard input, or --from-file <file>.");
        if (lesson === "-" && flags.fromFile === "-") throw usageError("Standard input can hold the lesson or the --from-file document, not both.");
        // `-` keeps a lesson (and anything secret a person pasted into it) out of argv, shell history and npm's debug log.
        const piped = lesson === "-" ? await readBounded(0, "standard input", "on standard input") : undefined;
        const document = flags.fromFile ? await readLessonDocument(flags.fromFile) : undefined;
        const oversize = (piped && "oversize" in piped ? piped.oversize : undefined) ?? (document && "oversize" in document ? document.oversize : undefined);
        if (oversize) {
          // Refused as the gate refuses it (same issue, exit 2), without reading the rest of the flood.
          return reportWrite(inv.out, { action: "rejected", tier: flags.tier ?? "swarm", reason: oversize.message, issues: [oversize] });
        }
        const text = piped && "text" in piped ? piped.text.trim() : lesson;
        const input = await lessonInput(text, flags, document && "doc" in document ? document.doc : undefined, inv.out);
        return withCairn(inv, async (cairn) => reportWrite(inv.out, await cairn.add(input, { tier: flags.tier ?? "swarm" })));
      }),
    );

  program
    .command("list")
    .description("list entries, newest first")
    .addOption(new Option("--tier <tier>", "which tier").choices(["all", ...TIERS]).default("all"))
    .option("--status <a,b>", "only these statuses (comma-separated; approved = established and promoted, active = every live one)", nonEmptyList("--status", "statuses, e.g. candidate,established"))
    .addOption(new Option("--category <c>", "only this category").choices(CATEGORIES))
    .option("--limit <n>", "at most n entries", int("--limit", 1), 50)
    .option("--offset <n>", "skip the first n", int("--offset"), 0)
    .option("--flagged", "only entries flagged for review: utility at or below knowledge.low_utility_threshold after enough retrievals")
    .addOption(new Option("--order <order>", "sort order").choices(["newest", "oldest", "confidence"]))
    .addHelpText("after", "\nExamples:\n  $ cairn list --status quarantined\n  $ cairn list --tier hive --limit 20 --json")
    .action(
      action(async (inv, flags: { tier: Tier | "all"; status?: string; category?: Entry["category"]; limit: number; offset: number; flagged?: boolean; order?: "newest" | "oldest" | "confidence" }) =>
        readCairn(inv, async (cairn) => {
          const statuses = parseStatuses(flags.status);
          // A promoted lesson is listed once: its hive copy, naming the project original (`listOnePerLesson`).
          const listed: ListedLesson[] = flags.flagged ? (await cairn.flagged(flags.tier, flags.limit)).map((entry) => ({ entry })) : await cairn.listLessons({
            tier: flags.tier,
            limit: flags.limit,
            offset: flags.offset,
            ...(statuses ? { statuses } : {}),
            ...(flags.category ? { categories: [flags.category] } : {}),
            ...(flags.order ? { order: flags.order } : {}),
          });
          if (inv.out.json) return inv.out.print(listed.map((l) => (l.promoted_from ? { ...l.entry, promoted_from: l.promoted_from } : l.entry)));
          if (listed.length === 0) return inv.out.note("no entries");
          const notes = new Map(listed.flatMap((l) => (l.promoted_from ? [[l.entry.id, `promoted from this project's ${l.promoted_from.handle}`] as const] : [])));
          entryTable(listed.map((l) => l.entry), inv.out, notes).forEach((l) => inv.out.line(l));
        }),
      ),
    );

  program
    .command("show")
    .argument("<id>", "entry id, handle (S-12, H-3) or imported id")
    .description("show one entry and its event history")
    .addHelpText("after", "\nExamples:\n  $ cairn show S-12\n  $ cairn show 0191c3e2-7b1a-7c4e-9f1d-2a3b4c5d6e7f --json")
    .action(
      action(async (inv, ref: string) =>
        readCairn(inv, async (cairn) => {
          const entry = await cairn.shownEntry(await cairn.get(ref));
          const events = await cairn.history(entry.id);
          const links = await cairn.links(entry);
          if (inv.out.json) return inv.out.print({ entry, events, links });
          showEntry(entry, inv.out, links);
          inv.out.line();
          inv.out.line(inv.out.c.bold("history"));
          const handles = await cairn.eventHandles(events);
          for (const ev of events) {
            const data = Object.keys(ev.data).length ? `  ${clean(JSON.stringify(withHandles(ev.data, handles)))}` : "";
            inv.out.line(`  ${ev.at}  ${ev.type.padEnd(11)} ${ev.actor}${data}`);
          }
        }),
      ),
    );

  program
    .command("rejected")
    .description("recent lessons the gates rejected, with the reason (secrets are masked)")
    .addOption(new Option("--tier <tier>", "which tier's list").choices(TIERS).default("swarm"))
    .option("--limit <n>", "at most n", int("--limit", 1), 50)
    .addHelpText("after", "\nExamples:\n  $ cairn rejected\n  $ cairn rejected --tier hive --json")
    .action(
      action(async (inv, flags: { tier: Tier; limit: number }) =>
        readCairn(inv, async (cairn) => {
          const rows = await cairn.rejected(flags.tier, flags.limit);
          if (inv.out.json) return inv.out.print(rows);
          if (rows.length === 0) return inv.out.note("no rejected lessons");
          // The reason is what a person reads here, so it is shown whole; the lesson follows, cut at a word.
          table(
            rows,
            [
              { header: "AT", value: (r) => r.at.slice(0, 19) },
              { header: "SOURCE", value: (r) => r.source },
              { header: "REASON", value: (r) => r.reason, flex: true, wrap: true },
            ],
            inv.out,
            (r) => [inv.out.c.dim(`    ${truncateAtWord(clean(r.lesson), terminalWidth() - 4)}`)],
          ).forEach((l) => inv.out.line(l));
        }),
      ),
    );
}

/** `notes`: a word in brackets before an entry's lesson, by id (the project lesson a hive copy was promoted from). */
export function entryTable(entries: readonly Entry[], out: Output, notes: ReadonlyMap<string, string> = new Map()): string[] {
  return table(
    entries,
    [
      { header: "ID", value: (e) => e.handle },
      { header: "TIER", value: (e) => e.tier },
      { header: "STATUS", value: (e) => e.lifecycle.status, color: (s, e) => statusColor(out, e.lifecycle.status)(s) },
      { header: "CATEGORY", value: (e) => e.category },
      { header: "CONF", value: (e) => e.lifecycle.confidence.toFixed(2) },
      { header: "LESSON", value: (e) => (notes.has(e.id) ? `(${notes.get(e.id)}) ${e.lesson}` : e.lesson), flex: true },
    ],
    out,
  );
}

function showEntry(e: Entry, out: Output, links: EntryLinks): void {
  const { c } = out;
  const row = (k: string, v: string | undefined) => {
    if (v) out.line(`${c.dim(k.padEnd(12))} ${clean(v)}`);
  };
  out.line(`${c.bold(e.handle)}  ${statusColor(out, e.lifecycle.status)(e.lifecycle.status)}  ${e.tier}`);
  out.line(clean(e.lesson));
  out.line();
  row("id", e.id);
  row("title", e.title);
  row("why", e.why);
  row("category", `${e.category} / ${e.kind}`);
  row("scope", e.applicability.scope);
  row("tags", e.tags.join(", "));
  row("confidence", e.lifecycle.confidence.toFixed(2));
  row("confirmed", String(e.lifecycle.confirmations.length));
  row("reason", e.lifecycle.status_reason);
  row("flags", e.lifecycle.flags.join("; "));
  row("supersedes", linkLabel(links.supersedes));
  row("superseded", linkLabel(links.superseded_by));
  row("root cause", e.root_cause);
  row("prevention", e.prevention.rule);
  row("detect", e.prevention.detection_pattern);
  row("guardrail", e.prevention.suggested_guardrail);
  row("files", e.applicability.file_globs.join(", "));
  row("stack", e.applicability.tech_stack.join(", "));
  row("projects", e.applicability.projects.join(", "));
  row("agents", e.applicability.agents.join(", "));
  row("tools", e.applicability.tools.join(", "));
  row("triggers", e.applicability.triggers.join(", "));
  row("entities", e.entities.join(", "));
  row("priority", e.directive.priority !== "medium" ? e.directive.priority : undefined);
  row("must", e.directive.required_actions.join("; "));
  row("must not", e.directive.forbidden_actions.join("; "));
  row("verify", e.directive.verification_checks.join("; "));
  row("enforcement", e.directive.enforcement === "enforce" ? "enforce" : undefined);
  row("hive", e.lifecycle.hive_eligible && e.tier === "swarm" ? "eligible (promoted once confirmed in enough phases)" : undefined);
  row("ttl", e.lifecycle.max_phases !== undefined ? `${e.lifecycle.phases_alive} of ${e.lifecycle.max_phases} phases` : undefined);
  row("created", `${e.created_at} by ${e.provenance.created_by}`);
  row("approved", e.provenance.approved_at ? `${e.provenance.approved_at} by ${e.provenance.approved_by ?? "?"}` : undefined);
  const df = e.provenance.derived_from;
  row("derived from", df.kind !== "manual" || df.ref ? derivedFromLabel(df) : undefined);
  row("session", e.provenance.session_id);
  row("source", e.provenance.source_project_name);
  row("external id", e.provenance.external_id);
  row("usage", `shown ${e.usage.shown}, applied ${e.usage.applied}, helpful ${e.usage.helpful}, harmful ${e.usage.harmful}`);
  row("advisories", e.usage.consulted || e.usage.prevented ? `consulted ${e.usage.consulted}, prevented ${e.usage.prevented}${e.usage.last_consulted_at ? `, last ${e.usage.last_consulted_at}` : ""}` : undefined);
}
