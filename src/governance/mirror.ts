// The Markdown mirror for Obsidian: kept in sync through store change events, rebuilt on demand, edits pulled back through the gates.
import fs from "node:fs";
import path from "node:path";
import { decodeText } from "../core/decode.js";
import { STATUSES, type Entry, type Status } from "../core/entry.js";
import { makeFolder } from "../core/folders.js";
import { CairnError } from "../errors.js";
import { archiveEntry, locate } from "../lifecycle/status.js";
import { openTiers, type Services } from "../services.js";
import { assertHuman } from "./actors.js";
import { approveEntry, rejectEntry } from "./approval.js";
import { editEntry } from "./edit.js";
import type { LessonFields } from "./structured.js";
import { contentHash, fileNameFor, FILE_RE, folderFor, FOLDER_NAMES, mirrorRoot, parseMirrorText, renderEntry, type ParsedMirrorFile } from "./mirror-format.js";

function writeAtomic(file: string, content: string): void {
  makeFolder(path.dirname(file));
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  fs.writeFileSync(tmp, content);
  fs.renameSync(tmp, file);
}

function filesOf(root: string, folder: string): string[] {
  try {
    return fs.readdirSync(path.join(root, folder)).filter((n) => FILE_RE.test(n)).sort();
  } catch {
    return [];
  }
}

/**
 * Markdown files in a mirror folder not named like ours: a mirror file a person renamed (Obsidian
 * renames the file when its title is edited) or a person's own note. Only `pullMirror` reads them,
 * and takes one as ours only when its front matter names one of our entries by id and handle.
 */
function otherNotesOf(root: string, folder: string): string[] {
  try {
    return fs.readdirSync(path.join(root, folder)).filter((n) => n.toLowerCase().endsWith(".md") && !n.startsWith(".") && !FILE_RE.test(n)).sort();
  } catch {
    return [];
  }
}

/**
 * Deletes the handle's files other than `keep` (after a status or title change, or a delete); `keepEdited`
 * spares files holding a person's change not pulled yet (edited, or moved to another folder to ask for a
 * status) and says whether one was moved: that file is the lesson's now, until the person pulls.
 */
function removeHandleFiles(root: string, handle: string, keep?: string, keepEdited = false): { removed: number; keptMove: boolean } {
  let removed = 0;
  let keptMove = false;
  for (const folder of FOLDER_NAMES) {
    for (const name of filesOf(root, folder)) {
      const full = path.join(root, folder, name);
      if (FILE_RE.exec(name)?.[1] === handle && full !== keep) {
        const change = keepEdited ? personsChange(full, folder) : undefined;
        if (change === "moved") keptMove = true;
        if (change) continue;
        fs.rmSync(full, { force: true });
        removed++;
      }
    }
  }
  return { removed, keptMove };
}

/** Whether a mirror file's editable content no longer matches the hash it was written with: a person edited it. */
function editedByPerson(text: string): boolean {
  try {
    const parsed = parseMirrorText(text);
    return parsed.content_hash !== undefined && contentHash(parsed) !== parsed.content_hash;
  } catch {
    return false;
  }
}

/**
 * Writes one entry's file when its content changed; returns its path and whether bytes were written.
 * `keepEdited`: a file a person edited and has not pulled yet is left as it is (the automatic sync
 * after a consultation rewrote its usage table and lost the edit); `cairn mirror --pull` applies it.
 */
export function syncEntryFile(root: string, e: Entry, opts: { scanStale?: boolean; keepEdited?: boolean } = {}): { file: string; written: boolean } {
  const file = path.join(root, folderFor(e.lifecycle.status), fileNameFor(e));
  const content = renderEntry(e);
  let existing: string | undefined;
  try {
    existing = fs.readFileSync(file, "utf8");
  } catch {
    // Moved to another folder or renamed: the old file goes. One a person moved to ask for a status
    // stays the lesson's only file (the automatic sync after an engine change deleted it, and the move was lost).
    if (opts.scanStale !== false && removeHandleFiles(root, e.handle, file, opts.keepEdited).keptMove) return { file, written: false };
  }
  if (existing === content) return { file, written: false };
  if (opts.keepEdited && existing !== undefined && editedByPerson(decodeText(Buffer.from(existing)))) return { file, written: false };
  writeAtomic(file, content);
  return { file, written: true };
}

