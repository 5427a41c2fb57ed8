// The injection cues' literal prefilter changes no answer: a cue it skips never matches, on attack sets, rules, tests' strings and their mutations.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import { fileURLToPath } from "node:url";
import { makeRng, pick, type Rng } from "../../bench/rng.js";
import { generatedLesson } from "../../bench/corpus.js";
import { shortcuts } from "../../src/core/shortcuts.js";
import { cueKey, cuePrefilter } from "../../src/quality/cue-prefilter.js";
import { CUE_LITERALS } from "../../src/quality/cue-literals.js";
import { findInjectionMarkers, foldForMatching, injectionCueLists } from "../../src/quality/injection.js";
import { cueLiteralsModule, requiredLiterals } from "../../src/quality/required-literals.js";

const here = (rel: string) => fileURLToPath(new URL(rel, import.meta.url));
const evalTexts = (name: string): string[] =>
  fs.readFileSync(here(`../../eval/gates/${name}.jsonl`), "utf8").trim().split("\n").map((l) => (JSON.parse(l) as { text: string }).text);

/** Every quoted string in the injection gate's own tests: the attacks and the near-misses each cue was written against. */
function testStrings(): string[] {
  const out: string[] = [];
  for (const f of fs.readdirSync(here("."))) {
    if (!/^(?:injection|safety|gates|real-world)/.test(f)) continue;
    const src = fs.readFileSync(here(f), "utf8");
    for (const [lit] of src.matchAll(/"(?:[^"\\\n]|\\.){6,}"/g)) {
      try {
        out.push(JSON.parse(lit) as string);
      } catch {
        // not a JSON string literal (a regex source, an escape JSON does not know): skipped
      }
    }
  }
  return out;
}

/** The text changed as an attacker or a typist would: case, blanks, cut, glued to another, punctuation inserted. */
function mutate(rng: Rng, text: string, other: string): string {
  switch (Math.floor(rng() * 7)) {
    case 0: return text.toUpperCase();
    case 1: return [...text].map((c) => (rng() < 0.3 ? c.toUpperCase() : c.toLowerCase())).join("");
    case 2: return text.replace(/ /g, () => pick(rng, [" ", "  ", "\t", "\n", " \n "]));
    case 3: return text.slice(Math.floor(rng() * text.length / 2), text.length - Math.floor(rng() * text.length / 3));
    case 4: return `${text.slice(0, Math.floor(rng() * text.length))}${pick(rng, [". ", "\n", ", ", " "])}${other}`;
    case 5: return [...text].map((c) => (rng() < 0.05 ? c + pick(rng, ["-", "_", ".", "'", '"', ":", "#", "*", "<", ">", "|", "[", "]"]) : c)).join("");
    default: return text.replace(/[aeiou]/g, (c) => (rng() < 0.1 ? "" : c));
  }
}

function corpus(): string[] {
  const rng = makeRng(7);
  const base = [
    ...evalTexts("injections"), ...evalTexts("legit-rules"), ...evalTexts("warnings"), ...testStrings(),
    ...Array.from({ length: 300 }, () => generatedLesson(rng).lesson),
  ];
  const mutated = base.flatMap((t) => [mutate(rng, t, pick(rng, base)), mutate(rng, t, pick(rng, base))]);
  return [...base, ...mutated];
}

test("cue-literals.ts is what scripts/gen-cue-literals.ts makes from the cues as they are now (npm run gen:cue-literals)", async () => {
  assert.equal(fs.readFileSync(here("../../src/quality/cue-literals.ts"), "utf8"), await cueLiteralsModule());
});

