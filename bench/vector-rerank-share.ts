// The share of the exact int8 top 40 that a vector search keeps on one tier of the bench corpus, int8 re-rank against the 4-bit one (a development aid: `node --import tsx bench/vector-rerank-share.ts 100000`).
import { builtinEmbedder } from "../src/embed/static-embedder.js";
import { SqliteDriver } from "../src/store/driver.js";
import { quantize, VectorIndex } from "../src/store/vector-index.js";
import { recallQuery } from "./corpus.js";
import { copyCorpus } from "./corpus-copy.js";
import { makeRng } from "./rng.js";
import { cacheDir } from "./seed.js";

const size = Number(process.argv[2] ?? 100_000);
const queries = Number(process.argv[3] ?? 100);
const K = 40;
const copy = copyCorpus(cacheDir(size, 42), "cairn-vshare-");
try {
  const driver = new SqliteDriver(copy.open.hivePath);
  const model = builtinEmbedder();
  const d = model.dimension;
  const rows = driver.all<{ seq: number; scale: number; vec: Uint8Array | ArrayBuffer }>("SELECT seq, scale, vec FROM entry_vectors WHERE model = ? AND dim = ?", [model.modelId, d]);
  const seqs = Int32Array.from(rows, (r) => r.seq);
  const scales = Float64Array.from(rows, (r) => r.scale);
  const matrix = new Int8Array(rows.length * d);
  rows.forEach((r, i) => matrix.set(r.vec instanceof ArrayBuffer ? new Int8Array(r.vec, 0, d) : new Int8Array(r.vec.buffer, r.vec.byteOffset, d), i * d));
  const indexes = {
    int8: new VectorIndex(driver, model.modelId, d, { int8Bytes: Infinity }),
    "4-bit": new VectorIndex(driver, model.modelId, d, { int8Bytes: 0 }),
  };
  for (const idx of Object.values(indexes)) idx.refresh();
  const shortlist = Math.max(K * 16, 256, Math.ceil(rows.length / 50));
  const kept: Record<string, number> = { int8: 0, "4-bit": 0 };
  const rng = makeRng(11);
  for (let n = 0; n < queries; ) {
    const query = model.embedSync(recallQuery(rng));
    if (!query) continue;
    n++;
    const { scale: qs, q } = quantize(query);
    const exact = new Float64Array(rows.length);
    for (let i = 0; i < rows.length; i++) {
      let s = 0;
      for (let j = 0; j < d; j++) s += matrix[i * d + j]! * q[j]!;
      exact[i] = s * scales[i]! * qs;
    }
    const top = new Set(Array.from(exact.keys()).sort((a, b) => exact[b]! - exact[a]!).slice(0, K).map((i) => seqs[i]!));
    for (const [name, idx] of Object.entries(indexes)) kept[name]! += idx.nearest(query, shortlist).slice(0, K).filter((r) => top.has(r.seq)).length / K;
  }
  for (const [name, idx] of Object.entries(indexes)) console.log(`${size} vectors, ${name} re-rank (${(idx.rerankBytes / 1048576).toFixed(1)} MB of rows): ${(kept[name]! / queries).toFixed(4)} of the exact top ${K} kept (${queries} queries, shortlist ${shortlist})`);
  driver.close();
} finally {
  copy.remove();
}