/** Subscribes to both tiers; every committed change is mirrored before the mutating call returns. */
export function attachMirror(s: Services): () => void {
  const root = mirrorRoot(s);
  let warned = false;
  const unsubscribe = openTiers(s).map((store) =>
    store.subscribe(async (c) => {
      try {
        if (c.type === "insert" || c.type === "update") syncEntryFile(root, c.entry, { keepEdited: true });
        else if (c.type === "delete") removeHandleFiles(root, c.handle);
        // Being shown changes nothing the mirror prints; consultations and preventions do.
        else if (c.type === "usage" && c.counter !== "shown") {
          for (const id of c.ids) {
            const e = await store.getEntry(id);
            if (e) syncEntryFile(root, e, { keepEdited: true });
          }
        }
      } catch (e) {
        if (!warned) process.stderr.write(`cairn: Markdown mirror sync failed (run \`cairn mirror\` to rebuild): ${(e as Error).message}\n`);
        warned = true;
      }
    }),
  );
  return () => unsubscribe.forEach((u) => u());
}

export interface MirrorReport {
  dir: string;
  written: number;
  unchanged: number;
  removed: number;
  /** Files holding a person's change not yet pulled (edited, or moved to another status's folder): left as they are. */
  kept: Array<{ file: string; reason: "edited" | "moved" }>;
}

/**
 * A change a person made to a mirror file and has not pulled: its editable content no longer matches
 * the hash it was written with (or its front matter no longer reads: we never write such a file), or it
 * sits in another folder than its status's (dragged there to approve or archive it).
 */
function personsChange(file: string, folder: string): "edited" | "moved" | undefined {
  let parsed: ParsedMirrorFile;
  try {
    parsed = parseMirrorText(decodeText(fs.readFileSync(file)));
  } catch {
    return "edited";
  }
  if (parsed.content_hash !== undefined && contentHash(parsed) !== parsed.content_hash) return "edited";
  return movedTo(folder, parsed.status) ? "moved" : undefined;
}

/**
 * Writes every entry's file and deletes our files no entry has. A lesson whose file holds a person's
 * change not yet pulled is left as the person left it, and reported (`kept`): a rebuild used to write
 * over the edit, or delete the moved file and write the lesson back where it was, and the change was
 * lost. `force` overwrites them (after a conflict merged by hand, or to throw an edit away).
 */
export async function rebuildMirror(s: Services, opts: { force?: boolean } = {}): Promise<MirrorReport> {
  const root = mirrorRoot(s);
  const report: MirrorReport = { dir: root, written: 0, unchanged: 0, removed: 0, kept: [] };
  const pending = new Set<string>();
  if (!opts.force) {
    for (const folder of FOLDER_NAMES) {
      for (const name of filesOf(root, folder)) {
        const reason = personsChange(path.join(root, folder, name), folder);
        if (!reason) continue;
        pending.add(FILE_RE.exec(name)![1]!);
        report.kept.push({ file: path.join(folder, name), reason });
      }
    }
  }
  const keep = new Set<string>();
  for (const store of openTiers(s)) {
    for await (const e of store.iterateEntries()) {
      if (pending.has(e.handle)) continue;
      const r = syncEntryFile(root, e, { scanStale: false });
      keep.add(r.file);
      if (r.written) report.written++;
      else report.unchanged++;
    }
  }
  for (const folder of FOLDER_NAMES) {
    for (const name of filesOf(root, folder)) {
      const full = path.join(root, folder, name);
      if (!keep.has(full) && !pending.has(FILE_RE.exec(name)![1]!)) {
        fs.rmSync(full, { force: true });
        report.removed++;
      }
    }
  }
  return report;
}

/** A renamed file's parse and entry, when its front matter's id and handle name one of our lessons. */
async function renamedMirrorFile(s: Services, file: string): Promise<{ parsed: ParsedMirrorFile; loc: Awaited<ReturnType<typeof locate>> } | undefined> {
  let parsed: ParsedMirrorFile;
  try {
    parsed = parseMirrorText(decodeText(fs.readFileSync(file)));
  } catch {
    return undefined;
  }
  const loc = await locate(s, parsed.id).catch(() => undefined);
  if (!loc || !parsed.handle || parsed.handle !== loc.entry.handle) return undefined;
  return { parsed, loc };
}

export interface PullReport {
  dir: string;
  /** `warnings`: what the edit's gates said but did not refuse (a category stored under another name, a weak pattern). */
  applied: Array<{ handle: string; file: string; fields: string[]; status?: string; warnings?: string[] }>;
  /** Approvals found in files and not confirmed by the person pulling: nothing of the file applied, the file left as it is. */
  held: HeldApproval[];
  unchanged: number;
  conflicts: Array<{ handle: string; file: string; reason: string }>;
  errors: Array<{ file: string; message: string }>;
}

