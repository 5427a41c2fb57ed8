// The rankers compared side by side: plain BM25, the audited metadata formula, semantic only (cosine), and Cairn.
import type { Entry } from "../../src/core/entry.js";
import type { SyncEmbedder } from "../../src/embed/embedder.js";
import { queryTerms, toFtsMatchQuery } from "../../src/core/text.js";
import { SqliteDriver } from "../../src/store/driver.js";
import type { RetrievalContext } from "../../src/retrieval/context.js";
import type { RecallOptions } from "../../src/retrieval/recall.js";
import type { CaseSpec } from "./spec.js";
import type { World } from "./world.js";

/** Returns the top `k` stable keys for a case, best first. */
export type Ranker = (c: CaseSpec, k: number) => Promise<string[]>;

/** Everything the case says, in one string: what a context-blind ranker gets. */
export function caseText(c: CaseSpec): string {
  return [c.phase, c.task, ...c.files, c.last_message, ...(c.tech_stack ?? [])].join("\n");
}

/**
 * (a) Okapi BM25 (SQLite FTS5) over the lesson text alone, in its own index, queried with the
 * case's text as one bag of words: no metadata, no context weighting.
 */
export function bm25Ranker(w: World): Ranker {
  const db = new SqliteDriver(":memory:");
  db.exec("CREATE VIRTUAL TABLE docs USING fts5(key UNINDEXED, lesson, tokenize='porter unicode61')");
  db.transaction(() => {
    for (const e of w.live) db.run("INSERT INTO docs(key, lesson) VALUES (?, ?)", [w.keyOf.get(e.id)!, e.lesson]);
  });
  return async (c, k) => {
    const match = toFtsMatchQuery(queryTerms(caseText(c), 64), { prefix: false });
    if (!match) return [];
    return db.all<{ key: string }>("SELECT key FROM docs WHERE docs MATCH ? ORDER BY bm25(docs) LIMIT ?", [match, k]).map((r) => r.key);
  };
}

/** What the semantic ranker embeds of an entry: its lesson and tags. */
export function entryText(e: Entry): string {
  return [e.lesson, ...e.tags].join("\n");
}

/**
 * (d) Semantic only: every live entry ranked by cosine between its vector and the case text's,
 * by brute force; no words, metadata or context weighting. Entries or cases with no known token
 * have no vector and are never ranked.
 */
export function semanticRanker(w: World, embedder: SyncEmbedder): Ranker {
  const keys: string[] = [];
  const vecs: Float32Array[] = [];
  for (const e of w.live) {
    const v = embedder.embedSync(entryText(e));
    if (v) (keys.push(w.keyOf.get(e.id)!), vecs.push(v));
  }
  const dim = embedder.dimension;
  return async (c, k) => {
    const q = embedder.embedSync(caseText(c));
    if (!q) return [];
    const scored = vecs.map((v, i) => {
      let dot = 0;
      for (let j = 0; j < dim; j++) dot += v[j]! * q[j]!;
      return { i, dot };
    });
    scored.sort((a, b) => b.dot - a.dot || a.i - b.i);
    return scored.slice(0, k).map((s) => keys[s.i]!);
  };
}

/** The audited system's guess of categories from a phase name (its own table, not Cairn's). */
const AUDITED_PHASE_CATEGORIES: ReadonlyArray<[RegExp, string[]]> = [
  [/test|qa|verif/i, ["testing"]],
  [/debug|fix|bug|incident/i, ["debugging"]],
  [/perf|optimi|speed|latency/i, ["performance"]],
  [/secur|auth|harden/i, ["security"]],
  [/design|architect|plan|refactor/i, ["architecture"]],
  [/integrat|api|deploy|release|ci\b|pipeline/i, ["integration"]],
  [/setup|tooling|build|config|scaffold/i, ["tooling"]],
  [/process|review|docs?\b/i, ["process"]],
];

/**
 * (b) `0.4·(category fits the phase name) + 0.35·confidence + 0.25·(tag overlap with the tech
 * stack)` over every live entry; it never reads the task, files or message.
 */
export function metadataRanker(w: World): Ranker {
  return async (c, k) => {
    const cats = new Set(AUDITED_PHASE_CATEGORIES.filter(([re]) => re.test(c.phase)).flatMap(([, cs]) => cs));
    const stack = (c.tech_stack ?? []).map((s) => s.toLowerCase());
    const score = (e: Entry) => {
      const tags = new Set([...e.tags, ...e.applicability.tech_stack].map((t) => t.toLowerCase()));
      const overlap = stack.length ? stack.filter((s) => tags.has(s)).length / stack.length : 0;
      return 0.4 * (cats.has(e.category) ? 1 : 0) + 0.35 * e.lifecycle.confidence + 0.25 * overlap;
    };
    // Ties (there are many) go to the newest entry, as a file read newest-first would.
    return w.live
      .map((e, i) => ({ key: w.keyOf.get(e.id)!, s: score(e), i }))
      .sort((a, b) => b.s - a.s || b.i - a.i)
      .slice(0, k)
      .map((r) => r.key);
  };
}

/** How Cairn's recall finds candidates (issue 13): by words, by meaning, or both blended. */
export type RetrievalMode = "lexical" | "semantic" | "hybrid";

/**
 * (c) Cairn's own recall over the live context, exactly as a face would call it; with `mode`,
 * restricted to one retrieval path (an engine without the option ignores it).
 */
export function cairnRanker(w: World, timings?: number[], mode?: RetrievalMode): Ranker {
  return async (c, k) => {
    const t0 = performance.now();
    // An assertion, not an annotation, so this compiles before and after RecallOptions gains `retrieval`.
    const opts = { limit: k, ...(mode ? { retrieval: mode } : {}) } as RecallOptions;
    const hits = await w.cairn.recall(caseContext(c), opts);
    timings?.push(performance.now() - t0);
    return hits.map((h) => w.keyOf.get(h.entry.id) ?? h.entry.provenance.external_id ?? h.entry.id);
  };
}

/** The retrieval context a labelled case describes (shared by the ranker and `--case` explanations). */
export function caseContext(c: CaseSpec): RetrievalContext {
  return {
    phase: c.phase,
    task: c.task,
    files: c.files,
    lastMessage: c.last_message,
    ...(c.agent ? { agent: c.agent } : {}),
    ...(c.tech_stack ? { techStack: c.tech_stack } : {}),
  };
}
