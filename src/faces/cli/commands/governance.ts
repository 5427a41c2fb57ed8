// Governance commands: review, approve, reject, mirror, check, guardrail, related, and `stats --governance`.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Command } from "commander";
import { linkLabel, type EntryLinks } from "../../../core/entry-links.js";
import type { Entry } from "../../../core/entry.js";
import type { Cairn } from "../../../engine.js";
import { assertHuman } from "../../../governance/actors.js";
import type { GovernanceMetrics } from "../../../governance/metrics.js";
import type { ApprovalConsent } from "../../../governance/mirror.js";
import type { ReviewReason } from "../../../governance/queue.js";
import { describeApproval, type ApprovalResult } from "../../../governance/approval.js";
import { action, readCairn, int, withCairn, type Invocation } from "../context.js";
import { EXIT, usageError } from "../errors.js";
import { clean, list, type Output } from "../format.js";

function approvalJson(r: ApprovalResult): Record<string, unknown> {
  const e = r.entry;
  return {
    id: e.id,
    handle: e.handle,
    status: e.lifecycle.status,
    approved_by: e.provenance.approved_by ?? null,
    approved_at: e.provenance.approved_at ?? null,
    ...(r.superseded ? { superseded: r.superseded.handle } : {}),
    ...(r.notReplaced ? { not_replaced: r.notReplaced.handle } : {}),
  };
}


function printDraft(out: Output, e: Entry, links: EntryLinks): void {
  const { c } = out;
  out.line();
  out.line(`${c.bold(e.handle)}  ${c.yellow(e.lifecycle.status)}  ${e.tier}  by ${clean(e.provenance.created_by)}  ${e.created_at.slice(0, 19)}`);
  if (e.title) out.line(c.bold(clean(e.title)));
  out.line(clean(e.lesson));
  const row = (k: string, v: string | undefined) => v && out.line(`  ${c.dim(k.padEnd(11))} ${clean(v)}`);
  row("why", e.why);
  row("root cause", e.root_cause);
  row("prevention", e.prevention.rule);
  row("detect", e.prevention.detection_pattern);
  row("guardrail", e.prevention.suggested_guardrail);
  row("files", e.applicability.file_globs.join(", "));
  row("tags", e.tags.join(", "));
  row("supersedes", linkLabel(links.supersedes));
  row("flags", e.lifecycle.flags.join("; "));
}

