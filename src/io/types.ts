// What importers yield and exporters take: one parsed record or one reported bad line.
import type { Entry, NewEntryInput, Tier } from "../core/entry.js";
import type { ImportedHistory } from "../core/entry-input.js";

export type { ImportedHistory };

export const IMPORT_FORMATS = ["cairn", "opencode-swarm", "swarm-tools", "context-md"] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

/** A lesson read from a file: a new lesson for the engine's normal write path, or a whole stored entry to restore. */
export type ParsedRecord = RecordLine & (
  | { input: NewEntryInput; entry?: undefined; history?: ImportedHistory }
  // Lossless Cairn exports carry the whole stored entry; the engine restores it as-is (never through the write path, so no input).
  | { entry: Entry; input?: undefined }
);

interface RecordLine {
  /** 1-based line number (for context-md: the line the bullet starts on). */
  line: number;
  /** Tier the source file implies (e.g. opencode-swarm shared-learnings.jsonl → hive). */
  tier?: Tier;
  /** What the parser repaired on the way in (a date normalised or dropped), for the import report. */
  warnings?: string[];
}

export interface BadLine {
  line: number;
  /** Why the line was skipped, in words a user understands. Never echoes a secret. */
  error: string;
}

export type ParseItem = { ok: true; record: ParsedRecord } | { ok: false; bad: BadLine };
