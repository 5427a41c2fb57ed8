// The mirror's file format: folder by status, safe file names, deterministic Markdown with front matter, and its parser.
import { createHash } from "node:crypto";
import path from "node:path";
import YAML from "yaml";
import { derivedFromLabel } from "../core/derived-from.js";
import { STATUS_ALIASES } from "../core/enums.js";
import type { Entry, Status } from "../core/entry.js";
import { CairnError } from "../errors.js";
import { truncateAtWord } from "../quality/sanitize.js";
import type { Services } from "../services.js";
import { completeFields, fieldsFromDocument, type LessonFields } from "./structured.js";

/** Candidates are live but unvetted, so they get their own folder; every retired status shares archived/. */
export const MIRROR_FOLDERS: Readonly<Record<string, readonly Status[]>> = {
  approved: STATUS_ALIASES.approved,
  candidates: ["candidate"],
  drafts: ["draft"],
  archived: ["archived", "superseded", "quarantined"],
};
export const FOLDER_NAMES = Object.keys(MIRROR_FOLDERS);
/** Only files of this shape are ours to rewrite or delete; any other note in the folder is left alone. */
export const FILE_RE = /^([SH]-\d{1,12})(?:-[a-z0-9-]*)?\.md$/;

const SECTIONS = {
  lesson: "What Was Learned",
  why: "Why It Matters",
  rule: "Prevention Rule",
  pattern: "Detection Pattern",
  guardrail: "Suggested Guardrail",
  trace: "Traceability",
  usage: "Usage",
} as const;
const HEADING_KEYS = new Map(Object.entries(SECTIONS).map(([k, v]) => [v.toLowerCase(), k]));

export function folderFor(status: Status): string {
  return FOLDER_NAMES.find((f) => MIRROR_FOLDERS[f]!.includes(status)) ?? "archived";
}

export function mirrorRoot(s: Services): string {
  return path.resolve(s.project.dir, s.config.governance.mirror.dir);
}

/** Derived from stored text but reduced to [a-z0-9-]: no separator, dot or control character can reach a path. */
export function slugOf(text: string): string {
  const slug = text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  const cut = slug.length > 48 ? slug.slice(0, 48).replace(/-[^-]*$/, "") || slug.slice(0, 48) : slug;
  return cut.replace(/-+$/, "") || "entry";
}

export function fileNameFor(e: Entry): string {
  if (!/^[SH]-\d{1,12}$/.test(e.handle)) throw new CairnError("INVALID_ID", `Unexpected handle ${e.handle.slice(0, 20)}.`);
  return `${e.handle}-${slugOf(e.title ?? e.lesson)}.md`;
}

