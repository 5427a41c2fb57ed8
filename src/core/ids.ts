// Entry ids (time-ordered UUIDv7), handles, fingerprints, and validation of ids that come from tools.
import crypto, { createHash, randomFillSync } from "node:crypto";
import { v7 as uuidv7 } from "uuid";
import { CairnError } from "../errors.js";
import type { Tier } from "./entry.js";
import { shortcuts } from "./shortcuts.js";

/**
 * Random bytes drawn 4 KB at a time: uuid draws 16 per id through crypto.getRandomValues, which
 * cost ~15-35 µs an id inside a bulk import's main thread (~2 µs alone), for 256 ids one fill.
 */
const randomPool = new Uint8Array(4096);
let randomAt = randomPool.length;
/** The last id's millisecond and counter, kept as uuid keeps them when it draws the bytes itself. */
const v7State = { msecs: -Infinity, seq: 0 };

export function newEntryId(): string {
  if (randomAt === randomPool.length) {
    randomFillSync(randomPool);
    randomAt = 0;
  }
  const random = randomPool.subarray(randomAt, (randomAt += 16));
  // uuid's v7 rule: a new millisecond starts the counter at 31 random bits, the same millisecond
  // counts on, so ids made in one millisecond still sort in the order they were made.
  const now = Date.now();
  if (now > v7State.msecs) {
    v7State.msecs = now;
    v7State.seq = ((random[6]! & 0x7f) << 24) | (random[7]! << 16) | (random[8]! << 8) | random[9]!;
  } else {
    v7State.seq = (v7State.seq + 1) | 0;
    if (v7State.seq === 0) v7State.msecs++;
  }
  return uuidv7({ random, msecs: v7State.msecs, seq: v7State.seq });
}

const HANDLE_PREFIX: Record<Tier, string> = { swarm: "S", hive: "H" };

export function handleFor(tier: Tier, seq: number): string {
  return `${HANDLE_PREFIX[tier]}-${seq}`;
}

export function parseHandle(ref: string): { tier: Tier; seq: number } | undefined {
  const m = /^([SH])-(\d{1,12})$/i.exec(ref);
  if (!m) return undefined;
  return { tier: m[1]!.toUpperCase() === "S" ? "swarm" : "hive", seq: Number(m[2]) };
}

/**
 * An id, handle or external id given to a tool or command. Anything that could walk a path,
 * smuggle a NUL or run long is refused before it reaches a query.
 */
/** Dashes that are not "-" (hyphen, non-breaking hyphen, figure dash, en and em dash, minus sign, small and full-width hyphen-minus). */
const LOOKALIKE_DASHES = /[\u2010-\u2015\u2212\uFE58\uFE63\uFF0D]/g;

/**
 * A ref as the ASCII it stands for: models and keyboards write "S‑12" with a non-breaking hyphen, an en dash
 * or a minus sign, and IMEs "Ｓ－１２" in full width — the same handle, which was refused as "not letters, digits".
 * NFKC folds the full-width forms; what folds into a path ("．．／") is still refused below.
 */
function asciiRef(ref: string): string {
  return /^[\x21-\x7e]*$/.test(ref) ? ref : ref.normalize("NFKC").replace(LOOKALIKE_DASHES, "-");
}

export function validateEntryRef(raw: unknown): string {
  if (typeof raw !== "string" || raw.length === 0) {
    throw new CairnError("INVALID_ID", "An entry id is required (a UUID, a handle like S-12, or an imported id).");
  }
  const ref = asciiRef(raw);
  if (ref.length > 200 || !/^[A-Za-z0-9][A-Za-z0-9_.:-]*$/.test(ref) || ref.includes("..")) {
    throw new CairnError(
      "INVALID_ID",
      "Invalid entry id: ids hold letters, digits and - _ . : only (no paths, spaces or control characters).",
    );
  }
  return ref;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A text that is nothing but an entry id or a handle (`01a20b48-…`, `S-12`): a reference, not a lesson. */
export function isEntryRef(text: string): boolean {
  const t = text.trim();
  return UUID.test(t) || parseHandle(t) !== undefined;
}

/** The last text fingerprinted: one write asks for the same lesson's fingerprint three times (dedup, twin check, row). */
let lastFingerprint = { lesson: "", fingerprint: "" };

const ASCII_ONLY = /^[\x00-\x7f]*$/;
/**
 * A run of what is not [a-z0-9], except a lone space (already what the run becomes): the same text
 * out as replacing every run, without rebuilding the string at each space between two words.
 */
const ASCII_SEPARATORS = /[^a-z0-9]{2,}|[^a-z0-9 ]/g;

/**
 * The SHA-256 of a string in hex: crypto.hash (Node 20.12 and later) is one call without a Hash
 * object; createHash, its answer, on older Nodes.
 */
const sha256Hex: (text: string) => string = typeof crypto.hash === "function"
  ? (text) => crypto.hash("sha256", text, "hex")
  : (text) => createHash("sha256").update(text).digest("hex");

/** Identity of a lesson's text for exact-duplicate detection: case, spacing and punctuation ignored. */
export function fingerprintLesson(lesson: string): string {
  if (lesson === lastFingerprint.lesson && lesson !== "") return lastFingerprint.fingerprint;
  // ASCII is its own NFKC form, and its letters and digits are [a-z0-9] once lowercased.
  const canonical = shortcuts.enabled && ASCII_ONLY.test(lesson)
    ? lesson.toLowerCase().replace(ASCII_SEPARATORS, " ").trim()
    : lesson
      .normalize("NFKC")
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, " ")
      .trim();
  const fingerprint = sha256Hex(canonical).slice(0, 32);
  lastFingerprint = { lesson, fingerprint };
  return fingerprint;
}