/** $VISUAL/$EDITOR may carry arguments ("code -w"), so it runs through the shell with the path quoted. */
function editInEditor(text: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cairn-review-"));
  const file = path.join(dir, "lesson.yaml");
  try {
    fs.writeFileSync(file, text);
    const editor = process.env.VISUAL || process.env.EDITOR || (process.platform === "win32" ? "notepad" : "vi");
    const r = spawnSync(`${editor} "${file.replace(/"/g, '\\"')}"`, { stdio: "inherit", shell: true });
    if (r.status !== 0) throw usageError(`The editor (${editor}) exited with ${r.status ?? r.signal}; nothing was changed.`);
    return fs.readFileSync(file, "utf8");
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function reasonLabel(r: ReviewReason): string {
  if (r.kind === "draft") return "draft";
  if (r.kind === "contradiction") return `contradicts ${r.with.length}`;
  if (r.kind === "quarantine_request") return `quarantine requested (${r.requests.length})`;
  if (r.kind === "origin_superseded") return "origin superseded";
  if (r.kind === "silenced") return `silenced (${+r.harmful.toFixed(1)} harmful, ${+r.helpful.toFixed(1)} helpful)`;
  return `low utility ${Math.round(r.utility * 100)}%`;
}

/** What a person reads under an item: the words behind each reason that has some. */
function reasonDetails(r: ReviewReason): string[] {
  if (r.kind === "origin_superseded") return [r.note];
  if (r.kind === "quarantine_request") return r.requests;
  return [];
}

/** `cairn review --list` / `--json`: the whole review queue, every reason, without prompting. */
async function listQueue(inv: Invocation, limit: number): Promise<number> {
  return readCairn(inv, async (cairn) => {
    const queue = await cairn.reviewQueue({ limit, actor: inv.actor });
    if (queue.hive_unreachable) inv.out.warn(`cairn: ${queue.hive_unreachable}`);
    if (inv.out.json) {
      inv.out.print(queue);
      return EXIT.OK;
    }
    const n = queue.counts;
    inv.out.line(
      `review queue: ${n.drafts} drafts, ${n.contradictions} contradictions, ${n.quarantine_requests} quarantine requests, ${n.origin_superseded} origin superseded, ${n.silenced} silenced, ${n.low_utility} low utility`,
    );
    const { c } = inv.out;
    for (const { entry: e, reasons } of queue.items) {
      inv.out.line(`${c.bold(e.handle)}  ${e.tier}  ${e.lifecycle.status}  ${reasons.map(reasonLabel).join(", ")}  ${clean(e.title ?? e.lesson).slice(0, 90)}`);
      for (const d of reasons.flatMap(reasonDetails)) inv.out.line(`  ${c.dim(clean(d))}`);
    }
    return EXIT.OK;
  });
}

/** Before the drafts: hive lessons their origin project superseded, for a person to decide for the hive. */
async function printOriginSuperseded(inv: Invocation, cairn: Cairn): Promise<void> {
  const queue = await cairn.reviewQueue({ limit: 200, actor: inv.actor });
  for (const { entry: e, reasons } of queue.items) {
    for (const r of reasons) {
      if (r.kind !== "origin_superseded") continue;
      inv.out.line(`${inv.out.c.bold(e.handle)}  ${e.tier}  ${e.lifecycle.status}  origin superseded: ${clean(r.note)}`);
      inv.out.line(`  decide for the hive: \`cairn supersede ${e.handle} <new lesson>\`, \`cairn archive ${e.handle}\`, or keep it: \`cairn approve ${e.handle}\``);
    }
  }
}

/**
 * Which approvals found by `mirror --pull` the person confirms: --approve (all, or the named ones); else,
 * in a terminal and without --json, a question per lesson, default No; else none (held).
 */
async function approvalConsent(inv: Invocation, flag: boolean | string | undefined): Promise<ApprovalConsent | undefined> {
  if (flag === true) return true;
  if (typeof flag === "string") return list(flag);
  if (inv.out.json || !process.stdin.isTTY || !process.stdout.isTTY) return undefined;
  const { confirm } = await import("@inquirer/prompts");
  return (h) =>
    confirm({
      message: `Approve ${h.handle} as ${inv.actor}? ${h.file} asks for it${h.fields.length ? `, with edits to ${h.fields.join(", ")}` : ""}${h.title ? ` — "${clean(h.title)}"` : ""}`,
      default: false,
    });
}

async function review(inv: Invocation, flags: { limit: number; list?: boolean }): Promise<number> {
  // Before the terminal check, so an agent's shell gets the real reason, not "needs a terminal".
  assertHuman(inv.actor, "review drafts");
  if (flags.list || inv.out.json) return listQueue(inv, flags.limit);
  if (!process.stdin.isTTY || !process.stdout.isTTY) {
    throw usageError(
      "`cairn review` is interactive and needs a terminal. Use `cairn review --list` (or --json) to see the queue, and `cairn approve <id>` or `cairn reject <id> [reason]` to decide.",
    );
  }
  const { select, input } = await import("@inquirer/prompts");
  const { completeFields, documentYaml, parseLessonFile } = await import("../../../governance/structured.js");
  const { editBasis } = await import("../../../governance/edit-basis.js");
  return withCairn(inv, async (cairn) => {
    await printOriginSuperseded(inv, cairn);
    const drafts = await cairn.list({ statuses: ["draft"], order: "oldest", limit: flags.limit });
    if (drafts.length === 0) {
      inv.out.line("no drafts waiting for review");
      return EXIT.OK;
    }
    const tally = { approved: 0, rejected: 0, edited: 0, skipped: 0 };
    try {
      for (let e of drafts) {
        printDraft(inv.out, e, await cairn.links(e));
        for (;;) {
          const choice = await select({
            message: `${e.handle}: what now?`,
            choices: [
              { name: "approve", value: "approve" },
              { name: "edit in $EDITOR", value: "edit" },
              { name: "reject", value: "reject" },
              { name: "skip", value: "skip" },
              { name: "quit", value: "quit" },
            ],
          });
          if (choice === "quit") return summary(inv, tally, drafts.length);
          if (choice === "skip") {
            tally.skipped++;
            break;
          }
          if (choice === "approve") {
            const r = await cairn.approve(e.id);
            inv.out.line(describeApproval(r));
            tally.approved++;
            break;
          }
          if (choice === "reject") {
            const reason = await input({ message: "Reason (optional):" });
            const r = await cairn.reject(e.id, reason);
            inv.out.line(`rejected ${r.handle} (archived)`);
            tally.rejected++;
            break;
          }
          try {
            const before = documentYaml(e);
            const after = editInEditor(before);
            if (after === before) {
              inv.out.note("no change");
              continue;
            }
            // The editor may stay open for minutes: a change someone made meanwhile is reported, not overwritten.
            const r = await cairn.edit(e.id, completeFields(parseLessonFile(after, "lesson.yaml")), inv.actor, "review", { basis: editBasis(e) });
            e = r.entry;
            if (r.changed.length) tally.edited++;
            inv.out.line(r.changed.length ? `updated ${e.handle}: ${r.changed.join(", ")}` : "no change");
            for (const w of r.warnings) inv.out.warn(`warning: ${w}`);
            printDraft(inv.out, e, await cairn.links(e));
          } catch (err) {
            inv.out.error(`error: ${(err as Error).message}`);
          }
        }
      }
    } catch (err) {
      // Ctrl-C inside a prompt: stop quietly, keeping what was decided so far.
      if ((err as Error).name !== "ExitPromptError") throw err;
    }
    return summary(inv, tally, drafts.length);
  });
}

function summary(inv: Invocation, t: Record<string, number>, total: number): number {
  inv.out.line(`\nreviewed ${total} draft(s): approved ${t.approved}, rejected ${t.rejected}, edited ${t.edited}, skipped ${t.skipped}`);
  return EXIT.OK;
}

const pct = (x: number | null) => (x === null ? "—" : `${Math.round(x * 100)}%`);
const num = (x: number | null) => (x === null ? "—" : x.toFixed(2));
const dur = (ms: number | null) => (ms === null ? "—" : ms < 60_000 ? `${Math.round(ms / 1000)}s` : ms < 3_600_000 ? `${(ms / 60_000).toFixed(1)} min` : `${(ms / 3_600_000).toFixed(1)} h`);

/** `cairn stats --governance`: the document's success metrics against their targets. */
export async function printGovernanceStats(inv: Invocation, cairn: Cairn): Promise<void> {
  const { METRIC_TARGETS } = await import("../../../governance/metrics.js");
  const m: GovernanceMetrics = await cairn.governanceStats();
  if (inv.out.json) return inv.out.print({ ...m, targets: METRIC_TARGETS });
  const rows: Array<[string, string, string, string]> = [
    ["lessons per resolved task", num(m.lessons_per_resolved_task), `${m.lessons} lessons / ${m.resolved_tasks} successful outcomes`, METRIC_TARGETS.lessons_per_resolved_task],
    ["approval rate", pct(m.approval_rate), `${m.approvals} approved, ${m.rejections} rejected, ${m.drafts_pending} pending`, METRIC_TARGETS.approval_rate],
    ["consultations per lesson", num(m.mean_consultations_per_lesson), `${m.consultations} over ${m.vetted_lessons} established/promoted`, METRIC_TARGETS.mean_consultations_per_lesson],
    ["prevented (total)", String(m.prevented_total), "", METRIC_TARGETS.prevented_total],
    ["median time to approve", dur(m.median_time_to_approve_ms), "", METRIC_TARGETS.median_time_to_approve_ms],
  ];
  inv.out.line(inv.out.c.bold("governance (Knowledge Objects success metrics)"));
  for (const [k, v, detail, target] of rows) inv.out.line(`  ${k.padEnd(26)} ${v.padStart(7)}   target ${target.padEnd(8)} ${inv.out.c.dim(detail)}`);
}

export function registerGovernanceCommands(program: Command): void {
  program
    .command("review")
    .description("walk the draft queue in the terminal: approve, edit in $EDITOR, reject or skip each")
    .option("--limit <n>", "at most n drafts, oldest first", int("--limit", 1), 200)
    .option("--list", "print the whole review queue (drafts, contradictions, quarantine requests, hive lessons their origin superseded, low utility) instead of walking it; --json prints it as JSON")
    .addHelpText("after", "\nWalking the queue needs a terminal; scripts use `cairn review --list` / `--json`, then `cairn approve` / `cairn reject`.\n\nExamples:\n  $ cairn review\n  $ EDITOR=nano cairn review\n  $ cairn review --list")
    .action(action(review));

  program
    .command("approve")
    .argument("<ids...>", "entry ids or handles (S-12, H-3)")
    .description("approve lessons (people only): established, approved_by/at recorded, what they supersede retired")
    .addHelpText("after", "\nExit codes: 0 approved, 3 not found, 4 not approvable (retired), 1 refused (not a human:* actor).\n\nExamples:\n  $ cairn approve S-12\n  $ cairn approve S-12 S-13 --json")
    .action(
      action(async (inv, ids: string[]) =>
        withCairn(inv, async (cairn) => {
          const done = [];
          for (const r of await cairn.approveAll(ids)) {
            done.push(approvalJson(r));
            if (!inv.out.json) {
              inv.out.line(
                r.unchanged
                  ? `${r.entry.handle} was already approved (by ${r.entry.provenance.approved_by ?? "?"})`
                  : describeApproval(r),
              );
            }
          }
          if (inv.out.json) inv.out.print({ approved: done });
        }),
      ),
    );

  program
    .command("reject")
    .argument("<id>", "entry id or handle")
    .argument("[reason]", "why (kept on the entry and in the event log)")
    .description("reject a draft or candidate lesson (people only): it is archived with the reason and counted in the approval rate")
    .addHelpText("after", '\nExamples:\n  $ cairn reject S-14 "too specific to one bug"')
    .action(
      action(async (inv, id: string, reason?: string) =>
        withCairn(inv, async (cairn) => {
          const e = await cairn.reject(id, reason);
          if (inv.out.json) return inv.out.print({ id: e.id, handle: e.handle, status: e.lifecycle.status, reason: e.lifecycle.status_reason ?? null });
          inv.out.line(`rejected ${e.handle} (archived)`);
        }),
      ),
    );

  program
    .command("mirror")
    .description("rebuild the Markdown mirror (governance.mirror.dir), or --pull edits made in it back into the database")
    .option("--pull", "apply edits made in the Markdown files (validated; conflicts with newer database versions are reported, not applied)")
    .option("--force", "rebuild over files holding edits or moves not yet pulled (they are kept and listed otherwise)")
    .option("--approve [ids]", "with --pull: apply the approvals found in the files (`status: approved`, a move into approved/) — all, or only these handles or ids (comma-separated)")
    .addHelpText(
      "after",
      "\nFolders: approved/ (established, promoted), candidates/, drafts/, archived/ (archived, superseded, quarantined).\n" +
        "A rebuild leaves a file you edited or moved and have not pulled as it is, and lists it; --force overwrites it.\n" +
        "An approval found in a file (anyone who can write there may have put it) is applied only when you confirm it:\n" +
        "with --approve, or by answering yes when asked (in a terminal, without --json). Otherwise it is held: the file\n" +
        "stays as it is, the rest of the pull applies, and the report names the command that applies it\n(cairn mirror --pull --approve <id>).\n" +
        "Exit codes with --pull: 0 applied or nothing to do, 2 a file was invalid, 4 a conflict or a held approval.\n\n" +
        "Examples:\n  $ cairn mirror\n  $ cairn mirror --pull --json\n  $ cairn mirror --pull --approve S-7,S-9\n  $ cairn mirror --force",
    )
    .action(
      action(async (inv, flags: { pull?: boolean; force?: boolean; approve?: boolean | string }) =>
        withCairn(inv, async (cairn) => {
          if (flags.approve !== undefined && !flags.pull) throw usageError("--approve applies approvals found by `cairn mirror --pull`; add --pull.");
          if (!flags.pull) {
            const r = await cairn.rebuildMirror({ force: Boolean(flags.force) });
            if (inv.out.json) return inv.out.print(r);
            for (const k of r.kept) inv.out.warn(`kept ${k.file}: ${k.reason} and not pulled yet (cairn mirror --pull applies it; --force overwrites it)`);
            inv.out.line(`mirror ${r.dir}: ${r.written} written, ${r.unchanged} unchanged, ${r.removed} removed${r.kept.length ? `, ${r.kept.length} kept` : ""}`);
            return EXIT.OK;
          }
          const r = await cairn.pullMirror({ approve: await approvalConsent(inv, flags.approve) });
          if (inv.out.json) inv.out.print(r);
          else {
            for (const a of r.applied) {
              inv.out.line(`applied ${a.handle}: ${[...a.fields, ...(a.status ? [`status → ${a.status}`] : [])].join(", ") || "no field changed"}`);
              for (const w of a.warnings ?? []) inv.out.warn(`warning ${a.handle}: ${w}`);
            }
            for (const h of r.held) {
              // Not `cairn approve`: the file, still edited, would then conflict with the approved lesson at every pull.
              inv.out.warn(`held ${h.handle} (${h.file}): asks for approval, not confirmed, so nothing of it was applied; to approve it with the file's edits: \`cairn mirror --pull --approve ${h.handle}\``);
            }
            for (const c of r.conflicts) inv.out.warn(`conflict ${c.handle} (${c.file}): ${c.reason}`);
            for (const e of r.errors) inv.out.error(`error ${e.file}: ${e.message}`);
            inv.out.line(
              `pulled from ${r.dir}: ${r.applied.length} applied, ${r.held.length ? `${r.held.length} held, ` : ""}${r.unchanged} unchanged, ${r.conflicts.length} conflicts, ${r.errors.length} errors`,
            );
          }
          return r.errors.length ? EXIT.USAGE : r.conflicts.length || r.held.length ? EXIT.CONFLICT : EXIT.OK;
        }),
      ),
    );

  program
    .command("check")
    .description("which vetted lessons apply before touching files or writing text (what agents see as advisories)")
    .option("--files <a,b>", "comma-separated paths, relative to the project")
    .option("--text <text>", "the new content or command to match detection patterns against")
    .option("--tool <name>", "the tool about to run (edit, write, bash, …)")
    .addHelpText("after", "\nAlways exits 0 (advisories inform, they do not fail). A person's check is not counted as a consultation.\n\nExamples:\n  $ cairn check --files src/auth/session.ts\n  $ cairn check --text 'const c = token.claims' --json")
    .action(
      action(async (inv, flags: { files?: string; text?: string; tool?: string }) => {
        const files = list(flags.files) ?? [];
        if (flags.text === "") throw usageError("--text is empty: give the content or command to match, e.g. --text 'const c = token.claims'.");
        if (flags.files !== undefined && !files.length) throw usageError("--files names no file: give comma-separated paths, e.g. --files src/auth/session.ts.");
        if (!files.length && !flags.text) throw usageError("Give --files, --text, or both.");
        return readCairn(inv, async (cairn) => {
          const advisories = await cairn.checkAdvisories({ files, ...(flags.text ? { text: flags.text } : {}), ...(flags.tool ? { tool: flags.tool } : {}) });
          if (inv.out.json) return inv.out.print({ count: advisories.length, blocking: advisories.some((a) => a.enforcement === "enforce"), advisories });
          if (!advisories.length) return inv.out.note("no advisories");
          for (const a of advisories) {
            const flag = a.enforcement === "enforce" ? inv.out.c.red(" [enforced]") : "";
            inv.out.line(`${inv.out.c.bold(a.handle)}${flag} ${clean(a.title ?? "")}`.trimEnd());
            inv.out.line(`  rule     ${clean(a.rule)}`);
            if (a.why) inv.out.line(`  why      ${clean(a.why)}`);
            inv.out.line(`  matched  ${a.matched === "glob" ? `file ${clean(a.on)}` : `${a.on} pattern`}`);
          }
        });
      }),
    );

  program
    .command("guardrail")
    .argument("<id>", "entry id or handle")
    .description("write a guardrail proposal (.swarm/guardrails/<handle>-<slug>.md) from the entry's suggested guardrail")
    .option("--force", "overwrite an existing proposal")
    .addHelpText("after", "\nExit codes: 0 written, 2 the entry has no suggested guardrail, 4 the file exists (use --force).\n\nExamples:\n  $ cairn guardrail S-12")
    .action(
      action(async (inv, id: string, flags: { force?: boolean }) =>
        withCairn(inv, async (cairn) => {
          const r = await cairn.proposeGuardrail(id, { force: Boolean(flags.force) });
          if (inv.out.json) return inv.out.print(r);
          inv.out.line(`${r.overwritten ? "rewrote" : "wrote"} ${r.file} (${r.guardrail_type} guardrail from ${r.entry.handle})`);
        }),
      ),
    );

  program
    .command("related")
    .description("vetted lessons that apply to files (glob match) and tags (overlap) for this project")
    .option("--files <a,b>", "comma-separated paths")
    .option("--tags <a,b>", "comma-separated tags")
    .option("--limit <n>", "at most n", int("--limit", 1), 10)
    .addHelpText("after", "\nExamples:\n  $ cairn related --files src/auth/session.ts --tags auth,jwt\n  $ cairn related --tags auth --json")
    .action(
      action(async (inv, flags: { files?: string; tags?: string; limit: number }) => {
        const files = list(flags.files) ?? [];
        const tags = list(flags.tags) ?? [];
        if (!files.length && !tags.length) throw usageError("Give --files, --tags, or both.");
        return readCairn(inv, async (cairn) => {
          const hits = await cairn.related({ files, tags, limit: flags.limit });
          if (inv.out.json) return inv.out.print(hits.map((h) => ({ entry: h.entry, reasons: h.reasons })));
          if (!hits.length) return inv.out.note("no related lessons");
          for (const h of hits) inv.out.line(`${inv.out.c.bold(h.entry.handle)}  ${clean(h.entry.title ?? h.entry.lesson).slice(0, 100)}  ${inv.out.c.dim(h.reasons.join(", "))}`);
        });
      }),
    );
}