test("a cue the prefilter skips never matches: every cue, every text of the corpus, as written and folded", () => {
  const texts = corpus();
  const { kept, folded } = injectionCueLists();
  let skipped = 0;
  let checked = 0;
  for (const cues of [kept, folded]) {
    const filter = cuePrefilter(cues.map((c) => c.re), CUE_LITERALS);
    for (const raw of texts) {
      for (const text of new Set([raw, foldForMatching(raw)])) {
        const may = filter.mayMatch(text);
        if (may === undefined) continue;
        checked++;
        cues.forEach((cue, i) => {
          if (may[i] === 1) return;
          skipped++;
          const hit = typeof cue.re === "function" ? cue.re(text) : cue.re.test(text);
          assert.equal(hit, false, `cue ${i} (${cue.label}) skipped but matches ${JSON.stringify(text)}; requirement ${JSON.stringify(filter.requirements[i]!.map((c) => [...c]))}`);
        });
      }
    }
  }
  // The prefilter did skip most cue runs: the proof covers real skips, not a filter that lets everything through.
  assert.ok(checked > 3000, `${checked} ASCII texts`);
  assert.ok(skipped > checked * 20, `${skipped} skips over ${checked} texts`);
});

test("findInjectionMarkers answers the same with the prefilter off (shortcuts off) on the whole corpus", () => {
  const texts = corpus();
  // The prefilter is built once a process has read a few hundred texts: read them first, so that every text below is filtered.
  const rng = makeRng(11);
  for (let i = 0; i < 600; i++) findInjectionMarkers(generatedLesson(rng).lesson);
  const on = texts.map((t) => JSON.stringify(findInjectionMarkers(t)));
  shortcuts.enabled = false;
  try {
    texts.forEach((t, i) => assert.equal(JSON.stringify(findInjectionMarkers(t)), on[i], JSON.stringify(t)));
  } finally {
    shortcuts.enabled = true;
  }
  assert.ok(on.filter((a) => a !== "[]").length > 500, "the corpus holds attacks the gate refuses");
});

test("requiredLiterals reads only what every match consumes", () => {
  const req = (re: RegExp) => requiredLiterals(re).map((c) => [...c].sort());
  // Exact strings multiply out across optional parts, then are cut to their first eight characters.
  assert.deepEqual(req(/\bignore (?:all )?previous\b/), [["ignore a", "ignore p"]]);
  // Alternation: one literal of each branch; a branch with none (\w+) makes the whole require nothing.
  assert.deepEqual(req(/foo|bar/), [["bar", "foo"]]);
  assert.deepEqual(req(/foo|\w+/), []);
  // Optional parts require nothing; a part repeated at least once requires itself.
  assert.deepEqual(req(/(?:abc)?/), []);
  assert.deepEqual(req(/(?:abc)*/), []);
  assert.deepEqual(req(/(?:abc)+x/), [["abc"]]);
  // Case: literals are lowercase, whatever the flags.
  assert.deepEqual(req(/DAN Mode/), [["dan mode"]]);
  assert.deepEqual(req(/Ignore/i), [["ignore"]]);
  // Zero-width parts join what is on either side: \b, ^, lookarounds consume nothing.
  assert.deepEqual(req(/a\bb(?=zzz)(?<!qqq)c/), [["abc"]]);
  // Non-ASCII and classes of many letters are unknown; a small ASCII class multiplies out.
  assert.deepEqual(req(/caf[eé]/), [["caf"]]);
  assert.deepEqual(req(/\u017Fecret/iu), [["ecret"]]);
  assert.deepEqual(req(/gr[ae]y/), [["gray", "grey"]]);
  // A backreference is anything.
  assert.deepEqual(req(/(ab)\1/), [["ab"]]);
  // Nothing but short literals: nothing required.
  assert.deepEqual(req(/a|b/), []);
});

test("a cue edited after cue-literals.ts was made has no entry and always runs: a stale table never changes an answer", () => {
  const filter = cuePrefilter([/\bsecret handshake\b/, /zzz/], CUE_LITERALS);
  assert.equal(cueKey(/\bsecret handshake\b/)! in CUE_LITERALS, false);
  assert.deepEqual([...(filter.mayMatch("nothing here") ?? [])], [1, 1]);
  // Non-ASCII text: every cue runs.
  assert.equal(filter.mayMatch("caf\u00e9"), undefined);
});
