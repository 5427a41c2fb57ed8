// Realistic benchmark text: real swarm-tools memories split into sentences, plus generated lessons across stacks.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Category, Kind } from "../src/core/entry.js";
import type { RetrievalContext } from "../src/retrieval/context.js";
import { chance, int, pick, pickSkewed, type Rng } from "./rng.js";
import {
  CONDITIONS, DOMAINS, FIXES, MODULE_KINDS, NOUNS, PHASES, REASONS, STACKS, SUFFIXES, SYMPTOMS, USER_MESSAGES, VERBS, type Stack,
} from "./vocab.js";

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const MEMORIES = path.resolve(REPO_ROOT, "../shared/data/swarm-tools-memories.jsonl");

export interface GeneratedLesson {
  lesson: string;
  category: Category;
  kind: Kind;
  stack: Stack;
  domain: string;
  file: string;
}

let real: string[] | undefined;

/** Sentences of 40–280 chars from the real memories file (empty when the file is absent). */
export function realSentences(): string[] {
  if (real) return real;
  const out = new Set<string>();
  if (fs.existsSync(MEMORIES)) {
    for (const line of fs.readFileSync(MEMORIES, "utf8").split("\n")) {
      let info: unknown;
      try {
        info = (JSON.parse(line) as { information?: unknown }).information;
      } catch {
        continue; // the file's known-bad line 730
      }
      if (typeof info !== "string") continue;
      for (const s of info.split(/(?<=[.!?])\s+|\n+/)) {
        const t = s.trim();
        if (t.length >= 40 && t.length <= 280 && /[a-z]{3}/.test(t)) out.add(t);
      }
    }
  }
  real = [...out];
  return real;
}

export function identifier(rng: Rng): string {
  return pickSkewed(rng, VERBS) + pickSkewed(rng, NOUNS) + pick(rng, SUFFIXES);
}

export function filePath(rng: Rng, stack: Stack, domain: string): string {
  const base = `${pick(rng, ["src", "app", "lib", "internal", "services"])}/${domain}/${pick(rng, MODULE_KINDS)}`;
  return stack.ext === "Dockerfile" ? `${domain}/Dockerfile` : `${base}.${stack.ext}`;
}

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** One generated lesson; `tag` (a number) makes it distinct from every other one when given. */
export function generatedLesson(rng: Rng, tag?: number): GeneratedLesson {
  const stack = pickSkewed(rng, STACKS);
  const domain = pickSkewed(rng, DOMAINS);
  const file = filePath(rng, stack, domain);
  const tool = pick(rng, stack.tools);
  const ident = identifier(rng);
  const mod = `${domain} ${pick(rng, MODULE_KINDS)}`;
  const [symptom, condition, fix, reason] = [pickSkewed(rng, SYMPTOMS), pickSkewed(rng, CONDITIONS), pickSkewed(rng, FIXES), pick(rng, REASONS)];
  const ref = tag === undefined ? "" : ` (INC-${tag})`;
  const n = int(rng, 2, 120) * 50;
  const t = int(rng, 0, 9);
  const [text, category, kind]: [string, Category, Kind] =
    t === 0 ? [`\`${ident}\` in ${file} ${symptom} when ${condition}; ${fix}${ref}.`, "debugging", "correction"]
    : t === 1 ? [`${tool} in the ${mod} ${symptom} when ${condition}: ${fix}${ref}.`, "debugging", "learning"]
    : t === 2 ? [`Decided to use ${tool} for the ${mod} because ${reason}${ref}.`, "architecture", "decision"]
    : t === 3 ? [`Tests for ${ident} are flaky when ${condition}; ${fix} and run them with ${pick(rng, stack.tools)}${ref}.`, "testing", "gap"]
    : t === 4 ? [`In ${file}, ${fix} before calling ${ident}: ${reason}${ref}.`, "process", "pattern"]
    : t === 5 ? [`The ${mod} ${symptom} if ${ident} runs before ${identifier(rng)}; ${fix}${ref}.`, "debugging", "insight"]
    : t === 6 ? [`Keep the ${mod} timeout at ${n} ms when ${condition}, because ${reason}${ref}.`, "performance", "learning"]
    : t === 7 ? [`Never call ${ident} from the ${domain} request path; ${fix} instead${ref}.`, "architecture", "correction"]
    : t === 8 ? [`${tool} ${symptom} in ${stack.name} projects when ${condition}; ${fix}${ref}.`, "tooling", "learning"]
    : [`For ${domain === "auth" || domain === "permissions" ? "security" : "safety"}, the ${mod} must ${fix} when ${condition}${ref}.`, domain === "auth" || domain === "permissions" ? "security" : "integration", "commitment"];
  return { lesson: cap(text).slice(0, 280), category, kind, stack, domain, file };
}

/** A free-text recall query in the words people type: a symptom, a tool, a file or an identifier. */
export function recallQuery(rng: Rng): string {
  const stack = pickSkewed(rng, STACKS);
  const domain = pickSkewed(rng, DOMAINS);
  switch (int(rng, 0, 4)) {
    case 0: return `${domain} ${pickSkewed(rng, SYMPTOMS)}`;
    case 1: return `${pick(rng, stack.tools)} ${pickSkewed(rng, CONDITIONS)}`;
    case 2: return `why does ${identifier(rng)} fail in ${domain}`;
    case 3: return `${filePath(rng, stack, domain)} ${pickSkewed(rng, FIXES)}`;
    default: return pick(rng, realSentences().length ? realSentences() : SYMPTOMS).split(/\s+/).slice(0, 6).join(" ");
  }
}

/** A new agent turn: a phase, a task, files in play and the user's last message, never the same twice. */
export function injectContext(rng: Rng, i: number): RetrievalContext {
  const stack = pickSkewed(rng, STACKS);
  const domain = pickSkewed(rng, DOMAINS);
  const files = Array.from({ length: int(rng, 1, 4) }, () => filePath(rng, stack, chance(rng, 0.7) ? domain : pickSkewed(rng, DOMAINS)));
  return {
    phase: `Phase ${1 + (i % 9)}: ${pick(rng, PHASES)} of the ${domain} ${pick(rng, MODULE_KINDS)}`,
    task: `${cap(pick(rng, FIXES))} in ${identifier(rng)} so the ${domain} flow no longer ${pickSkewed(rng, SYMPTOMS)} (task ${i})`,
    files,
    lastMessage: pick(rng, USER_MESSAGES),
    agent: "architect",
    techStack: chance(rng, 0.5) ? [stack.name] : [],
    tokensUsed: int(rng, 1_000, 40_000),
  };
}
