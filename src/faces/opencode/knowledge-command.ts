// `/swarm knowledge …`: add, list, search, quarantine, restore, migrate, stats — a person's way into the knowledge base.
import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { LIVE_STATUSES, type Entry } from "../../core/entry.js";
import { makeFolder } from "../../core/folders.js";
import { platformDataDir } from "../../config.js";
import type { LessonInput } from "../../core/categories.js";
import type { Cairn } from "../../engine.js";
import type { ListedLesson } from "../../governance/list-tiers.js";
import { sanitizeForPrompt } from "../../quality/sanitize.js";
import { cautionOf } from "../../retrieval/render.js";
import type { PluginState } from "./state.js";

export const HUMAN_ACTOR = "human:opencode";
const LIST_LIMIT = 25;

export function entryLine(e: Entry, note?: string): string {
  const caution = cautionOf(e);
  return `- [${e.handle}] (${e.tier}/${e.lifecycle.status}/${e.category}${note ? `; ${note}` : ""}) ${caution ? `${caution}: ` : ""}${sanitizeForPrompt(e.lesson, 160)}`;
}

/** Where opencode-swarm kept the user's hive: next to ours, under its own name. */
function legacyHiveDir(env: NodeJS.ProcessEnv): string {
  const dir = path.join(path.dirname(platformDataDir(env)), "opencode-swarm");
  return process.platform === "win32" ? path.join(dir, "Data") : dir;
}

async function migrate(state: PluginState, cairn: Cairn, force: boolean): Promise<string> {
  const swarm = (n: string) => state.swarmPath(n);
  const candidates = [
    swarm("context.md"),
    swarm("knowledge.jsonl"),
    swarm("knowledge-rejected.jsonl"),
    path.join(legacyHiveDir(process.env), "shared-learnings.jsonl"),
    path.join(legacyHiveDir(process.env), "shared-learnings-rejected.jsonl"),
    path.join(legacyHiveDir(process.env), "hive-knowledge.jsonl"),
  ];
  const markerFile = swarm(".cairn-migrated.json");
  let done: Record<string, string> = {};
  try {
    done = JSON.parse(await fs.readFile(markerFile, "utf8")) as Record<string, string>;
  } catch {
    // First migration.
  }
  const lines: string[] = [];
  // opencode-swarm's own migration copies context.md into knowledge.jsonl and leaves this marker: both
  // imported, each of those lessons would confirm itself once more.
  const migratedByThem = await fs.access(swarm(".knowledge-migrated")).then(() => true, () => false);
  for (const file of candidates) {
    if (migratedByThem && !force && file === swarm("context.md")) {
      lines.push(`- ${path.relative(state.directory, file)}: skipped, opencode-swarm already migrated it into knowledge.jsonl (its .swarm/.knowledge-migrated marker; \`migrate --force\` imports it anyway)`);
      continue;
    }
    let text: string;
    try {
      text = await fs.readFile(file, "utf8");
    } catch {
      continue;
    }
    const h = createHash("sha1").update(text).digest("hex");
    const label = file.startsWith(state.directory) ? path.relative(state.directory, file) : file;
    // Re-importing would reinforce every entry again, inflating confirmations: unchanged files are skipped.
    if (done[file] === h && !force) {
      lines.push(`- ${label}: already migrated (use \`migrate --force\` to run again)`);
      continue;
    }
    const r = await cairn.importFile(file, { actor: HUMAN_ACTOR });
    done[file] = h;
    const bad = r.skipped_lines.length ? `, ${r.skipped_lines.length} unreadable line(s): ${r.skipped_lines.slice(0, 3).map((b) => `line ${b.line}`).join(", ")}` : "";
    lines.push(`- ${label}: ${r.imported} imported, ${r.reinforced} merged into existing, ${r.rejected} rejected${bad}`);
  }
  if (!lines.length) return `Nothing to migrate: none of ${candidates.map((c) => path.basename(c)).join(", ")} exist.`;
  makeFolder(path.dirname(markerFile));
  await fs.writeFile(markerFile, JSON.stringify(done, null, 2));
  return ["Migration from opencode-swarm files:", ...lines].join("\n");
}

async function stats(cairn: Cairn): Promise<string> {
  const s = await cairn.stats();
  // The name is the folder's (or the git remote's) and may hold anything; this answer is in the model's message.
  const lines = [`Knowledge for ${sanitizeForPrompt(s.project.name, 80)}:`];
  for (const t of s.tiers) {
    const by = Object.entries(t.by_status).map(([k, v]) => `${k} ${v}`).join(", ") || "empty";
    lines.push(`- ${t.tier}: ${t.total} entries (${by}); shown ${t.shown}×, applied ${t.applied}×; ${t.rejected_recent} rejected lessons on record`);
  }
  return lines.join("\n");
}

/** The CLI's lesson flags a person may add to `knowledge add` and `promote` text (each takes the next word). */
const LESSON_FLAGS = ["--category", "--tags", "--scope"] as const;

export interface LessonArgs {
  text: string;
  fields: { category?: string; tags?: string[]; scope?: string };
}

