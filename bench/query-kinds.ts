// Issue 16 probe: the share of lessons found in the top 10 by queries of each kind a real agent sends (other word forms, typos, markdown, CJK, long text…), on tiers of 1k–20k generated lessons.
// usage: node --import tsx bench/query-kinds.ts [sizes=1000,5000,20000] [targets=60] [kinds,…]   (V=1 prints misses; MODE=lexical)
import fs from "node:fs"; import os from "node:os"; import path from "node:path";
import { makeRng, pick, type Rng } from "./rng.js";
import { generatedLesson, realSentences } from "./corpus.js";
import { SqliteStore } from "../src/store/sqlite-store.js";
import { openCairn } from "../src/index.js";
import { EntrySchema, type Entry } from "../src/core/entry.js";
import { newEntryId } from "../src/core/ids.js";
import { STOP_WORDS } from "../src/core/text.js";

/** A live lesson written straight to the store (past the gates), as the retrieval tests write theirs. */
function rawEntry(lesson: string): Entry {
  const at = new Date().toISOString();
  return EntrySchema.parse({
    id: newEntryId(), handle: "", tier: "swarm", lesson, category: "other", kind: "learning",
    lifecycle: { status: "established", confidence: 0.8 }, provenance: { created_by: "human:test" }, created_at: at, updated_at: at,
  });
}

const sizes = (process.argv[2] ?? "1000,5000,20000").split(",").map(Number);
const targetsN = Number(process.argv[3] ?? 60);
const only = process.argv[4];
const mode = (process.env.MODE ?? "hybrid") as "hybrid" | "lexical";

const words = (s: string) => s.match(/[A-Za-z][A-Za-z0-9]*/g) ?? [];
const content = (s: string) => words(s).filter((w) => w.length >= 3 && !STOP_WORDS.has(w.toLowerCase()) && !/^INC$/.test(w));
function sample<T>(rng: Rng, xs: T[], n: number): T[] { const a = [...xs]; const out: T[] = []; while (a.length && out.length < n) out.push(a.splice(Math.floor(rng() * a.length), 1)[0]!); return out; }
const BRIT: Array<[RegExp, string]> = [[/ize/g, "ise"], [/izing/g, "ising"], [/yze/g, "yse"], [/ization/g, "isation"], [/or\b/g, "our"], [/canceled/g, "cancelled"], [/ise/g, "ize"], [/cancelled/g, "canceled"]];
function inflect(w: string): string {
  const l = w.toLowerCase();
  if (/ies$/.test(l)) return l.slice(0, -3) + "y";
  if (/ing$/.test(l)) return l.slice(0, -3) + "ed";
  if (/ed$/.test(l)) return l.slice(0, -2) + "ing";
  if (/s$/.test(l)) return l.slice(0, -1);
  if (/y$/.test(l)) return l.slice(0, -1) + "ies";
  return l + "s";
}
function typo(rng: Rng, w: string): string { if (w.length < 6) return w; const i = 1 + Math.floor(rng() * (w.length - 3)); return w.slice(0, i) + w[i + 1] + w[i] + w.slice(i + 2); }
const camelToWords = (s: string) => s.replace(/`([A-Za-z]+)`/g, (_, id: string) => id.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase());
const camelToSnake = (s: string) => s.replace(/`([A-Za-z]+)`/g, (_, id: string) => id.replace(/([a-z])([A-Z])/g, "$1_$2").toLowerCase());
const FILLER = "I have been looking at this for a while and I think the problem is somewhere in the code that we changed last week when we refactored the module and moved some of the helpers around, could you take a look and tell me what you think we should do about it before the release goes out tomorrow morning because the team is waiting on this and we need to unblock them as soon as possible";

