// The write gate's own cost: warm p50/p99 for a typical 200-character lesson (budget p50 ≤ 1 ms) and a 1 MB vs 4 MB paste (linear).
import { validateLessonText } from "../src/quality/gates.js";

export interface GatesResult {
  lessonChars: number;
  p50: number;
  p99: number;
  paste1mbMs: number;
  paste4mbMs: number;
}

const LESSON =
  "The auth middleware in src/auth/session.ts reads req.headers.authorization before the null check; check the token first and return 401 when it is missing (see api_key handling).";
const PASTE = "Cache the token lookups in redis and retry on 429 with backoff; ignore stale entries; api_key=abc ";

export async function runGatesBench(): Promise<GatesResult> {
  for (let i = 0; i < 300; i++) validateLessonText(LESSON);
  const t: number[] = [];
  for (let i = 0; i < 2000; i++) {
    const a = performance.now();
    validateLessonText(LESSON);
    t.push(performance.now() - a);
  }
  t.sort((a, b) => a - b);
  const paste = (mb: number) => {
    const s = PASTE.repeat(Math.ceil((mb * 1e6) / PASTE.length));
    const a = performance.now();
    validateLessonText(s);
    return performance.now() - a;
  };
  return { lessonChars: LESSON.length, p50: t[1000]!, p99: t[1980]!, paste1mbMs: paste(1), paste4mbMs: paste(4) };
}
