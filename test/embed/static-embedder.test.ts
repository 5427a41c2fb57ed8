// The built-in word-vector embedder: loads offline (network cut off, and under Bun), unit vectors, paraphrases closer than unrelated text.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { cosine } from "../../src/embed/embedder.js";
import { builtinEmbedder, defaultTablePath, StaticEmbedder, STATIC_MODEL_PREFIX } from "../../src/embed/static-embedder.js";
import { decodeTable, encodeTable } from "../../src/embed/static-table.js";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const NO_NETWORK = path.join(REPO, "test", "fixtures", "no-network.mjs");
const BUN = path.join(REPO, "node_modules", ".bin", "bun");

const emb = builtinEmbedder();

function run(cmd: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) =>
    execFile(cmd, args, { cwd: REPO, env: { ...process.env, NODE_OPTIONS: "" }, maxBuffer: 16 << 20 }, (err, stdout, stderr) =>
      resolve({ code: err ? (typeof err.code === "number" ? err.code : 1) : 0, stdout, stderr }),
    ),
  );
}

/** A child that embeds two texts and prints the model id, dimension and the vectors' first values. */
const CHILD = `
import { StaticEmbedder } from "./src/embed/static-embedder.ts";
const e = new StaticEmbedder();
const v = e.embedSync("run prisma generate after changing schema.prisma");
const [w] = await e.embed(["the client is stale after editing the schema"]);
const loaded = (process.moduleLoadList ?? []).filter((m) => /^NativeModule (http|https|http2)$/.test(m));
console.log(JSON.stringify({ id: e.modelId, dim: e.dimension, v: Array.from(v.slice(0, 8)), w: Array.from(w.slice(0, 8)), loaded }));
`;

test("the shipped table loads and embeds with the network cut off (no socket, DNS or fetch; no http/https module loaded)", async () => {
  const r = await run(process.execPath, ["--import", "tsx", "--import", NO_NETWORK, "--input-type=module", "-e", CHILD]);
  assert.equal(r.code, 0, r.stderr);
  assert.doesNotMatch(r.stderr, /NETWORK USED/);
  const out = JSON.parse(r.stdout.trim()) as { id: string; dim: number; v: number[]; loaded: string[] };
  assert.equal(out.id, emb.modelId);
  assert.equal(out.dim, emb.dimension);
  // The preload itself loads net, tls and dns to cut them off; nothing may load an HTTP client.
  assert.deepEqual(out.loaded, []);
  // Same numbers as this process: loading is deterministic.
  assert.deepEqual(out.v, Array.from(emb.embedSync("run prisma generate after changing schema.prisma")!.slice(0, 8)));
});

test("the network-cut fixture really cuts the network (the test above could not pass by accident)", async () => {
  const r = await run(process.execPath, ["--import", NO_NETWORK, "--input-type=module", "-e", "await fetch('http://127.0.0.1:9/')"]);
  assert.notEqual(r.code, 0);
  assert.match(r.stderr, /NETWORK USED: fetch/);
});

test("the table loads and embeds under Bun, with the same vectors as Node", { skip: !fs.existsSync(BUN) && "bun is not installed" }, async () => {
  const file = path.join(REPO, "test", "embed", `.bun-child-${process.pid}.mts`);
  fs.writeFileSync(file, CHILD.replace("./src/", "../../src/"));
  try {
    const r = await run(BUN, [file]);
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout.trim()) as { id: string; v: number[]; w: number[] };
    assert.equal(out.id, emb.modelId);
    const v = Array.from(emb.embedSync("run prisma generate after changing schema.prisma")!.slice(0, 8));
    out.v.forEach((x, i) => assert.ok(Math.abs(x - v[i]!) < 1e-6, `component ${i}: bun ${x} vs node ${v[i]}`));
  } finally {
    fs.rmSync(file, { force: true });
  }
});

