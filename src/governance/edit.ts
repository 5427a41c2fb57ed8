// Editing an entry's lesson fields (review editor, Markdown mirror): people only, through the same gates as a new lesson.
import { ownCategory } from "../core/categories.js";
import type { Entry, NewEntryInput, Status } from "../core/entry.js";
import { CairnError } from "../errors.js";
import { assertNotSuperseded, assertRestorable, locate, restoreEntry, supersedeEntry, type Located } from "../lifecycle/status.js";
import { gateInput } from "../lifecycle/gate-input.js";
import { findNeighbours } from "../lifecycle/neighbours.js";
import { normalizeLessonText } from "../quality/normalize.js";
import type { Services } from "../services.js";
import { DuplicateEntryError } from "../store/store.js";
import { assertHuman } from "./actors.js";
import { editBasis } from "./edit-basis.js";
import { patternIssues } from "./patterns.js";
import { EDITABLE_FIELDS, fieldsOfEntry, type LessonFields } from "./structured.js";

export interface EditResult {
  entry: Entry;
  /** Names of the fields that changed; empty when the edit changed nothing. */
  changed: string[];
  warnings: string[];
}

/** A replacement retires what it names only while it is itself in use; these are the lessons it may retire. */
const LIVE: readonly Status[] = ["candidate", "established", "promoted"];
const RETIRABLE: readonly Status[] = ["draft", "candidate", "established", "promoted"];

/** NewEntryInputSchema's cap on tags. */
const MAX_TAGS = 30;

