// Phrasal verbs engineering text also writes as one word, the noun or adjective of the same act: "set up" and "setup", "log in" and "login", "shut down" and "shutdown".
import { porterStem } from "./porter.js";

/** Verb and particle; the joined word is the two run together. Only pairs whose joined word is common in engineering text. */
const PHRASES =
  "set up,log in,log out,sign up,sign in,check out,roll back,roll out,back up,clean up,shut down,start up,tear down," +
  "warm up,fall back,fail over,work around,time out,hand off,lock out,pop up,plug in";

/** The particles of the table: only a word after one of these has its verb looked up. */
export const PARTICLES: ReadonlySet<string> = new Set(PHRASES.split(",").map((p) => p.split(" ")[1]!));

/** "<verb's stem> <particle>" → the joined word: "set up", "setting up", "sets up" → "setup"; "timed out" → "timeout". */
const JOINED = new Map<string, string>();
/** The joined word's stem → the phrase: "setup", "setups" → "set up". */
const PHRASE = new Map<string, string>();
for (const phrase of PHRASES.split(",")) {
  const [verb, particle] = phrase.split(" ") as [string, string];
  JOINED.set(`${porterStem(verb)} ${particle}`, verb + particle);
  PHRASE.set(porterStem(verb + particle), phrase);
}

/** The joined word of a verb (any tense: it is stemmed) and its particle (lower case), if the table has one. */
export function joinedPhrasal(verb: string, particle: string): string | undefined {
  return JOINED.get(`${porterStem(verb)} ${particle}`);
}

/** The phrase a lower-case joined word ("setups") is written apart as ("set up"), if the table has it. */
export function phrasalOf(word: string): string | undefined {
  return PHRASE.get(porterStem(word));
}