/**
 * `add`/`promote` words with `--category c`, `--tags a,b` and `--scope s` taken out (any other word,
 * `--frozen-lockfile` included, stays in the lesson). Undefined when one of them has no value.
 */
export function lessonArgs(args: readonly string[]): LessonArgs | undefined {
  const words: string[] = [];
  const fields: LessonArgs["fields"] = {};
  for (let i = 0; i < args.length; i++) {
    const flag = LESSON_FLAGS.find((f) => f === args[i]);
    if (!flag) {
      words.push(args[i]!);
      continue;
    }
    const value = args[++i];
    if (value === undefined || value.startsWith("--")) return undefined;
    if (flag === "--tags") fields.tags = value.split(",").map((t) => t.trim()).filter(Boolean);
    else fields[flag === "--category" ? "category" : "scope"] = value;
  }
  return { text: words.join(" ").trim(), fields };
}

/** The `knowledge` lines of the help, under the command's configured name (`/swarm` may be another plugin's). */
export function knowledgeHelp(name: string): string[] {
  return [
    `\`/${name} knowledge\` — list live lessons`,
    `\`/${name} knowledge add "lesson" [--category c] [--tags a,b] [--scope s]\` — record a lesson (the same gates and dedup as agents get)`,
    `\`/${name} knowledge search <words>\` — lessons matching the words`,
    `\`/${name} knowledge quarantine <id> [reason]\` · \`/${name} knowledge restore <id>\``,
    `\`/${name} knowledge migrate [--force]\` — import .swarm/context.md and opencode-swarm's JSONL files`,
    `\`/${name} knowledge stats\` — counts per tier and status`,
  ];
}

export async function knowledgeCommand(state: PluginState, args: string[]): Promise<string> {
  const [sub = "list", ...rest] = args;
  const name = state.options.plugin.command;
  const cairn = await state.cairn();
  switch (sub) {
    case "list": {
      const entries = await cairn.listLessons({ statuses: LIVE_STATUSES, limit: LIST_LIMIT + 1 });
      // A damaged file's lessons are unreadable, not absent: said before the rest, and no invitation to add.
      const damaged = cairn.damagedTiers().map((d) => `Not listed: ${d.message}`);
      if (!entries.length) return damaged.length ? damaged.join("\n") : `No lessons recorded yet. Add one with \`/${name} knowledge add "…"\`.`;
      const more = entries.length > LIST_LIMIT ? ` (first ${LIST_LIMIT}; search to narrow down)` : "";
      const line = (l: ListedLesson) => entryLine(l.entry, l.promoted_from ? `promoted from this project's ${l.promoted_from.handle}` : undefined);
      return [...damaged, `Live lessons${more}:`, ...entries.slice(0, LIST_LIMIT).map(line)].join("\n");
    }
    case "add": {
      const parsed = lessonArgs(rest);
      if (!parsed?.text) return `Usage: \`/${name} knowledge add "what to do or avoid, where, and why" [--category c] [--tags a,b] [--scope s]\``;
      const r = await cairn.add({ lesson: parsed.text, ...parsed.fields, auto_generated: false, created_by: HUMAN_ACTOR } as LessonInput, { actor: HUMAN_ACTOR });
      // Reasons and warnings may quote the input (a tag, a name): neutralised, as this answer reaches the model.
      if (r.action === "rejected") return `Not recorded — rejected: ${sanitizeForPrompt(r.reason ?? "", 600)}`;
      if (r.action === "reinforced") return `Already known: reinforced ${r.handle} (${sanitizeForPrompt(r.reason ?? "", 600)}).`;
      const warn = r.issues.filter((i) => i.severity === "warn").map((i) => `\nwarning: ${sanitizeForPrompt(i.message, 600)}`).join("");
      return `Recorded ${r.handle} (${r.status}).${warn}`;
    }
    case "search": {
      const q = rest.join(" ").trim();
      if (!q) return `Usage: \`/${name} knowledge search <words>\``;
      const hits = await cairn.recall(q, { limit: 10 });
      return hits.length ? [`${hits.length} match(es):`, ...hits.map((h) => entryLine(h.entry))].join("\n") : `No lessons match "${sanitizeForPrompt(q, 80)}".`;
    }
    case "quarantine": {
      const [id, ...reason] = rest;
      if (!id) return `Usage: \`/${name} knowledge quarantine <id> [reason]\``;
      const e = await cairn.quarantine(id, reason.join(" ") || `quarantined from /${name}`, HUMAN_ACTOR);
      return `Quarantined ${e.handle}: it is no longer shown to agents.`;
    }
    case "restore": {
      const [id] = rest;
      if (!id) return `Usage: \`/${name} knowledge restore <id>\``;
      const e = await cairn.restore(id, HUMAN_ACTOR);
      return `Restored ${e.handle} (${e.lifecycle.status}).`;
    }
    case "migrate":
      return migrate(state, cairn, rest.includes("--force"));
    case "stats":
      return stats(cairn);
    default:
      return [`Unknown knowledge command "${sanitizeForPrompt(sub, 40)}".`, ...knowledgeHelp(name)].join("\n");
  }
}