test("model id names the table: prefix plus the first 8 hex of the body's sha256, checked against the bytes", () => {
  const bytes = fs.readFileSync(defaultTablePath());
  const table = decodeTable(bytes, { verify: true });
  assert.match(emb.modelId, new RegExp(`^${STATIC_MODEL_PREFIX}-[0-9a-f]{8}$`));
  assert.equal(emb.modelId.slice(-8), table.header.bodySha256.slice(0, 8));
  assert.equal(emb.dimension, table.header.dim);
  assert.ok(bytes.length <= 10 * 1024 * 1024, `table is ${bytes.length} bytes, over the 10 MB budget`);
  // A changed row is a new model id.
  table.rows[0] = table.rows[0]! === 5 ? 6 : 5;
  const changed = new StaticEmbedder(encodeTable({ dim: table.header.dim, scales: table.scales, rows: table.rows, tokens: table.tokens, aliases: table.aliases }));
  assert.notEqual(changed.modelId, emb.modelId);
});

test("vectors are unit length, of the table's dimension, and deterministic", async () => {
  const texts = ["Set the libsql busy timeout before the first write", "useEffect with an object dependency refetches in a loop", "getUserById returns null for soft-deleted users"];
  const [a, b, c] = await emb.embed(texts);
  for (const v of [a, b, c]) {
    assert.ok(v);
    assert.equal(v.length, emb.dimension);
    assert.ok(Math.abs(cosine(v, v) - 1) < 1e-5);
    assert.ok(v.some((x) => x !== 0));
  }
  assert.deepEqual(Array.from(emb.embedSync(texts[0]!)!), Array.from(a!));
  assert.deepEqual(Array.from(new StaticEmbedder(fs.readFileSync(defaultTablePath())).embedSync(texts[2]!)!), Array.from(c!));
});

test("text with no known token gets null, never a zero vector", async () => {
  assert.equal(emb.embedSync(""), null);
  assert.equal(emb.embedSync("the and of it is"), null, "stop words only");
  assert.equal(emb.embedSync("qzxvbwk zzqpfh 0x3f9a77c1"), null, "unknown tokens only");
  assert.deepEqual(await emb.embed(["", "docker"]).then((vs) => vs.map((v) => v === null)), [true, false]);
});

test("an inflection outside the vocabulary reads as its stem's token (alias), with the same row", () => {
  const table = decodeTable(fs.readFileSync(defaultTablePath()));
  const tokens = new Set(table.tokens);
  const alias = table.aliases.find(([w, row]) => /^[a-z]+s$/.test(w) && table.tokens[row] === w.slice(0, -1));
  assert.ok(alias, "the table has plural aliases");
  assert.ok(!tokens.has(alias[0]));
  assert.deepEqual(Array.from(emb.embedSync(alias[0])!), Array.from(emb.embedSync(table.tokens[alias[1]]!)!));
});

test("code identifiers are read through Cairn's tokenizer: camelCase and snake_case pieces are known terms", () => {
  assert.ok(emb.knownTerms("getUserById").includes("user"));
  assert.ok(emb.knownTerms("max_pool_size").includes("pool"));
  assert.ok(emb.knownTerms("src/auth/middleware.ts").includes("middleware"));
});

/** Real paraphrase pairs (same lesson, other words) against an unrelated lesson of the same register. */
const PAIRS: Array<[string, string, string]> = [
  ["the client is stale after editing the schema", "run prisma generate after changing schema.prisma", "the docker image is too large because of dev dependencies"],
  ["tests hang forever in CI and the job times out", "the test runner never exits because a database connection is left open", "use semantic versioning for release tags"],
  ["the page shows an old value until I reload", "invalidate the cached query after the mutation succeeds", "rotate the API key when a developer leaves the team"],
  ["login fails with an expired certificate", "renew the TLS certificate before it lapses", "memoise the expensive selector in the list component"],
  ["the container cannot reach the database on localhost", "inside docker, use the service name instead of 127.0.0.1 as the postgres host", "prefer early returns over nested conditionals"],
  ["commit was rejected because of formatting", "run prettier before pushing so the lint check passes", "the goroutine leaks when the channel is never closed"],
];

