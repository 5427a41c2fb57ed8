// Status commands: quarantine, restore, archive, remove, promote, supersede, feedback, sweep.
import { nonEmpty } from "../non-empty.js";
import { Argument, type Command } from "commander";
import type { Entry } from "../../../core/entry.js";
import { VERDICTS, type Verdict } from "../../../core/enums.js";
import type { PromotionResult } from "../../../lifecycle/promote.js";
import type { StatusChange } from "../../../lifecycle/status.js";
import { action, withCairn, type Invocation } from "../context.js";
import { EXIT, usageError } from "../errors.js";
import { lessonInput, lessonOptions, reportWrite } from "./entries.js";

/** One-line confirmation of a status change, or the updated entry as JSON. */
function changed(inv: Invocation, verb: string, e: StatusChange): void {
  if (inv.out.json) return inv.out.print(e);
  inv.out.line(`${verb} ${e.handle} (${e.lifecycle.status})`);
  // A hive copy takes this project's original with it; a promoted original takes its hive copy.
  const which = e.tier === "hive" ? (h: string) => `this project's original ${h} it was promoted from` : (h: string) => `its hive copy ${h}`;
  for (const a of e.also ?? []) inv.out.line(`  and ${which(a.handle)} (${a.status})`);
}

function simple(program: Command, name: string, description: string, example: string): Command {
  return program
    .command(name)
    .argument("<id>", "entry id, handle (S-12, H-3) or imported id")
    .description(description)
    .addHelpText("after", `\nExamples:\n  ${example}`);
}

