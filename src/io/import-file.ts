// Importing a file through the normal write path: bad lines reported by number, never fatal.
import fs from "node:fs";
import path from "node:path";
import { fingerprintLesson } from "../core/ids.js";
import type { Entry } from "../core/entry.js";
import { CairnError } from "../errors.js";
import { writeLesson } from "../lifecycle/write.js";
import { validateLessonText } from "../quality/gates.js";
import { storeFor, type Services } from "../services.js";
import { DuplicateEntryError } from "../store/store.js";
import { detectFormat } from "./detect.js";
import { readFirstLines } from "./lines.js";
import { parseFile } from "./parse.js";
import { IMPORT_FORMATS, type BadLine, type ImportFormat } from "./types.js";

export interface ImportOptions {
  format?: ImportFormat | "auto";
  /** Bulk load of existing data: skips the quality layer, keeps original ids as external_id. */
  trusted?: boolean;
  actor?: string;
  /** Called every few hundred records with the count processed so far. */
  onProgress?: (processed: number) => void;
}

export interface ImportReport {
  format: ImportFormat;
  imported: number;
  reinforced: number;
  rejected: number;
  /** Lossless entries whose id is already present. */
  unchanged: number;
  skipped_lines: BadLine[];
  /** Why records were rejected, with their line numbers (first 100). */
  rejections: Array<{ line: number; reason: string }>;
  /** What the parser repaired in a record, e.g. an unreadable date dropped (first 100). */
  warnings: Array<{ line: number; warning: string }>;
}

async function resolveFormat(file: string, format: ImportOptions["format"]): Promise<ImportFormat> {
  if (format && format !== "auto") {
    if (!IMPORT_FORMATS.includes(format)) {
      throw new CairnError("INVALID_INPUT", `Unknown import format "${format}"; use one of auto, ${IMPORT_FORMATS.join(", ")}.`);
    }
    return format;
  }
  const detected = detectFormat(file, await readFirstLines(file));
  if (!detected) {
    throw new CairnError("IMPORT_ERROR", `Cannot tell the format of ${path.basename(file)}; pass --format (${IMPORT_FORMATS.join(", ")}).`);
  }
  return detected;
}

/** A lossless Cairn entry is restored as it was, after the secrets gate and sanitising (never skipped). */
async function restoreEntry(s: Services, entry: Entry, actor: string): Promise<"imported" | "unchanged" | "reinforced" | { rejected: string }> {
  if (entry.tier === "hive" && !s.hive) return { rejected: "hive entry but the hive is disabled" };
  const store = storeFor(s, entry.tier);
  if (await store.getEntry(entry.id)) return "unchanged";
  const gate = validateLessonText(entry.lesson, { trusted: true });
  if (!gate.ok) return { rejected: gate.issues.filter((i) => i.severity === "reject").map((i) => i.message).join("; ") };
  if ((await store.findByFingerprint(fingerprintLesson(gate.text))).length > 0) return "reinforced";
  try {
    await store.insertEntry({ ...entry, lesson: gate.text }, { type: "created", actor, data: { source: "import", lossless: true } }, { unique: true });
  } catch (e) {
    if (e instanceof DuplicateEntryError) return "reinforced";
    throw e;
  }
  return "imported";
}

export async function importFile(s: Services, file: string, opts: ImportOptions = {}): Promise<ImportReport> {
  if (!fs.existsSync(file) || !fs.statSync(file).isFile()) {
    throw new CairnError("IMPORT_ERROR", `Cannot import ${file}: no such file.`);
  }
  const format = await resolveFormat(file, opts.format);
  const actor = opts.actor ?? "import";
  const report: ImportReport = { format, imported: 0, reinforced: 0, rejected: 0, unchanged: 0, skipped_lines: [], rejections: [], warnings: [] };
  let processed = 0;
  for await (const item of parseFile(file, format)) {
    processed++;
    if (opts.onProgress && processed % 250 === 0) opts.onProgress(processed);
    if (!item.ok) {
      report.skipped_lines.push(item.bad);
      continue;
    }
    const { record } = item;
    for (const warning of record.warnings ?? []) if (report.warnings.length < 100) report.warnings.push({ line: record.line, warning });
    if (record.entry) {
      const r = await restoreEntry(s, record.entry, actor);
      if (typeof r === "string") report[r]++;
      else {
        report.rejected++;
        if (report.rejections.length < 100) report.rejections.push({ line: record.line, reason: r.rejected });
      }
      continue;
    }
    const tier = record.tier === "hive" && s.hive ? "hive" : "swarm";
    const result = await writeLesson(s, record.input, { tier, actor, source: "import", trusted: opts.trusted ?? false });
    if (result.action === "added") report.imported++;
    else if (result.action === "reinforced") report.reinforced++;
    else {
      report.rejected++;
      if (report.rejections.length < 100) report.rejections.push({ line: record.line, reason: result.reason ?? "rejected" });
    }
  }
  opts.onProgress?.(processed);
  return report;
}