// A line that would read as one of our headings is escaped, so free text never splits a section; so is a
// line of only dashes, stars or underscores, which the parser drops at a section's end (the seed's template
// puts one before Traceability) and Markdown reads as a rule or turns the line above into a heading.
const ESCAPED = /^(\\*(?:## |[ \t]*(?:-{3,}|\*{3,}|_{3,})[ \t]*$))/gm;
const escapeText = (t: string) => t.replace(ESCAPED, "\\$1");
const unescapeText = (t: string) => t.replace(/^\\(\\*(?:## |[ \t]*(?:-{3,}|\*{3,}|_{3,})[ \t]*$))/gm, "$1");

function fence(pattern: string): string {
  const longest = Math.max(0, ...(pattern.match(/`+/g) ?? []).map((r) => r.length));
  const ticks = "`".repeat(Math.max(3, longest + 1));
  return `${ticks}text\n${pattern}\n${ticks}`;
}

const HASH_PLACEHOLDER = "0000000000000000";

function frontMatter(e: Entry): string {
  const df = e.provenance.derived_from;
  const front = {
    id: e.id,
    handle: e.handle,
    tier: e.tier,
    title: e.title ?? null,
    status: e.lifecycle.status,
    category: e.category,
    kind: e.kind,
    root_cause_category: e.root_cause ?? null,
    enforcement: e.directive.enforcement,
    projects: e.applicability.projects,
    file_patterns: e.applicability.file_globs,
    tech_stack: e.applicability.tech_stack,
    tags: e.tags,
    supersedes: e.lifecycle.supersedes ?? null,
    superseded_by: e.lifecycle.superseded_by ?? null,
    created_at: e.created_at,
    created_by: e.provenance.created_by,
    updated_at: e.updated_at,
    approved_at: e.provenance.approved_at ?? null,
    approved_by: e.provenance.approved_by ?? null,
    session_id: e.provenance.session_id ?? null,
    derived_from: df.kind ? `${df.kind}${df.ref ? `: ${df.ref}` : ""}` : null,
    times_consulted: e.usage.consulted,
    times_prevented: e.usage.prevented,
    last_consulted_at: e.usage.last_consulted_at ?? null,
    // What the editable content hashed to when written: an unchanged hash means a person did not edit the file.
    content_hash: HASH_PLACEHOLDER,
  };
  const doc = new YAML.Document(front);
  YAML.visit(doc, {
    Seq(_, node) {
      node.flow = true;
    },
  });
  return doc.toString({ lineWidth: 0, flowCollectionPadding: false });
}

/** One line: traceability values (an agent's derived_from, a session id) must not start a heading of their own. */
const oneLine = (t: string) => t.replace(/\s+/g, " ").trim();

function traceability(e: Entry): string {
  const p = e.provenance;
  const lines = [`- Created: ${e.created_at} by ${oneLine(p.created_by)}`];
  if (p.derived_from.kind) lines.push(`- Derived from: ${derivedFromLabel(p.derived_from)}`);
  if (p.session_id) lines.push(`- Session: \`${oneLine(p.session_id).replace(/`/g, "'")}\``);
  if (p.source_project_name) lines.push(`- Source project: ${oneLine(p.source_project_name)}`);
  if (p.approved_at) lines.push(`- Approved: ${p.approved_at} by ${oneLine(p.approved_by ?? "unknown")}`);
  if (e.lifecycle.supersedes) lines.push(`- Supersedes: ${oneLine(e.lifecycle.supersedes)}`);
  if (e.lifecycle.superseded_by) lines.push(`- Superseded by: ${oneLine(e.lifecycle.superseded_by)}`);
  if (e.lifecycle.status_reason) lines.push(`- Status reason: ${oneLine(e.lifecycle.status_reason)}`);
  return lines.join("\n");
}

/** Deterministic: the same entry always renders to the same bytes (rebuild and sync agree). */
export function renderEntry(e: Entry): string {
  const text = renderWithoutHash(e);
  return text.replace(`content_hash: "${HASH_PLACEHOLDER}"`, `content_hash: "${contentHash(parseMirrorText(text))}"`);
}

export function contentHash(p: ParsedMirrorFile): string {
  return createHash("sha256").update(JSON.stringify([p.fields, p.status ?? null])).digest("hex").slice(0, 16);
}

function renderWithoutHash(e: Entry): string {
  const heading = truncateAtWord((e.title ?? e.lesson).replace(/\s+/g, " ").trim(), 80);
  const section = (name: string, body: string | undefined) => `## ${name}\n\n${body ? `${body}\n\n` : ""}`;
  const u = e.usage;
  return [
    `---\n${frontMatter(e)}---\n\n`,
    `# ${e.handle}: ${heading}\n\n`,
    section(SECTIONS.lesson, escapeText(e.lesson)),
    section(SECTIONS.why, e.why && escapeText(e.why)),
    section(SECTIONS.rule, e.prevention.rule && escapeText(e.prevention.rule)),
    section(SECTIONS.pattern, e.prevention.detection_pattern && escapeText(fence(e.prevention.detection_pattern))),
    section(SECTIONS.guardrail, e.prevention.suggested_guardrail && escapeText(e.prevention.suggested_guardrail)),
    section(SECTIONS.trace, traceability(e)),
    `## ${SECTIONS.usage}\n\n| Metric | Value |\n| --- | --- |\n| Times consulted | ${u.consulted} |\n| Times prevented | ${u.prevented} |\n| Last consulted | ${u.last_consulted_at ?? "—"} |\n`,
  ].join("");
}

export interface ParsedMirrorFile {
  id: string;
  /** Informational (the id decides); a renamed file is taken as ours only when both agree. */
  handle?: string;
  updated_at?: string;
  status?: string;
  content_hash?: string;
  fields: LessonFields;
}

function sectionsOf(body: string): Map<string, string> {
  const out = new Map<string, string>();
  let key: string | undefined;
  let buf: string[] = [];
  const flush = () => {
    // The separator is dropped before unescaping: a rule line of the text itself was written escaped.
    if (key) out.set(key, unescapeText(buf.join("\n").trim().replace(TRAILING_RULE, "").trim()));
  };
  for (const line of body.split(/\r?\n/)) {
    const h = /^##\s+(.+?)\s*$/.exec(line);
    const k = h ? HEADING_KEYS.get(h[1]!.toLowerCase()) : undefined;
    if (k) {
      flush();
      key = k;
      buf = [];
    } else if (key) buf.push(line);
  }
  flush();
  return out;
}

/** A line that only separates (---, ***, ___), as the seed's template puts before Traceability: never part of a section. */
const TRAILING_RULE = /(?:^|\n)[ \t]*(?:-{3,}|\*{3,}|_{3,})[ \t]*$/;

/** "Files: `src/services/auth*`, `src/middleware/auth*`" (bold or not): the files a detection pattern is for. */
const FILES_LINE = /^(?:\*\*)?files(?:\*\*)?\s*:(?:\*\*)?\s*(.+)$/i;

/**
 * The Detection Pattern section: a bare pattern, or one fenced block — ```text as the mirror writes it,
 * ```regex as seed 004's Markdown template does — which the seed follows with a `Files:` line naming
 * the files the pattern applies to (read into file_patterns). Any other text beside a fence is kept
 * whole, as before: nothing a person wrote is dropped unread.
 */
function patternSection(text: string | undefined): { pattern?: string; files: string[] } {
  if (!text) return { files: [] };
  const m = /^(`{3,}|~{3,})[^\n]*\n([\s\S]*?)\n\1[ \t]*(?:\n([\s\S]*))?$/.exec(text);
  const rest = m?.[3]?.trim() ?? "";
  const files = rest ? FILES_LINE.exec(rest) : null;
  if (!m || (rest && (!files || rest.includes("\n")))) return { pattern: text.trim() || undefined, files: [] };
  const pattern = m[2]!.trim() || undefined;
  if (!files) return { ...(pattern ? { pattern } : {}), files: [] };
  const ticked = [...files[1]!.matchAll(/`([^`]+)`/g)].map((x) => x[1]!);
  const listed = (ticked.length ? ticked : files[1]!.split(",")).map((f) => f.trim()).filter(Boolean);
  return { ...(pattern ? { pattern } : {}), files: listed };
}

/** The front matter's file_patterns, then any a `Files:` line adds, each once. */
function withFiles(front: unknown, files: readonly string[]): unknown {
  if (!files.length) return front ?? null;
  const listed = Array.isArray(front) ? front.map(String) : typeof front === "string" && front.trim() ? [front] : [];
  return [...new Set([...listed, ...files])];
}

const optString = (v: unknown) => (typeof v === "string" ? v : v === null || v === undefined ? undefined : String(v));

export function parseMirrorText(raw: string): ParsedMirrorFile {
  // As a Windows editor may save it: CRLF line ends (a byte-order mark is the file reader's, core/decode.ts).
  const text = raw.replace(/\r\n/g, "\n");
  const m = /^---\n([\s\S]*?)\n---[ \t]*(?:\n|$)/.exec(text);
  if (!m) throw new CairnError("INVALID_INPUT", "no YAML front matter (the file must start with ---)");
  let front: Record<string, unknown>;
  try {
    const parsed = YAML.parse(m[1]!) as unknown;
    if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error("front matter is not a mapping");
    front = parsed as Record<string, unknown>;
  } catch (e) {
    throw new CairnError("INVALID_INPUT", `front matter: ${(e as Error).message.split("\n")[0]}`);
  }
  const id = optString(front.id);
  if (!id) throw new CairnError("INVALID_INPUT", "front matter has no id");
  const sec = sectionsOf(text.slice(m[0].length));
  const pattern = patternSection(sec.get("pattern"));
  const fields = fieldsFromDocument({
    title: front.title ?? null,
    lesson: sec.get("lesson") ?? null,
    why: sec.get("why") || null,
    root_cause: front.root_cause_category ?? null,
    category: front.category ?? null,
    kind: front.kind ?? null,
    tags: front.tags ?? null,
    prevention: { rule: sec.get("rule") || null, detection_pattern: pattern.pattern ?? null, suggested_guardrail: sec.get("guardrail") || null },
    applicability: { projects: front.projects ?? null, file_patterns: withFiles(front.file_patterns, pattern.files), tech_stack: front.tech_stack ?? null },
    enforcement: front.enforcement ?? null,
    supersedes: front.supersedes ?? null,
  });
  const out: ParsedMirrorFile = { id, fields: completeFields(fields) };
  for (const k of ["handle", "updated_at", "status", "content_hash"] as const) {
    const v = optString(front[k]);
    if (v) out[k] = v;
  }
  return out;
}
