// Guardrail proposals: an entry's suggested guardrail becomes a Markdown task file a person implements (never automatic).
import fs from "node:fs";
import path from "node:path";
import YAML from "yaml";
import type { Entry } from "../core/entry.js";
import { makeFolder } from "../core/folders.js";
import { CairnError } from "../errors.js";
import { HOW_TO_EDIT, locate } from "../lifecycle/status.js";
import type { Services } from "../services.js";
import { assertHuman } from "./actors.js";
import { slugOf } from "./mirror-format.js";

export interface GuardrailProposal {
  file: string;
  entry: { id: string; handle: string };
  guardrail_type: string;
  overwritten: boolean;
}

export function guardrailType(text: string): string {
  const t = text.toLowerCase();
  if (/\b(eslint|lint|linter|semgrep|ruff|clippy)\b/.test(t)) return "lint";
  if (/\b(pre-commit|hook|husky)\b/.test(t)) return "hook";
  if (/\b(test|tests|spec|assert)\b/.test(t)) return "test";
  if (/\b(ci|pipeline|workflow|github actions)\b/.test(t)) return "ci";
  if (/\b(type|types|tsconfig|strict|mypy)\b/.test(t)) return "type-check";
  return "other";
}

function proposal(e: Entry, type: string, at: string): string {
  const p = e.prevention;
  const front = YAML.stringify(
    { source_entry: e.id, handle: e.handle, guardrail_type: type, status: "proposed", file_patterns: e.applicability.file_globs, created_at: at },
    { lineWidth: 0 },
  );
  const globs = e.applicability.file_globs;
  return [
    `---\n${front}---\n`,
    `# Implement guardrail from ${e.handle}: ${(e.title ?? e.lesson).replace(/\s+/g, " ").slice(0, 80)}\n`,
    `## Suggested guardrail\n\n${p.suggested_guardrail}\n`,
    `## Why\n\n${e.lesson}${e.why ? `\n\n${e.why}` : ""}\n`,
    p.rule ? `## Prevention rule\n\n${p.rule}\n` : "",
    p.detection_pattern ? `## Detection pattern\n\n\`\`\`\`text\n${p.detection_pattern}\n\`\`\`\`\n` : "",
    `## Files\n\n${globs.length ? globs.map((g) => `- \`${g}\``).join("\n") : "- (the entry names no file patterns: decide the scope)"}\n`,
    "## Done when\n\n- [ ] The guardrail is implemented and fails on code that breaks the rule\n- [ ] It runs where the team will see it (tests, lint, hook or CI)\n" +
      `- [ ] ${e.handle} is updated to say the guardrail exists\n`,
  ]
    .filter(Boolean)
    .join("\n");
}

/**
 * Refuses an entry without a suggested guardrail; never overwrites a proposal (someone may be working from it) without `force`.
 * Only a person proposes: the file is a task people act on, and `force` overwrites someone's work.
 */
export async function proposeGuardrail(s: Services, ref: string, opts: { force?: boolean; actor: string }): Promise<GuardrailProposal> {
  assertHuman(opts.actor, "propose a guardrail");
  const { entry } = await locate(s, ref);
  if (!entry.prevention.suggested_guardrail) {
    throw new CairnError("INVALID_INPUT", `${entry.handle} has no suggested guardrail; add one first (the Suggested Guardrail section, prevention.suggested_guardrail) ${HOW_TO_EDIT}.`);
  }
  const dir = path.resolve(s.project.dir, s.config.swarm_dir, "guardrails");
  const file = path.join(dir, `${entry.handle}-${slugOf(entry.title ?? entry.lesson)}.md`);
  const type = guardrailType(entry.prevention.suggested_guardrail);
  const content = proposal(entry, type, s.now().toISOString());
  makeFolder(dir);
  const exists = fs.existsSync(file);
  if (exists && !opts.force) throw new CairnError("FORCE_REQUIRED", `${file} already exists; overwriting it must be forced.`, { file });
  // "wx" makes the no-force case atomic against a concurrent writer.
  fs.writeFileSync(file, content, { flag: opts.force ? "w" : "wx" });
  return { file, entry: { id: entry.id, handle: entry.handle }, guardrail_type: type, overwritten: exists };
}