test("paraphrases are closer than unrelated text of the same register (all but at most one pair, and on average)", () => {
  const margins = PAIRS.map(([a, b, other]) => {
    const [va, vb, vo] = [a, b, other].map((t) => emb.embedSync(t)!);
    return { a, b, same: cosine(va!, vb!), other: cosine(va!, vo!) };
  });
  const wrong = margins.filter((m) => m.same <= m.other);
  // A word-vector model misses some paraphrases (the distillation teacher does too): one of six may fail.
  assert.ok(wrong.length <= 1, `paraphrases not closer than unrelated text:\n${wrong.map((m) => `  "${m.a}" ~ "${m.b}": ${m.same.toFixed(3)} vs ${m.other.toFixed(3)}`).join("\n")}`);
  const mean = (xs: number[]) => xs.reduce((x, y) => x + y, 0) / xs.length;
  assert.ok(mean(margins.map((m) => m.same)) > mean(margins.map((m) => m.other)) + 0.1);
});

test("table encoding round-trips and rejects tampered bodies", () => {
  const tokens = ["alpha", "beta"];
  const buf = encodeTable({ dim: 3, scales: new Float32Array([0.5, 0.25]), rows: new Int8Array([1, -2, 3, 4, 5, -6]), tokens, aliases: [["betas", 1]] });
  const t = decodeTable(buf, { verify: true });
  assert.deepEqual(t.tokens, tokens);
  assert.deepEqual(t.aliases, [["betas", 1]]);
  assert.throws(() => encodeTable({ dim: 3, scales: new Float32Array([0.5, 0.25]), rows: new Int8Array(6), tokens, aliases: [["gamma", 2]] }), /outside/);
  assert.deepEqual(Array.from(t.rows), [1, -2, 3, 4, 5, -6]);
  assert.deepEqual(Array.from(t.scales), [0.5, 0.25]);
  const bad = Buffer.from(buf);
  bad[bad.length - 1] = "x".charCodeAt(0);
  assert.throws(() => decodeTable(bad, { verify: true }), /checksum/);
  assert.equal(createHash("sha256").update(buf).digest("hex").length, 64);
});

test("regression: the compact word index answers exactly as a Map of every token and alias did (first listing wins)", async () => {
  const { WordIndex } = await import("../../src/embed/word-index.js");
  const { decodeTableBody } = await import("../../src/embed/static-table.js");
  const bytes = fs.readFileSync(defaultTablePath());
  const table = decodeTable(bytes);
  const expected = new Map<string, number>();
  table.tokens.forEach((t, i) => expected.set(t, i));
  for (const [alias, row] of table.aliases) if (!expected.has(alias)) expected.set(alias, row);
  const body = decodeTableBody(bytes);
  const index = new WordIndex(body.words, body.header.count, body.header.aliases ?? 0);
  assert.ok(expected.size > 30_000, `the shipped table lists ${expected.size} words`);
  for (const [word, row] of expected) assert.equal(index.get(word), row, word);
  for (const absent of ["", "zzqxv", "prismaa", "ünïcödé", "a".repeat(500)]) assert.equal(index.get(absent), undefined, absent);
  // A small table with a non-ASCII word, a duplicate alias, and an alias that repeats a token.
  const small = encodeTable({ dim: 2, scales: new Float32Array([1, 1, 1]), rows: new Int8Array([1, 0, 0, 1, 1, 1]), tokens: ["café", "run", "naïve"], aliases: [["ran", 1], ["run", 2], ["ran", 0], ["cafés", 0]] });
  const sb = decodeTableBody(small);
  const si = new WordIndex(sb.words, 3, 4);
  assert.deepEqual(["café", "run", "naïve", "ran", "cafés", "walk"].map((w) => si.get(w)), [0, 1, 2, 1, 0, undefined]);
});
