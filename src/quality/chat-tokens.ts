// Chat-template special tokens (<|im_start|>, [INST], <<SYS>>): used as a turn's structure, or named in a sentence about the code that handles them.

export const SPECIAL_TOKEN = /<\|[^|>\n]{1,40}\|>|\[\/?INST\]|<<\/?SYS>>/gi;
/** The same, for emptying a code span: a replace sets a global regex's lastIndex to 0, which would restart the scan's loop. */
const ANY_SPECIAL_TOKEN = new RegExp(SPECIAL_TOKEN.source, "gi");
/** How far back a token's sentence is read for the word that names it, and for the backtick that opens its code span. */
const LOOK_BACK = 160;
/**
 * What code does with a special token: a rule about building, cleaning or tokenizing prompts names them as its subject
 * ("wrap each turn in <|im_start|> and <|im_end|>", "strip <|endoftext|> from output", "the tokenizer maps …").
 * Saying or putting one is not among them: "never say <|im_start|>", "don't put <|im_start|> tokens in docs" only carry it.
 */
const NAMING_WORD =
  /\b(?:wrap|strip|escap|emit|remov|append|prepend|insert|encod|decod|tokeni[sz]|templat|detect|filter|replac|split|trim|sanitiz|stop|special|delimit|terminat|eos|bos|vocab)\w*/i;
/**
 * What may follow a named token: the sentence's end, a mark, or a word that goes on talking about it ("and <|im_end|>",
 * "from model output", "as a stop sequence"). A role or text right after it ("<|im_start|>system You…", "<|system|>\nAlways…",
 * "[INST] <<SYS>>") opens a turn.
 */
const NAMED_FOLLOWER =
  /^(?:\s*$|[ \t]*[,.;:)!?"'\]]|[ \t]+(?:and|or|from|in|at|to|when|before|after|as|with|into|on|if|then|for|between|around|is|are|tokens?|markers?|tags?|delimiters?|sequences?|ids?|so|by|via|out|off|inside|within|while|once|until|each|every)\b)/i;
const SENTENCE_END = /[.!?](?:\s|$)|\n/g;

/** The text of the sentence before `at`, at most LOOK_BACK characters. */
function sentenceBefore(text: string, at: number): string {
  const window = text.slice(Math.max(0, at - LOOK_BACK), at);
  let start = 0;
  SENTENCE_END.lastIndex = 0;
  for (let m = SENTENCE_END.exec(window); m; m = SENTENCE_END.exec(window)) start = m.index + m[0].length;
  return window.slice(start);
}

/**
 * Whether the token at [at, end) sits alone in a code span: `<|im_start|>`, or a span of tokens only (`<<SYS>>`, `[INST]`).
 * Read on its line within LOOK_BACK characters either side (a longer line's token is read as used), so each token costs
 * the same however long the text.
 */
function backticked(text: string, at: number, end: number): boolean {
  const before = text.slice(Math.max(0, at - LOOK_BACK), at);
  const lineStart = before.lastIndexOf("\n") + 1;
  if (lineStart === 0 && at > LOOK_BACK) return false;
  const after = text.slice(end, end + LOOK_BACK);
  const open = before.lastIndexOf("`");
  const close = after.indexOf("`");
  if (open < lineStart || close < 0 || after.slice(0, close).includes("\n")) return false;
  // Inside a span only if the backticks before it on its line are odd in number.
  if ((before.slice(lineStart).match(/`/g)?.length ?? 0) % 2 === 0) return false;
  return (before.slice(open + 1) + text.slice(at, end) + after.slice(0, close)).replace(ANY_SPECIAL_TOKEN, "").trim() === "";
}

/** Whether any special token in the text is used rather than named: a chat turn built, not a rule about building one. */
export function specialTokenUsed(kept: string): boolean {
  SPECIAL_TOKEN.lastIndex = 0;
  for (let m = SPECIAL_TOKEN.exec(kept); m; m = SPECIAL_TOKEN.exec(kept)) {
    const end = m.index + m[0].length;
    if (backticked(kept, m.index, end)) continue;
    const follower = kept.slice(end, end + 40);
    if (!NAMED_FOLLOWER.test(follower)) return stop();
    // The naming word before it in its sentence, or just after it: "pass <|im_end|> as a stop sequence".
    if (NAMING_WORD.test(sentenceBefore(kept, m.index)) || NAMING_WORD.test(follower.split(/[.!?](?:\s|$)|\n/)[0]!)) continue;
    return stop();
  }
  return false;
}

/** A token found used: the scan's regex reset for the next text. */
function stop(): true {
  SPECIAL_TOKEN.lastIndex = 0;
  return true;
}
