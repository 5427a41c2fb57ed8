// Render-time sanitising: whatever text reaches an agent's prompt can be read, never obeyed as structure.

export type InvisibleClass = "control" | "invisible" | "bidi" | "tag" | "surrogate";

/** One pattern per class; `\t`, `\n` and `\r` are ordinary layout, not hidden content. */
export const INVISIBLE_PATTERNS: Readonly<Record<InvisibleClass, RegExp>> = {
  control: /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/u,
  // Zero-width, joiners, invisible operators, BOM, soft hyphen, Hangul fillers, interlinear
  // annotation, and variation selectors used to smuggle bytes (runs of them, or the supplement).
  invisible:
    /[\u00AD\u034F\u115F\u1160\u180E\u200B-\u200F\u2060-\u2064\u206A-\u206F\u3164\uFEFF\uFFA0\uFFF9-\uFFFB\u{E0100}-\u{E01EF}]|[\uFE00-\uFE0F]{2,}/u,
  bidi: /[\u061C\u202A-\u202E\u2066-\u2069]/u,
  tag: /[\u{E0000}-\u{E007F}]/u,
  // Under the `u` flag a surrogate class matches only a half without its partner: not text in any encoding.
  surrogate: /[\uD800-\uDFFF]/u,
};

export const INVISIBLE_LABELS: Readonly<Record<InvisibleClass, string>> = {
  control: "control characters",
  invisible: "zero-width or invisible characters",
  bidi: "BiDi override or isolate characters",
  tag: "Unicode tag characters",
  surrogate: "unpaired UTF-16 surrogates",
};

const CLASSES = Object.keys(INVISIBLE_PATTERNS) as InvisibleClass[];

/** Which classes of hidden characters the text holds, in a fixed order, each once. */
export function findInvisibleChars(text: string): InvisibleClass[] {
  return CLASSES.filter((c) => INVISIBLE_PATTERNS[c].test(text));
}

/** First offending code point of a class, as `U+XXXX`, so a message can point at it. */
export function firstInvisibleCodePoint(text: string, cls: InvisibleClass): string | undefined {
  const m = INVISIBLE_PATTERNS[cls].exec(text);
  const cp = m?.[0].codePointAt(0);
  return cp === undefined ? undefined : `U+${cp.toString(16).toUpperCase().padStart(4, "0")}`;
}

// A lone variation selector (emoji presentation, as in ⚠️) is legitimate and survives; runs go whole.
const STRIP_ALL = new RegExp(CLASSES.map((c) => INVISIBLE_PATTERNS[c].source).join("|"), "gu");

/** The text without any hidden character (keeps `\n`, `\t` and `\r`). */
export function stripInvisibleChars(text: string): string {
  return text.replace(STRIP_ALL, "");
}

/**
 * True when the text holds something to read once hidden characters are gone: a query or text of only
 * zero-width, BiDi or control characters passes a `/\S/` check yet says nothing.
 */
export function hasVisibleText(text: string): boolean {
  return /\S/.test(stripInvisibleChars(text));
}

/** What the refusal of such a text names as removed, on every face. */
export const INVISIBLE_REMOVED = "once invisible characters (zero-width, BiDi, control) are removed";

export const DEFAULT_PROMPT_MAX_CHARS = 500;

const ROLE_WORDS = "system|assistant|user|human|developer|tool|model|instructions?|response";
// A role label at a line start reads as a turn boundary to a model; quote it so it reads as a mention.
const ROLE_PREFIX = new RegExp(`^([ \\t>*_-]*)((?:#{1,6}[ \\t]*)?(?:${ROLE_WORDS})\\b[ \\t]*:?)`, "gimu");

/** What every prompt-bound text gets: hidden characters out, role labels quoted, no tag or chat token can form. */
function neutralize(text: string): string {
  let s = text.normalize("NFC").replace(/\r\n?|[\u2028\u2029]/g, "\n");
  s = stripInvisibleChars(s);
  s = s.replace(ROLE_PREFIX, (all, lead: string, role: string) => {
    // Only a heading or a trailing colon makes the word a label; "User accounts..." is prose.
    if (!/^#|:$/.test(role)) return all;
    return `${lead}“${role.replace(/#/g, "＃")}”`;
  });
  return (
    s
      // Full-width look-alikes: readable to a model, yet no tag, chat token or comment can form.
      .replace(/</g, "＜")
      .replace(/>/g, "＞")
      .replace(/\[(\/?)(INST|SYS)\]/gi, "［$1$2］")
  );
}

export function sanitizeForPrompt(text: string, maxChars: number = DEFAULT_PROMPT_MAX_CHARS): string {
  const s = neutralize(text)
    // A fence could close the block the renderer wraps lessons in.
    .replace(/`{3,}/g, (f) => f.split("").join(" "))
    .replace(/~{3,}/g, (f) => f.split("").join(" "))
    .replace(/\s+/g, " ")
    .trim();
  return truncateAtWord(s, maxChars);
}

/**
 * For whole documents shown as Markdown (a plan in a command answer): the same neutralising, but lines,
 * indentation and fences stay, so headings, lists and code render. Never for text inside a lessons block.
 */
export function sanitizeMarkdownForPrompt(text: string, maxChars: number = DEFAULT_PROMPT_MAX_CHARS): string {
  const s = neutralize(text)
    .replace(/[ \t]+$/gm, "")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
  return truncateAtWord(s, maxChars);
}

/**
 * For a string inside data handed to an agent whole (an MCP resource's JSON): the same neutralising, with
 * its layout and length kept, since the data is read as data, not cut to fit a prompt.
 */
export function sanitizeValueForPrompt(text: string): string {
  return neutralize(text);
}

/** At most `max` characters, cut at a word boundary where that costs little, ending in "…" when cut. */
export function truncateAtWord(s: string, max: number): string {
  if (!Number.isFinite(max) || s.length <= max) return s;
  if (max < 1) return "";
  let cut = Math.floor(max) - 1;
  if (cut > 0 && isHighSurrogate(s.charCodeAt(cut - 1))) cut--;
  let head = s.slice(0, cut);
  const space = head.lastIndexOf(" ");
  // Cut inside a word only when the last word would cost over 40% of the room.
  if (space >= Math.floor(cut * 0.6) && space > 0) head = head.slice(0, space);
  return head.replace(/[\s,;:.\-–—]+$/u, "") + "…";
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** Longest piece of a caller's own input a message quotes back. */
export const QUOTED_INPUT_MAX_CHARS = 80;

/**
 * A value the caller sent, quoted inside a message (an unknown argument name, category or id): messages
 * reach the model that made the call, so what it quotes is neutralised like any prompt-bound text.
 */
export function quoteInput(value: unknown, maxChars: number = QUOTED_INPUT_MAX_CHARS): string {
  return `"${sanitizeForPrompt(String(value), maxChars)}"`;
}

const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/**
 * A diagnostic's control characters as visible escapes (ESC as \u001b), line breaks and tabs kept, for every
 * face's stderr: what it quotes (a config key from a cloned repository's .swarm/cairn.json, a folder name)
 * could otherwise retitle the window, clear the screen or write the clipboard of the terminal reading it.
 */
export function visibleControls(text: string): string {
  return text.replace(CONTROLS, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