type Kind = (rng: Rng, lesson: string, other: string) => string | undefined;
const KINDS: Record<string, Kind> = {
  exact5: (rng, l) => sample(rng, content(l), 5).join(" "),
  two: (rng, l) => sample(rng, content(l).filter((w) => w.length >= 5), 2).join(" "),
  inflected: (rng, l) => sample(rng, content(l), 5).map(inflect).join(" "),
  british: (rng, l) => { const c = sample(rng, content(l), 5).join(" "); for (const [re, to] of BRIT) if (re.test(c)) return c.replace(re, to); return undefined; },
  hyphen: (rng, l) => { const m = l.match(/\b[a-z]+-[a-z]+\b/i); if (!m) return undefined; const rest = sample(rng, content(l.replace(m[0], "")), 3); return [m[0].replace("-", ""), ...rest].join(" "); },
  spaced: (rng, l) => { const m = l.match(/\b[a-z]+-[a-z]+\b/i); if (!m) return undefined; const rest = sample(rng, content(l.replace(m[0], "")), 3); return [m[0].replace("-", " "), ...rest].join(" "); },
  identWords: (rng, l) => (/`[A-Za-z]+`/.test(l) ? camelToWords(l.match(/`[A-Za-z]+`/)![0]) + " " + sample(rng, content(l.replace(/`[^`]+`/, "")), 2).join(" ") : undefined),
  identSnake: (rng, l) => (/`[A-Za-z]+`/.test(l) ? camelToSnake(l.match(/`[A-Za-z]+`/)![0]) + " " + sample(rng, content(l.replace(/`[^`]+`/, "")), 2).join(" ") : undefined),
  path: (rng, l) => { const m = l.match(/\b[\w-]+\/[\w/.-]+/); return m ? `${m[0]} ${sample(rng, content(l.replace(m[0], "")), 2).join(" ")}` : undefined; },
  stopwords: (rng, l) => { const c = sample(rng, content(l), 4); return `how do I fix the ${c[0]} and the ${c[1]} when it is ${c[2]} with the ${c[3]}?`; },
  typo: (rng, l) => { const c = sample(rng, content(l), 5); const i = c.findIndex((w) => w.length >= 6); if (i < 0) return undefined; c[i] = typo(rng, c[i]!); return c.join(" "); },
  // 100+ words: the lesson's words amid chatter and another lesson (long), after ~70 words of chatter (longTail), before it (longHead).
  long: (rng, l, o) => `${FILLER} ${sample(rng, content(l), 5).join(" ")} ${FILLER} ${o}`,
  longTail: (rng, l) => `${FILLER} ${FILLER.split(" ").reverse().join(" ")} ${sample(rng, content(l), 5).join(" ")}`,
  longHead: (rng, l) => `${sample(rng, content(l), 5).join(" ")} ${FILLER} ${FILLER.split(" ").reverse().join(" ")}`,
  upper: (rng, l) => sample(rng, content(l), 5).join(" ").toUpperCase(),
  markdown: (rng, l) => { const c = sample(rng, content(l), 5); return `**${c[0]}** \`${c[1]}\` — ${c[2]}?! (${c[3]}) [${c[4]}](#)`; },
  cjk: (rng, l) => `请帮我看一下 ${sample(rng, content(l), 4).join(" ")} 的问题`,
};

for (const size of sizes) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "retprobe-"));
  const projectDir = path.join(dir, "project"); fs.mkdirSync(path.join(projectDir, ".swarm"), { recursive: true });
  const rng = makeRng(7 + size);
  const real = realSentences();
  const lessons: string[] = [];
  for (let i = 0; i < size; i++) lessons.push(rng() < 0.2 && real.length ? real[i % real.length]! : generatedLesson(rng, i).lesson);
  const store = new SqliteStore(path.join(projectDir, ".swarm", "cairn.db"), "swarm");
  for (let d = 0; d < size; d += 500) {
    const pending: Promise<unknown>[] = [];
    store.driver.transaction(() => { for (let i = d; i < Math.min(size, d + 500); i++) pending.push(store.insertEntry(rawEntry(lessons[i]!), { type: "created", actor: "human:test" })); });
    await Promise.all(pending);
  }
  await store.close();
  // Every data and config folder in the temp dir: a person's own hive and settings are never read or written.
  const env: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("CAIRN")));
  for (const [k, sub] of [["HOME", "home"], ["USERPROFILE", "home"], ["XDG_DATA_HOME", "xdg-data"], ["XDG_CONFIG_HOME", "xdg-config"], ["XDG_CACHE_HOME", "xdg-cache"], ["XDG_STATE_HOME", "xdg-state"]] as const) {
    env[k] = path.join(dir, sub);
    fs.mkdirSync(env[k]!, { recursive: true });
  }
  const cairn = await openCairn({ projectDir, hivePath: path.join(dir, "hive.db"), env, config: {} });
  const lessonsLower = lessons.map((x) => x.toLowerCase());
  const targets = sample(rng, [...new Set(lessons)], targetsN);
  const line: string[] = [];
  for (const [name, kind] of Object.entries(KINDS)) {
    if (only && !only.split(",").includes(name)) continue;
    let n = 0, hit = 0; const misses: string[] = [];
    for (const t of targets) {
      const q = kind(makeRng(n + 99), t, pick(rng, lessons));
      if (!q) continue;
      // Fair cases only: the words taken from the lesson (as written there) are together in at most 10 lessons.
      const taken = content(t).filter((w) => new RegExp(`\\b${w}\\b`, "i").test(q) || q.toLowerCase().includes(w.toLowerCase()));
      const low = taken.map((w) => w.toLowerCase());
      if (low.length && lessonsLower.filter((x) => low.every((w) => x.includes(w))).length > 10) continue;
      n++;
      const hits = await cairn.recall({ task: q }, { limit: 10, retrieval: mode });
      if (hits.some((h) => h.entry.lesson === t)) hit++; else if (misses.length < 3) misses.push(`${q.slice(0, 90)}  =>  ${t.slice(0, 90)}`);
    }
    line.push(`${name} ${n ? (hit / n).toFixed(2) : "-"} (${n})`);
    if (process.env.V) for (const m of misses) console.log(`  miss[${name}@${size}] ${m}`);
  }
  console.log(`size ${size}: ${line.join(" | ")}`);
  await cairn.close();
  fs.rmSync(dir, { recursive: true, force: true });
}
