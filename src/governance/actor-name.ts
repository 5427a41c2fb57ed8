// What a name may be after `human:`, `agent:`… (web sign-in, --actor, CAIRN_ACTOR): letters of any alphabet, never a look-alike of another name.
import { foldConfusables } from "../quality/confusables.js";

/** Said to whoever types a name that is refused, and beside the field. */
export const NAME_RULE = "letters of any alphabet, digits, _ . - (spaces become -), at most 60";

/** Letters and their accents, digits, and the three marks a login name uses; nothing invisible, no other punctuation. */
const NAME_RE = /^[\p{L}\p{M}\p{Nd}_.-]+$/u;
const MAX_CHARS = 60;

/** Scripts whose letters are drawn alike (a, а, α): a name mixing them reads as another person's. */
const LOOKALIKE_SCRIPTS: [string, RegExp][] = [
  ["Latin", /\p{Script=Latin}/u],
  ["Cyrillic", /\p{Script=Cyrillic}/u],
  ["Greek", /\p{Script=Greek}/u],
];

export type NameCheck = { name: string } | { problem: string };

/**
 * `raw` as typed at the web sign-in, as it goes into `human:<name>`: trimmed, NFC (so "José" typed
 * decomposed is the same actor as precomposed), runs of spaces made "-", then held to nameProblem.
 */
export function checkName(raw: string): NameCheck {
  const name = raw.normalize("NFC").trim().replace(/^human:/, "").replace(/\s+/g, "-");
  if (name === "") return { problem: `Type your name: ${NAME_RULE}.` };
  const problem = nameProblem(name);
  return problem ? { problem } : { name };
}

/**
 * Why `name` (NFC already) cannot follow `human:`, `agent:`… in an actor, or undefined when it can.
 * Refused: characters outside the rule, more than 60 characters, letters from look-alike scripts mixed
 * in one name, and a name wholly of look-alike letters that the confusables table reads as a plain
 * ASCII name (Cyrillic "аlice" is "alice" to every reviewer).
 */
export function nameProblem(name: string): string | undefined {
  const chars = [...name];
  if (chars.length > MAX_CHARS) return `That name is ${chars.length} characters; names hold ${NAME_RULE}.`;
  if (!NAME_RE.test(name)) return `Names hold ${NAME_RULE}; "${chars.filter((ch) => !NAME_RE.test(ch)).slice(0, 3).join(" ")}" cannot be in one.`;
  const scripts = LOOKALIKE_SCRIPTS.filter(([, re]) => re.test(name)).map(([s]) => s);
  if (scripts.length > 1) return `That name mixes ${scripts.join(" and ")} letters, which look alike: type it in one alphabet.`;
  const folded = foldConfusables(name);
  if (folded !== name && /^[\x21-\x7e]+$/.test(folded)) return `That name is drawn like "${folded}" in other letters: type it as "${folded}", or in letters that do not read as another name.`;
  return undefined;
}