export function registerLifecycleCommands(program: Command): void {
  simple(program, "quarantine", "hide an entry from every agent until a person restores it", '$ cairn quarantine S-12 "gives unsafe advice"')
    .argument("[reason]", "why")
    .action(
      action(async (inv, ref: string, reason?: string) =>
        withCairn(inv, async (c) => {
          const e = await c.quarantine(ref, reason ?? "");
          // The engine keeps a lesson a person approved in use and records an agent's call as a request.
          if (e.lifecycle.status === "quarantined" || inv.out.json) return changed(inv, "quarantined", e);
          inv.out.line(`requested quarantine of ${e.handle} (${e.lifecycle.status}): a person approved it, so it stays in use until a person confirms (cairn quarantine ${e.handle}) or dismisses (cairn approve ${e.handle}) the request`);
        }),
      ),
    );

  simple(program, "restore", "bring back a quarantined, archived or superseded entry (it is validated again; a superseded one is unlinked from its replacement)", "$ cairn restore S-12")
    .action(action(async (inv, ref: string) => withCairn(inv, async (c) => changed(inv, "restored", await c.restore(ref)))));

  simple(program, "archive", "retire an entry (kept for history, no longer shown)", '$ cairn archive S-12 "no longer true after the v2 migration"')
    .argument("[reason]", "why")
    .action(action(async (inv, ref: string, reason?: string) => withCairn(inv, async (c) => changed(inv, "archived", await c.archive(ref, reason)))));

  simple(program, "remove", "delete an entry; promoted or approved entries need --force", "$ cairn remove S-12\n  $ cairn remove H-3 --force")
    .option("--force", "remove even a promoted or approved entry")
    .option("--reason <text>", "why (kept in the event log)")
    .addHelpText("after", "\nExit code 4 when --force is required.")
    .action(
      action(async (inv, ref: string, flags: { force?: boolean; reason?: string }) =>
        withCairn(inv, async (c) => {
          const e = await c.remove(ref, { ...(flags.force ? { force: true } : {}), ...(flags.reason ? { reason: flags.reason } : {}) });
          if (inv.out.json) inv.out.print({ removed: true, id: e.id, handle: e.handle, tier: e.tier, ...(e.also?.length ? { also: e.also } : {}), ...(e.stillSuperseded ? { still_superseded: e.stillSuperseded } : {}) });
          else {
            inv.out.line(`removed ${e.handle}`);
            for (const a of e.also ?? []) inv.out.line(`  and this project's original ${a.handle} it was promoted from (${a.status})`);
            const old = e.stillSuperseded?.handle;
            if (old) inv.out.line(`  ${old}, which ${e.handle} replaced, stays superseded: \`cairn restore ${old}\` brings it back`);
          }
        }),
      ),
    );

  lessonOptions(
    program
      .command("promote")
      .argument("[text]", "a new lesson to add straight to the hive, or an entry's id or handle (S-12) to promote that entry")
      .description("promote a swarm entry (--from-swarm) or a new lesson text to the cross-project hive")
      .option("--from-swarm <id>", "the swarm entry to promote"),
  )
    .addHelpText(
      "after",
      `
Exit codes: 0 promoted or reinforced, 2 rejected by the hive gate, 3 no such entry, 4 already in the hive.

Examples:
  $ cairn promote --from-swarm S-12      (also: cairn promote S-12)
  $ cairn promote "Always set busy_timeout on SQLite connections" --category tooling`,
    )
    .action(
      action(async (inv, text: string | undefined, flags: Parameters<typeof lessonInput>[1] & { fromSwarm?: string }) => {
        if (Boolean(text) === Boolean(flags.fromSwarm)) throw usageError("Give either a lesson text or --from-swarm <id>, not both or neither.");
        // An id or handle given as the text promotes that entry (the engine's rule).
        return withCairn(inv, async (c) => {
          const r: PromotionResult = await c.promote(flags.fromSwarm ? { id: flags.fromSwarm } : { lesson: await lessonInput(text!, flags) });
          return reportWrite(inv.out, r, { route: r.route, ...(r.from ? { from: r.from } : {}) });
        });
      }),
    );

  lessonOptions(
    program
      .command("supersede")
      .argument("<old-id>", "the entry being replaced")
      .argument("<new-id-or-text>", "an existing entry's id, or the text of a new lesson (anything with a space)")
      .description("mark an entry superseded by another (existing or new) entry"),
    { supersedes: false },
  )
    .addHelpText("after", '\nExamples:\n  $ cairn supersede S-3 S-9\n  $ cairn supersede S-3 "Use the v2 token endpoint; v1 was removed in March"')
    .action(
      action(async (inv, oldRef: string, replacement: string, flags: Parameters<typeof lessonInput>[1]) =>
        withCairn(inv, async (c) => {
          // A lesson always has spaces; an id never does.
          const what = /\s/.test(replacement.trim()) ? await lessonInput(replacement, flags) : replacement;
          const r = await c.supersede(oldRef, what);
          if (inv.out.json) return inv.out.print(r);
          // A lesson people vouched for is retired only by a person: an agent's replacement waits as a draft.
          if (r.old.lifecycle.status === "superseded") inv.out.line(`${r.old.handle} superseded by ${r.replacement.handle}`);
          else inv.out.line(`${r.replacement.handle} (${r.replacement.lifecycle.status}) will supersede ${r.old.handle} once a person approves it`);
        }),
      ),
    );

  program
    .command("feedback")
    .argument("<id>", "entry id or handle")
    .addArgument(new Argument("<verdict>", "what happened").choices(VERDICTS))
    .argument("[note]", "a short note")
    .description("record whether a lesson was applied, ignored, violated, helpful or harmful")
    .addHelpText("after", '\nExamples:\n  $ cairn feedback S-12 helpful\n  $ cairn feedback S-12 violated "coder skipped the null check again"')
    .action(
      action(async (inv, ref: string, verdict: Verdict, note?: string) =>
        withCairn(inv, async (c) => changed(inv, `recorded ${verdict} for`, await c.feedback(ref, verdict, note))),
      ),
    );

  program
    .command("sweep")
    .description("age entries one phase and archive (or, for todos, remove) the expired ones")
    .option("--phase <name>", "the phase that just completed (kept in the event log)", nonEmpty("--phase", "the name of the phase that completed"))
    .option("--promote", "also run phase completion's automatic promotions to the hive")
    .addHelpText("after", '\nExamples:\n  $ cairn sweep --phase "Phase 3: API"\n  $ cairn sweep --promote --json')
    .action(
      action(async (inv, flags: { phase?: string; promote?: boolean }) =>
        withCairn(inv, async (c) => {
          const report = flags.promote
            ? await c.completePhase(flags.phase, inv.actor)
            : { sweep: await c.sweep({ ...(flags.phase ? { phase: flags.phase } : {}), actor: inv.actor }) };
          if (inv.out.json) return inv.out.print(report);
          const skipped = report.sweep.find((t) => t.skipped)?.skipped;
          if (skipped) {
            inv.out.line(`skipped: ${skipped}`);
            return EXIT.OK;
          }
          for (const t of report.sweep) {
            inv.out.line(`${t.tier}: aged ${t.aged}, archived ${t.archived.length}, removed ${t.removed.length}, kept evergreen ${t.kept_evergreen.length}`);
          }
          if ("promotions" in report) {
            const ok = report.promotions.filter((p) => p.action !== "rejected");
            inv.out.line(`promoted ${ok.length} of ${report.promotions.length} due`);
            for (const p of report.promotions.filter((x) => x.action === "rejected")) inv.out.warn(`not promoted: ${p.reason ?? ""}`);
          }
          return EXIT.OK;
        }),
      ),
    );
}