/** An approval asked for in a mirror file (`status: approved`, or a move into approved/) of a draft or candidate. */
export interface HeldApproval {
  handle: string;
  /** The file, relative to the mirror folder. */
  file: string;
  title?: string;
  /** Other fields edited in the same file: applied with the approval, held with it. */
  fields: string[];
}

/**
 * Which approvals found in the files the person pulling confirms: `true` all of them, a list of handles
 * or ids those, a function asks per lesson; absent, none. Files carry no author, so an approval in one
 * may be anyone's who can write there (an agent's, of its own draft): only a person's explicit yes
 * applies it (seed 004: only a person approves), not the pull of a folder it happens to sit in.
 */
export type ApprovalConsent = boolean | readonly string[] | ((a: HeldApproval) => Promise<boolean>);

async function consents(consent: ApprovalConsent | undefined, e: Entry, held: HeldApproval): Promise<boolean> {
  if (typeof consent === "function") return consent(held);
  if (Array.isArray(consent)) return consent.some((ref) => ref.toLowerCase() === e.handle.toLowerCase() || ref === e.id);
  return consent === true;
}

/** Whether a status asked for in the mirror approves the entry: what `applyStatus` applies through `approveEntry`. */
function approves(e: Entry, wanted: string | undefined): boolean {
  return (wanted === "approved" || wanted === "established") && (e.lifecycle.status === "draft" || e.lifecycle.status === "candidate");
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The names of the fields a file changes, for a held approval's report (the edit itself is applied by `editEntry`). */
function changedFields(edited: LessonFields, current: LessonFields): string[] {
  const keys = new Set([...Object.keys(edited), ...Object.keys(current)] as Array<keyof LessonFields>);
  return [...keys].filter((k) => !same(edited[k], current[k])).sort();
}

/**
 * The status a person asks for by moving a file: the mirror writes each file into the folder of the
 * status in its front matter, so a file found in another folder was moved there (Obsidian's drag and
 * drop). Into approved/ approves, into archived/ rejects or archives; "unsupported" for the others.
 */
function movedTo(folder: string, written: string | undefined): "approved" | "archived" | "unsupported" | undefined {
  if (!written || !(STATUSES as readonly string[]).includes(written) || folderFor(written as Status) === folder) return undefined;
  return folder === "approved" || folder === "archived" ? folder : "unsupported";
}

/** Applies a status written in the front matter, through the same approve/reject/archive rules as the CLI. */
async function applyStatus(s: Services, e: Entry, wanted: string, actor: string): Promise<string | undefined> {
  const from = e.lifecycle.status;
  const want = wanted === "approved" ? "established" : wanted === "rejected" ? "archived" : wanted;
  if (want === from || (want === "established" && from === "promoted")) return undefined;
  if (want === "established" && (from === "draft" || from === "candidate")) return (await approveEntry(s, e.id, actor)).entry.lifecycle.status;
  if (want === "archived" && (from === "draft" || from === "candidate")) return (await rejectEntry(s, e.id, "rejected in the Markdown mirror", actor)).lifecycle.status;
  if (want === "archived" && (from === "established" || from === "promoted")) return (await archiveEntry(s, e.id, "archived in the Markdown mirror", actor)).lifecycle.status;
  throw new CairnError("INVALID_INPUT", `status ${from} → ${wanted} is not applied from the mirror; use the cairn CLI`);
}

/**
 * A file is compared with the current entry rendered and parsed the same way, so an untouched file
 * is never "changed". When the database moved on since the file was written (its updated_at is
 * older) and the file differs, that is a conflict: reported, neither side overwritten.
 */
export async function pullMirror(s: Services, actor: string, opts: { approve?: ApprovalConsent } = {}): Promise<PullReport> {
  assertHuman(actor, "apply edits from the Markdown mirror");
  const root = mirrorRoot(s);
  const report: PullReport = { dir: root, applied: [], held: [], unchanged: 0, conflicts: [], errors: [] };
  for (const folder of FOLDER_NAMES) {
    const ours = filesOf(root, folder);
    for (const name of [...ours, ...otherNotesOf(root, folder)]) {
      const file = path.join(root, folder, name);
      const rel = path.join(folder, name);
      const renamed = !FILE_RE.test(name);
      // An applied file: the entry as it now is written back where its status puts it, this copy gone if elsewhere.
      const settled = async (id: string, fields: string[], status: string | undefined, warnings: string[] = []): Promise<void> => {
        const fresh = (await locate(s, id)).entry;
        syncEntryFile(root, fresh);
        if (path.join(root, folderFor(fresh.lifecycle.status), fileNameFor(fresh)) !== file) fs.rmSync(file, { force: true });
        report.applied.push({ handle: fresh.handle, file: rel, fields, ...(status ? { status } : {}), ...(warnings.length ? { warnings } : {}) });
      };
      // An approval the person does not confirm: held, the file untouched (a rebuild keeps it as an unpulled change).
      const held = async (e: Entry, wanted: string | undefined, fields: string[]): Promise<boolean> => {
        if (!approves(e, wanted)) return false;
        const h: HeldApproval = { handle: e.handle, file: rel, ...(e.title ? { title: e.title } : {}), fields };
        if (await consents(opts.approve, e, h)) return false;
        report.held.push(h);
        return true;
      };
      try {
        let parsed: ParsedMirrorFile;
        let loc: Awaited<ReturnType<typeof locate>> | undefined;
        if (renamed) {
          // Ours only if it parses as a mirror file of a lesson we hold under that handle; anything else is a person's note, left alone.
          const mine = await renamedMirrorFile(s, file);
          if (!mine) continue;
          ({ parsed, loc } = mine);
        } else {
          parsed = parseMirrorText(decodeText(fs.readFileSync(file)));
          loc = await locate(s, parsed.id).catch(() => undefined);
        }
        if (!loc) {
          report.errors.push({ file: rel, message: `no entry with id ${parsed.id.slice(0, 60)} (removed?); run \`cairn mirror --force\` to rebuild` });
          continue;
        }
        const current = parseMirrorText(renderEntry(loc.entry));
        const matchesDb = same(parsed.fields, current.fields) && (parsed.status === undefined || parsed.status === current.status);
        const touched = parsed.content_hash ? contentHash(parsed) !== parsed.content_hash : !matchesDb;
        // A status edited in the front matter is asked for by that edit, not by the folder the file still
        // sits in (which is its old status's): only an untouched status can say the file was moved.
        const statusEdited = touched && parsed.status !== undefined && parsed.status !== current.status;
        const moved = statusEdited ? undefined : movedTo(folder, parsed.status);
        if (moved === "unsupported") {
          report.errors.push({ file: rel, message: `moved into ${folder}/: a move into approved/ (approve) or archived/ (reject, archive) is applied, not this one; put it back, or run \`cairn mirror --force\`` });
          continue;
        }
        if (moved && (matchesDb || !touched)) {
          if (!parsed.updated_at || parsed.updated_at < loc.entry.updated_at) {
            report.conflicts.push({ handle: loc.entry.handle, file: rel, reason: `moved to ${folder}/, but the database changed at ${loc.entry.updated_at}, after this file was written; run \`cairn mirror --force\` and move it again` });
            continue;
          }
          if (await held(loc.entry, moved, [])) continue;
          await settled(loc.entry.id, [], await applyStatus(s, loc.entry, moved, actor));
          continue;
        }
        if (matchesDb || !touched) {
          // Untouched but stale (the database moved on without the mirror): refresh it.
          syncEntryFile(root, loc.entry);
          // Renamed but not edited: the lesson's file is back under its name, so this copy would be a second note of it.
          if (renamed) fs.rmSync(file, { force: true });
          report.unchanged++;
          continue;
        }
        if (!parsed.updated_at || parsed.updated_at < loc.entry.updated_at) {
          report.conflicts.push({
            handle: loc.entry.handle,
            file: rel,
            reason: `the database changed at ${loc.entry.updated_at}, after this file was written (${parsed.updated_at ?? "no updated_at"}); merge by hand, then \`cairn mirror --force\``,
          });
          continue;
        }
        // A status written in the front matter wins; else the folder the file was moved to, if any.
        const wanted = parsed.status && parsed.status !== current.status ? parsed.status : (moved ?? parsed.status);
        if (await held(loc.entry, wanted, changedFields(parsed.fields, current.fields))) continue;
        const edit = await editEntry(s, loc.entry.id, parsed.fields, actor, "mirror");
        await settled(loc.entry.id, edit.changed, wanted ? await applyStatus(s, edit.entry, wanted, actor) : undefined, edit.warnings);
      } catch (e) {
        report.errors.push({ file: rel, message: (e as Error).message });
      }
    }
  }
  return report;
}
