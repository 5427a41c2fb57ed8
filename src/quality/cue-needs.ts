// What a function cue needs from a text to be true: regexes that must each match in it, read by the injection cues' prefilter.

/**
 * The regexes a function test cannot be true without, on an ASCII text (the prefilter reads no other): each of `regexes`
 * must match somewhere in the text, or in a piece of it (only the characters a match consumes count), and one of `anyOf`
 * at least. `cutAtSpaces`: the test reads the text with parts replaced by a space, so only the space-free pieces of what
 * they require hold.
 */
export interface Needs {
  regexes?: readonly RegExp[];
  anyOf?: readonly RegExp[];
  cutAtSpaces?: boolean;
}

/** A function test that may say what it needs. */
export type TestWithNeeds = ((text: string) => boolean) & { needs?: Needs };

/** Marks a function test with the regexes it cannot be true without (a test in test/quality/cue-prefilter proves each such claim). */
export function withNeeds<T extends (text: string) => boolean>(test: T, needs: Needs): T & { needs: Needs } {
  return Object.assign(test, { needs });
}