/** The edit's tags in the order given: the held ones as stored, each new one as the gates normalised it. */
function mergeTags(given: readonly string[], held: ReadonlySet<string>, judged: readonly string[]): string[] {
  if (judged.length === given.length) return [...judged];
  let next = 0;
  return given.map((t) => (held.has(t) ? t : judged[next++]!));
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
const words = (xs: readonly string[] | undefined) => [...(xs ?? [])];

export interface EditOptions {
  /** editBasis() of the entry the editor was opened on: a save over a change made since is refused, not applied. */
  basis?: string;
}

function changedSince(e: Entry): CairnError {
  return new CairnError(
    "CONFLICT",
    `${e.handle} was changed by someone else (at ${e.updated_at}) after you opened it; nothing was saved. Compare with the current version, then save your change again.`,
  );
}

/** A field named in `fields` (even as undefined) replaces the current one, groups whole; fields left out stay. */
export async function editEntry(s: Services, ref: string, fields: LessonFields, actor: string, via: string, opts: EditOptions = {}): Promise<EditResult> {
  assertHuman(actor, "edit a lesson");
  const loc = await locate(s, ref);
  // Decided once the edit is known: a form asking for exactly what is stored (the same save sent twice) overwrites nothing.
  const stale = Boolean(opts.basis && editBasis(loc.entry) !== opts.basis);
  const current = fieldsOfEntry(loc.entry);
  const take = <K extends keyof LessonFields>(k: K): LessonFields[K] => (k in fields ? fields[k] : current[k]);
  // A category named the opencode-swarm way is stored as `cairn add --category` stores it (kind, tags), and said.
  const named = ownCategory({ lesson: take("lesson") ?? "", category: take("category"), kind: "kind" in fields ? fields.kind : undefined, tags: take("tags") ?? [] });
  const tags = named.input.tags ?? [];
  // A tag the lesson already holds is kept as stored, not judged again: one stored before a check changed
  // (a tag past the limit once lower-cased) must not refuse every later edit. New tags pass the gates.
  const held = new Set(loc.entry.tags);
  const judgedTags = tags.length > MAX_TAGS ? tags : tags.filter((t) => !held.has(t));
  const input: NewEntryInput = {
    lesson: take("lesson") ?? "",
    title: take("title"),
    why: take("why"),
    root_cause: take("root_cause"),
    category: named.input.category ?? loc.entry.category,
    kind: named.input.kind ?? loc.entry.kind,
    tags: judgedTags,
    prevention: take("prevention") ?? {},
    applicability: take("applicability") ?? {},
    directive: { enforcement: take("enforcement") ?? "warn" },
    supersedes: take("supersedes"),
    scope: loc.entry.applicability.scope,
  };
  const gated = gateInput(s, input, loc.entry.tier);
  // The detection pattern is judged whatever else failed: the editor shows every problem at once.
  const pattern = gated.ok ? gated.input.prevention?.detection_pattern : input.prevention?.detection_pattern;
  const issues = [...gated.issues, ...patternIssues(typeof pattern === "string" ? pattern : undefined)];
  const rejects = issues.filter((i) => i.severity === "reject");
  if (!gated.ok || rejects.length) {
    throw new CairnError("REJECTED", `Edit of ${loc.entry.handle} rejected: ${rejects.map((i) => i.message).join("; ")}`, { issues });
  }
  const n = gated.input;
  let supersedes = n.supersedes;
  /** The lesson this edit newly says it replaces, retired once the edit is written (see below). */
  let retire: Entry | undefined;
  if (supersedes && supersedes !== loc.entry.lifecycle.supersedes) {
    const target = await locate(s, supersedes);
    if (target.entry.id === loc.entry.id) throw new CairnError("INVALID_INPUT", "An entry cannot supersede itself.");
    // Refused before anything is written: a second replacement of one lesson would leave two claiming it.
    await assertNotSuperseded(s, target.entry, loc.entry.id);
    supersedes = target.entry.id;
    // A person's edit of a live lesson retires the one it names at once, as `cairn supersede` does; a
    // draft's waits for its approval (approveEntry). Before, only the link was written: the old lesson
    // stayed live beside its replacement, and an approved replacement was never approved again to retire it.
    if (LIVE.includes(loc.entry.lifecycle.status) && RETIRABLE.includes(target.entry.lifecycle.status)) retire = target.entry;
  }
  /**
   * The lesson this edit stops saying it replaces, while that one is retired as replaced by this entry:
   * a person dropping the link (the mirror's `supersedes:` cleared) undoes the supersede, as `cairn
   * restore` of the old lesson does (live again, both sides unlinked); else it stayed superseded by nothing.
   */
  const dropped = loc.entry.lifecycle.supersedes && supersedes !== loc.entry.lifecycle.supersedes ? loc.entry.lifecycle.supersedes : undefined;
  const unretire = dropped ? await locate(s, dropped).then((l) => l.entry, () => undefined) : undefined;
  const restore = unretire?.lifecycle.status === "superseded" && unretire.lifecycle.superseded_by === loc.entry.id ? unretire : undefined;
  // Checked before the edit is written: a refused restore must not leave the link cleared and the old lesson superseded by nothing.
  if (restore) {
    await assertRestorable(s, restore.id, actor).catch((e: unknown) => {
      if (!(e instanceof CairnError)) throw e;
      throw new CairnError(e.code, `Nothing saved: clearing supersedes: of ${loc.entry.handle} restores ${restore.handle}, which is refused. ${e.message}`, e.details);
    });
  }
  const prevention = {
    ...(n.prevention?.rule ? { rule: n.prevention.rule } : {}),
    ...(n.prevention?.detection_pattern ? { detection_pattern: n.prevention.detection_pattern } : {}),
    ...(n.prevention?.suggested_guardrail ? { suggested_guardrail: n.prevention.suggested_guardrail } : {}),
  };
  const next: ReturnType<typeof fieldsOfEntry> = {
    title: n.title || undefined,
    lesson: normalizeLessonText(gated.lesson),
    why: n.why || undefined,
    root_cause: n.root_cause,
    category: n.category,
    kind: n.kind,
    tags: [...new Set(mergeTags(tags, held, n.tags).map((t) => t.toLowerCase()))],
    prevention,
    applicability: { projects: words(n.applicability?.projects), file_globs: words(n.applicability?.file_globs), tech_stack: words(n.applicability?.tech_stack) },
    enforcement: n.directive?.enforcement ?? "warn",
    supersedes,
  };
  const changed = EDITABLE_FIELDS.filter((k) => !same(next[k], current[k]));
  const warnings = [...(named.note ? [named.note] : []), ...issues.filter((i) => i.severity === "warn").map((i) => i.message)];
  if (changed.length === 0) return { entry: loc.entry, changed: [], warnings };
  if (stale) throw changedSince(loc.entry);
  if (changed.includes("lesson")) await assertNoTwin(s, loc, next.lesson, supersedes);
  // The check above reads, then this writes: another process's edit or restore of the same wording may land
  // between them, so the write checks again for a live exact twin, atomically (the lock an add takes).
  const unique = changed.includes("lesson") ? { unique: true, ...(supersedes ? { twinAllowed: supersedes } : {}) } : undefined;
  const entry = await loc.store.updateEntry(
    loc.entry.id,
    (e) => {
      // Checked again where the write is atomic: a change landing between the read above and this write.
      if (opts.basis && editBasis(e) !== opts.basis) throw changedSince(e);
      e.title = next.title;
      e.lesson = next.lesson;
      e.why = next.why;
      e.root_cause = next.root_cause;
      e.category = n.category;
      if (next.kind) e.kind = next.kind;
      e.tags = next.tags;
      e.prevention = next.prevention;
      e.applicability = { ...e.applicability, ...next.applicability };
      e.directive.enforcement = next.enforcement;
      e.lifecycle.supersedes = next.supersedes;
      return e;
    },
    { type: "updated", actor, data: { via, fields: changed } },
    unique,
  ).catch((e: unknown) => {
    throw e instanceof DuplicateEntryError ? twinRefusal(loc, e.existing) : e;
  });
  // The same rules as `cairn restore` (the gates again, who may restore what): only a person edits, so a person restores.
  // The check above and this restore are two steps another process may come between (a quarantine, a
  // restore, a removal of the old lesson): the restore re-checks, inside its own write, that the lesson is
  // still superseded by this entry, and a refusal takes the edit back, so nothing stays saved (no store
  // transaction spans two entries, the hive copy an original may come back through included).
  if (restore) {
    try {
      await restoreEntry(s, restore.id, actor, { supersededBy: entry.id });
    } catch (e) {
      await undoEdit(loc, changed, actor, via);
      if (!(e instanceof CairnError)) throw e;
      throw new CairnError(e.code, `Nothing saved: clearing supersedes: of ${loc.entry.handle} restores ${restore.handle}, which is refused. ${e.message}`, e.details);
    }
  }
  if (retire) return { entry: (await supersedeEntry(s, retire.id, entry.id, actor)).replacement, changed: [...changed], warnings };
  return { entry: restore ? (await locate(s, entry.id)).entry : entry, changed: [...changed], warnings };
}

/**
 * A new wording that repeats another lesson of the tier (the dedup an add runs) would leave two of one lesson
 * to be shown side by side: the audited system let its add path skip dedup, and edits here skipped it too.
 * Refused before anything is written, naming the lesson it repeats. Its own old wording, and the lesson it
 * declares it replaces, are no twin; an exact match that was quarantined is (the edit would bring it back live).
 */
async function assertNoTwin(s: Services, loc: Located, lesson: string, replaces: string | undefined): Promise<void> {
  const n = await findNeighbours(loc.store, lesson, s.config.knowledge.dedup_threshold, loc.entry.id);
  const twin = n.duplicate?.entry ?? (n.retired?.lifecycle.status === "quarantined" ? n.retired : undefined);
  if (!twin || twin.id === replaces) return;
  throw twinRefusal(loc, twin);
}

/** The refusal of an edit whose new wording repeats `twin`, found by the check before the write or inside it. */
function twinRefusal(loc: Located, twin: Entry): CairnError {
  const message = `the new wording repeats ${twin.handle} (${twin.lifecycle.status}): "${twin.lesson}"; keep one lesson — edit ${twin.handle} instead, or supersede ${loc.entry.handle} with it (\`cairn supersede ${loc.entry.handle} ${twin.handle}\`)`;
  return new CairnError("REJECTED", `Edit of ${loc.entry.handle} rejected, nothing saved: ${message}`, {
    issues: [{ layer: "quality", severity: "reject", code: "duplicate", message }],
    duplicate: twin.id,
  });
}

/** Puts back the fields an edit wrote (the entry as it was read before it), when the restore it asked for was refused. */
async function undoEdit(loc: Located, changed: readonly string[], actor: string, via: string): Promise<void> {
  const before = loc.entry;
  await loc.store.updateEntry(
    before.id,
    (e) => {
      e.title = before.title;
      e.lesson = before.lesson;
      e.why = before.why;
      e.root_cause = before.root_cause;
      e.category = before.category;
      e.kind = before.kind;
      e.tags = [...before.tags];
      e.prevention = { ...before.prevention };
      e.applicability = { ...e.applicability, projects: before.applicability.projects, file_globs: before.applicability.file_globs, tech_stack: before.applicability.tech_stack };
      e.directive.enforcement = before.directive.enforcement;
      e.lifecycle.supersedes = before.lifecycle.supersedes;
      return e;
    },
    { type: "updated", actor, data: { via, fields: [...changed], undone: "the restore it asked for was refused" } },
  );
}
