// Letters spelled out with single spaces between them ("I g n o r e all previous instructions"), read back as words for the injection cues.

/**
 * Four single letters and more, each after one space, on the text as the cues read it (blanks already squeezed, so two spaces between letters read as one): the
 * sign that a word may be spelled out. Cheap, and nearly never there: initialisms ("U S A") are shorter, hex bytes ("de
 * ad be ef") and chess moves ("e4 e5") are not single letters.
 */
export const SPELLED_HINT = /(?<![a-z0-9])[a-z](?: [a-z]){3,}(?![a-z0-9])/;
/**
 * Two single letters and more, each after the same gap of one to three spaces: one spelled-out word. A wider gap ends it, as it
 * ends a word ("i  g  n  o  r  e   a  l  l"). Linear: a run given back one letter ends before a gap, which matches.
 */
const SPELLED_WORD = /(?<![a-z0-9])[a-z]( {1,3})[a-z](?:\1[a-z])*(?![a-z0-9])/g;
/**
 * The order words nobody spells out letter by letter but to slip them past a filter. Looked for inside a spelled run, not
 * as all of it: with one space between every letter the words run together ("ignoreallprevious…").
 */
const ORDER_WORD = /ignor|disregard|forget|overrid|bypass|reveal|jailbreak|instruction|previous/;

/**
 * The text with each spelled-out word joined again, from the folded text with its blanks kept (two spaces between spelled
 * words is how a word gap is written there), and whether one of them spells an order word. Undefined when nothing is
 * spelled out. A joined initialism or a row of placeholder letters ("nasa", "abcdef") is a word no cue reads.
 */
export function spelledOut(wide: string): { text: string; orderWord: boolean } | undefined {
  let orderWord = false;
  const text = wide.replace(SPELLED_WORD, (run: string) => {
    const word = run.replace(/ /g, "");
    if (word.length >= 4 && ORDER_WORD.test(word)) orderWord = true;
    return word;
  });
  return text === wide ? undefined : { text, orderWord };
}
