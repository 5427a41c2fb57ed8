// Guesses an import file's format from its name, else from the fields of its first JSON line.
import { basename } from "node:path";
import type { ImportFormat } from "./types.js";

const BY_NAME: Readonly<Record<string, ImportFormat>> = {
  "context.md": "context-md",
  "knowledge.jsonl": "opencode-swarm",
  "shared-learnings.jsonl": "opencode-swarm",
  "hive-knowledge.jsonl": "opencode-swarm",
  "knowledge-rejected.jsonl": "opencode-swarm",
  "shared-learnings-rejected.jsonl": "opencode-swarm",
  "memories.jsonl": "swarm-tools",
};

export function detectFormat(path: string, firstLines: string[]): ImportFormat | undefined {
  const byName = BY_NAME[basename(path).toLowerCase()];
  if (byName) return byName;
  for (const text of firstLines) {
    const row = tryObject(text);
    if (!row) continue;
    // Only the first parseable object decides, so one odd row cannot outvote the header.
    if ("cairn_export" in row || ("schema_version" in row && "lifecycle" in row)) return "cairn";
    if ("information" in row) return "swarm-tools";
    if ("lesson" in row && ("confirmed_by" in row || "phases_alive" in row || "tier" in row || "rejection_reason" in row)) {
      return "opencode-swarm";
    }
    return undefined;
  }
  return undefined;
}

/**
 * What to tell a person whose file detectFormat could not place: the format that reads rows like its first one
 * (a row with a string `lesson` is one lesson per line, as opencode-swarm writes it), else what each format is known by.
 */
export function formatHint(firstLines: string[]): string {
  const row = firstLines.map(tryObject).find((r) => r !== undefined);
  if (row && typeof row.lesson === "string") {
    return `its rows hold a "lesson" field, one lesson per line: pass --format opencode-swarm to read them (category, tags, scope and the other opencode-swarm fields are kept).`;
  }
  return (
    `pass --format: cairn (a \`cairn export\`), opencode-swarm (JSON lines with a "lesson" field), ` +
    `swarm-tools (JSON lines with an "information" field) or context-md (Markdown bullets under ## Lessons Learned, ## Patterns, ## SME Cache or ## Decisions).`
  );
}

function tryObject(text: string): Record<string, unknown> | undefined {
  if (!text.trimStart().startsWith("{")) return undefined;
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
