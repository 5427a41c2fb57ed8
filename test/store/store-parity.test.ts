// Parity: the same calls, with the same inputs, on the SQLite store and the PostgreSQL store must answer the same (what a team sees must not hang on its backend).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { EntrySchema, type Entry } from "../../src/core/entry.js";
import { newEntryId } from "../../src/core/ids.js";
import { queryTerms } from "../../src/core/text.js";
import { buildContextQuery } from "../../src/retrieval/context.js";
import { decayedFeedback } from "../../src/lifecycle/feedback.js";
import { PostgresStore } from "../../src/store/pg/pg-store.js";
import { SqliteStore } from "../../src/store/sqlite-store.js";
import type { EntryFilter, PageQuery, Store } from "../../src/store/store.js";
import { makeSandbox, removeSandbox, runWorker, type Sandbox } from "../fixtures/workers/sandbox.js";
import { adminQuery, dropSchema, pgTestOptions, pgTestUrl, uniqueSchema } from "../helpers/pg.js";

/** Both stores of one test, fed the same entries (same ids, same times) in the same order. */
class Pair {
  readonly lite: SqliteStore;
  readonly pg: PostgresStore;
  private readonly names = new Map<string, string>();

  private constructor(
    private readonly sb: Sandbox,
    private readonly url: string,
    private readonly schema: string,
  ) {
    this.lite = new SqliteStore(path.join(sb.root, "hive.db"), "hive");
    this.pg = new PostgresStore({ url, schema }, "hive");
  }

  /** `url`: another database of the test server (one with another default collation). */
  static open(url = pgTestUrl()!): Pair {
    return new Pair(makeSandbox(), url, uniqueSchema("parity"));
  }

  /** Adds one entry to both stores; `name` is how answers refer to it. */
  async add(name: string, lesson: string, extra: Partial<Entry> = {}): Promise<Entry> {
    const at = extra.created_at ?? "2026-01-05T10:00:00.000Z";
    const e = EntrySchema.parse({ id: newEntryId(), handle: "", tier: "hive", lesson, category: "tooling", kind: "learning", created_at: at, updated_at: at, ...extra });
    this.names.set(e.id, name);
    const a = await this.lite.insertEntry(e, { type: "created", actor: "test" });
    const b = await this.pg.insertEntry(e, { type: "created", actor: "test" });
    assert.equal(a.handle, b.handle, "both stores hand out the same handle");
    return a;
  }

  /** Adds many entries to both stores in one call each (a tier large enough for common words to be pruned). */
  async addMany(rows: Array<[name: string, lesson: string]>): Promise<void> {
    const at = "2026-01-05T10:00:00.000Z";
    const es = rows.map(([name, lesson]) => {
      const e = EntrySchema.parse({ id: newEntryId(), handle: "", tier: "hive", lesson, category: "tooling", kind: "learning", created_at: at, updated_at: at });
      this.names.set(e.id, name);
      return e;
    });
    for (const s of [this.lite, this.pg]) await s.insertEntries(es, { type: "created", actor: "test" });
  }

  /** An entry list as the names of its entries, in order. */
  named(entries: readonly Entry[]): string[] {
    return entries.map((e) => this.names.get(e.id) ?? e.id);
  }

  /** Runs `fn` on each store; both must give the same answer (as `view` shows it). */
  async same<T>(label: string, fn: (s: Store) => Promise<T>, view: (t: T) => unknown = (t) => t): Promise<T> {
    const a = await fn(this.lite);
    const b = await fn(this.pg);
    assert.deepEqual(view(b), view(a), `${label}: PostgreSQL answered otherwise than SQLite`);
    return a;
  }

  searchNames(s: Store, words: string[], filter: EntryFilter = {}): Promise<string[]> {
    return s.searchEntries(words, filter, 20).then((hits) => this.named(hits.map((h) => h.entry)));
  }

  pageNames(s: Store, q: Partial<PageQuery>): Promise<string[]> {
    return s.pageEntries({ filter: {}, sort: "created", desc: false, limit: 50, ...q }).then((rows) => this.named(rows.map((r) => r.entry)));
  }

  async close(): Promise<void> {
    await this.lite.close();
    await this.pg.close();
    await dropSchema(this.url, this.schema);
    removeSandbox(this.sb);
  }
}

const opts = pgTestOptions();

describe("Store parity: SQLite and PostgreSQL answer alike", () => {
  test("search and browse fold case and accents, and split CJK, emoji and decomposed text, as SQLite's index does", opts, async () => {
    const p = Pair.open();
    try {
      await p.add("german", "Der Straßen-Test läuft nur unter ÜBERLAST; café crème hilft.");
      await p.add("vietnamese", "Lỗi kết nối cơ sở dữ liệu khi triển khai: tăng thời gian chờ.");
      await p.add("russian", "Ошибка сборки: задайте переменную йод в окружении.");
      await p.add("greek", "Σίσυφος ΟΔΟΣ δοκιμή για τελικός έλεγχος.");
      await p.add("japanese", "データベースの接続が切れたら再試行する。");
      await p.add("chinese", "数据库连接池耗尽时增加超时");
      await p.add("korean", "배포 전에 데이터베이스 마이그레이션을 실행하세요");
      await p.add("emoji", "Deploy🚀only after the 🧪 suite passes; ❤️ the linter.");
      await p.add("turkish", "İstanbul ekibi ılık İZMİR sunucusunu yeniden başlatır.");
      await p.add("decomposed", "Decomposed cafe\u0301 and nai\u0308ve words come from macOS file names.");
      await p.add("folded", "Ligatures like ﬁle, the micro sign µs and the long ſ in old texts.");
      const words = [
        "straßen", "STRASSEN", "überlast", "uberlast", "cafe", "café", "creme",
        "lỗi", "loi", "kết", "ket", "chờ", "cho", "triển",
        "ошибка", "ОШИБКА", "йод", "иод",
        "σίσυφος", "σισυφος", "οδος", "οδοσ", "ΟΔΟΣ", "τελικός", "τελικος",
        "データベースの接続が切れたら再試行する", "数据库连接池耗尽时增加超时", "배포", "데이터베이스",
        "deploy", "🚀", "linter",
        "istanbul", "İstanbul", "ılık", "ilik", "izmir", "İZMİR",
        "naive", "naïve", "nai\u0308ve", "cafe\u0301",
        "ﬁle", "file", "μs", "µs", "long",
      ];
      for (const w of words) await p.same(`search ${JSON.stringify(w)}`, (s) => p.searchNames(s, [w]));
      for (const w of words) await p.same(`browse ${JSON.stringify(w)}`, (s) => p.pageNames(s, { text: w }));
      for (const w of words) await p.same(`count ${JSON.stringify(w)}`, (s) => s.countEntriesCapped({}, w, 100));
    } finally {
      await p.close();
    }
  });

  test("on a tier large enough to drop common words, an accented or capitalised common word is dropped alike", { ...opts, timeout: 300_000 }, async () => {
    const p = Pair.open();
    try {
      const rows: Array<[string, string]> = [];
      for (let i = 0; i < 620; i++) {
        const lesson =
          i % 3 === 0 ? `Order ${i}: the Café queue drains slowly under load.`
          : i % 97 === 5 ? `Order ${i}: Zürichsee deploys need the café fallback.`
          : `Order ${i}: rotate the staging credentials every sprint.`;
        rows.push([`r${i}`, lesson]);
      }
      await p.addMany(rows);
      for (const words of [["Café", "Zürichsee"], ["café", "zurichsee"], ["CAFÉ", "ZÜRICHSEE", "fallback"], ["ΟΔΟΣ", "Zürichsee"]]) {
        await p.same(`search ${words.join(" ")}`, (s) => p.searchNames(s, words));
      }
    } finally {
      await p.close();
    }
  });

  test("a phrasal verb's variants (context.ts) search alike on both: 'setup' asks for the phrase 'set up', which finds 'setting up' and 'set-up'", opts, async () => {
    const p = Pair.open();
    try {
      await p.add("apart", "Set up the replica from a fresh snapshot.");
      await p.add("tense", "Setting up the mirror needs the certificate bundle.");
      await p.add("hyphen", "The set-up wizard skips the proxy page.");
      await p.add("joined", "The setup script must run as the deploy user.");
      await p.add("apart-words", "Set the flag, then bring up the worker.");
      for (const task of ["setup", "set up the replica", "timeouts", "timed out"]) {
        const terms = buildContextQuery({ task });
        await p.same(`search ${terms.join(" | ")}`, (s) => p.searchNames(s, terms));
      }
      assert.deepEqual((await p.searchNames(p.pg, buildContextQuery({ task: "setup" }))).sort(), ["apart", "hyphen", "joined", "tense"]);
    } finally {
      await p.close();
    }
  });

  test("one CJK character is a word on both: '锁' finds the lessons holding it at the start, inside or at the end of a run, in the same order", opts, async () => {
    const p = Pair.open();
    try {
      await p.add("start", "锁超时的时候，先查看持有它的事务。");
      await p.add("inside", "数据库锁超时");
      await p.add("end", "数据库死锁");
      await p.add("alone", "门锁 and 锁 in one line");
      await p.add("key", "秘密鍵はリポジトリに入れてはいけない。");
      await p.add("korean", "배포 전에 락을 확인한다");
      await p.add("other", "数据库连接池耗尽时增加超时");
      for (const words of [["锁"], ["鍵"], ["락"], ["锁", "超时"], ["死锁"]]) {
        await p.same(`search ${words.join(" ")}`, (s) => p.searchNames(s, words.flatMap((w) => queryTerms(w))));
        await p.same(`browse ${words.join(" ")}`, (s) => p.pageNames(s, { text: words.join(" "), sort: "relevance" }));
        await p.same(`count ${words.join(" ")}`, (s) => s.countEntriesCapped({}, words.join(" "), 100));
      }
      assert.deepEqual([...(await p.searchNames(p.lite, queryTerms("锁")))].sort(), ["alone", "end", "inside", "start"]);
    } finally {
      await p.close();
    }
  });

  test("a CJK character most lessons hold ('的') is a stop word beside other words on both, and still the query when it is the only one", opts, async () => {
    const p = Pair.open();
    try {
      const broad = ["数据库迁移的顺序", "前端构建的缓存", "日志里的手机号码", "部署的时候先检查配置", "测试的数据库", "连接池的上限", "缓存的过期时间", "发布的流程"];
      for (const [i, lesson] of broad.entries()) await p.add(`broad${i}`, lesson);
      await p.add("webhook", "The webhook signature must be verified against the raw request body.");
      await p.add("lock", "数据库锁超时的时候，先查看是哪个事务持有它。");
      for (let i = 0; i < 4; i++) await p.add(`filler${i}`, `Format the changelog entry ${i} before the release.`);
      const mixed = await p.same("search webhook 的 signature", (s) => p.searchNames(s, queryTerms("webhook 的 signature")));
      assert.deepEqual(mixed, ["webhook"]);
      const lock = await p.same("search 锁 的", (s) => p.searchNames(s, queryTerms("锁 的")));
      assert.deepEqual(lock, ["lock"]);
      const alone = await p.same("search 的", (s) => p.searchNames(s, queryTerms("的")));
      assert.deepEqual([...alone].sort(), [...broad.map((_, i) => `broad${i}`), "lock"].sort());
    } finally {
      await p.close();
    }
  });

  test("accented queries rank the same entries in the same ORDER, with the same scores, on both (Greek, Cyrillic, Vietnamese, French)", opts, async () => {
    const p = Pair.open();
    try {
      // Each word occurs with its accents and without, in rows of different lengths and counts: an accent folded
      // where SQLite keeps it would merge two terms, change their document counts and so every score and the order.
      await p.add("el-accent-twice", "Σίσυφος: ο Σίσυφος ξαναρχίζει τη δοκιμή.");
      await p.add("el-bare", "Σισυφος χωρίς τόνο, μια μεγαλύτερη γραμμή με πολλές άλλες λέξεις εδώ μέσα.");
      await p.add("el-accent-long", "Ο Σίσυφος και ο έλεγχος και ο τελικός έλεγχος και η δοκιμή της ροής.");
      await p.add("ru-accent", "Йод и йод: задайте переменную йод.");
      await p.add("ru-bare", "Иод в окружении сборки.");
      await p.add("ru-both", "Йод или иод, переменная окружения сборки задана дважды.");
      await p.add("vi-accent", "Lỗi kết nối: lỗi khi triển khai.");
      await p.add("vi-bare", "Loi ket noi trong nhat ky.");
      await p.add("vi-both", "Lỗi hay loi, kết nối cơ sở dữ liệu khi triển khai lại.");
      await p.add("fr-accent", "Le café crème du café.");
      await p.add("fr-bare", "Un cafe sans accent, puis une longue phrase pour allonger la ligne.");
      await p.add("fr-both", "Café ou cafe, élève ou eleve, même résultat.");
      await p.add("de-zurich", "Zürich und Zurich, Zürichsee: ein Zürcher élève prüft den Έλεγχο.");
      for (let i = 0; i < 8; i++) await p.add(`filler${i}`, `Format the changelog entry ${i} before the release.`);
      const queries = [
        ["σίσυφος"], ["σισυφος"], ["Σίσυφος", "δοκιμή"], ["έλεγχος", "τελικός"],
        ["йод"], ["иод"], ["Йод", "сборки"],
        ["lỗi"], ["loi"], ["lỗi", "kết", "nối"], ["triển", "khai"],
        ["café"], ["cafe"], ["élève", "café"], ["crème"],
        // Prefix lengths (four letters or more match as prefixes in both) and capitals.
        ["Σίσυφ"], ["ΣΙΣΥΦΟΣ"], ["ЙОД", "переменн"], ["LỖI", "triể"], ["CAFÉ", "élèv"], ["Zürich", "Ελέγχ"],
      ];
      for (const words of queries) {
        await p.same(`search order ${words.join(" ")}`, (s) => p.searchNames(s, words));
        await p.same(`search scores ${words.join(" ")}`, (s) => s.searchEntries(words, {}, 20).then((hits) => hits.map((h) => [p.named([h.entry])[0], h.relevance.toPrecision(6)])));
        const text = words.join(" ");
        await p.same(`relevance order ${text}`, (s) => p.pageNames(s, { text, sort: "relevance" }));
        await p.same(`relevance keys ${text}`, (s) => s.pageEntries({ filter: {}, text, sort: "relevance", desc: false, limit: 50 }).then((rows) => rows.map((r) => Number(r.key).toPrecision(6))));
      }
    } finally {
      await p.close();
    }
  });

  test("browse words of four letters or more match as prefixes of their stem, as SQLite's do", opts, async () => {
    const p = Pair.open();
    try {
      await p.add("deployment", "Tag the deployment with the commit it shipped.");
      await p.add("deploying", "Deploying on Fridays needs a second reviewer.");
      await p.add("configuration", "Keep the configuration beside the code it configures.");
      await p.add("japanese", "データベースの接続が切れたら再試行する。");
      // U+19B3 is a letter to JavaScript and a separator to SQLite's tables: a word of it holds nothing to match.
      for (const text of ["deplo", "deploy", "deployments", "config", "configura", "conf", "データベース", "DEPLO deploying", "tag commit", "ᦳᦳ deployment", "ᦳᦳ"]) {
        await p.same(`browse ${JSON.stringify(text)}`, (s) => p.pageNames(s, { text }));
        await p.same(`browse by relevance ${JSON.stringify(text)}`, (s) => p.pageNames(s, { text, sort: "relevance" }), (n) => [...n].sort());
        await p.same(`count ${JSON.stringify(text)}`, (s) => s.countEntriesCapped({}, text, 100));
      }
    } finally {
      await p.close();
    }
  });
});

describe("Store parity: odd values, ties and times", () => {
  test("pattern characters (% _ \\ and quotes) in tags, names, flags and search words are plain text in both", opts, async () => {
    const p = Pair.open();
    try {
      const apps = (agents: string[], projects: string[], tools: string[] = []) => ({ scope: "global", projects, agents, tools, file_globs: ["src/**/*_test.go", "100%/x"], tech_stack: [], triggers: [] });
      const a = await p.add("percent", "Cap the CPU at 100% only in the load_test job.", { tags: ["100%", "a_b", "back\\slash", "it's"], applicability: apps(["qa_bot"], ["proj_%"]) });
      await p.add("under", "Name the fixture aXb, not a_b, so globs stay simple.", { tags: ["aXb", "a%b"], applicability: apps(["qaXbot"], ["projX1"]) });
      await p.pg.updateEntry(a.id, (e) => ({ ...e, lifecycle: { ...e.lifecycle, flags: ["origin-superseded:100%_x"] } }), { type: "updated", actor: "t" });
      await p.lite.updateEntry(a.id, (e) => ({ ...e, lifecycle: { ...e.lifecycle, flags: ["origin-superseded:100%_x"] } }), { type: "updated", actor: "t" });
      const list = (f: EntryFilter) => (s: Store) => s.listEntries(f, { order: "oldest" }).then((es) => p.named(es));
      for (const tag of ["100%", "a_b", "a%b", "back\\slash", "it's", "%", "_", "\\"]) await p.same(`tag ${tag}`, list({ anyTags: [tag] }));
      for (const agent of ["qa_bot", "qa%bot", "qa_", "_"]) await p.same(`agent ${agent}`, list({ agent }));
      for (const name of ["proj_%", "proj_", "projX1", "%"]) await p.same(`project ${name}`, list({ project: { id: "p-none", name } }));
      for (const prefix of ["origin-superseded:100%", "origin-superseded:_", "%", "origin-superseded:100%_x"]) await p.same(`flag ${prefix}`, list({ flagPrefix: prefix }));
      for (const w of ["100%", "load_test", "a_b", "%", "_", "\\", "back\\slash", "it's", "o'clock"]) {
        await p.same(`search ${w}`, (s) => p.searchNames(s, [w]));
        await p.same(`browse ${w}`, (s) => p.pageNames(s, { text: w }));
      }
    } finally {
      await p.close();
    }
  });

  test("tags, globs and names with array and quoting characters are stored, read back and filtered alike", opts, async () => {
    const p = Pair.open();
    try {
      const odd = ["a,b", "{x}", '"q"', "NULL", "", " lead", "trail ", "back\\slash", "Ünïcödé", "ünïcödé", "semi;colon", "new\nline", "tab\tbed", "emoji🚀"];
      const apps = { scope: "global", projects: ["Team,One", "{p}"], agents: ["Ägent", "NULL"], tools: ['t"q'], file_globs: ["src/{a,b}/**/*.ts", "**/[!_]*.py", "docs/*\\*.md"], tech_stack: [], triggers: [] };
      const e = await p.add("odd", "Odd tags and globs must survive both stores.", { tags: odd, applicability: apps, entities: odd });
      await p.same("read back", (s) => s.getEntry(e.id).then((x) => [x?.tags, x?.entities, x?.applicability]));
      const list = (f: EntryFilter) => (s: Store) => s.listEntries(f, {}).then((es) => p.named(es));
      for (const tag of [...odd, "a", "b", "x", "null", "ÜNÏCÖDÉ"]) await p.same(`tag ${JSON.stringify(tag)}`, list({ anyTags: [tag] }));
      for (const agent of ["ägent", "ÄGENT", "null", "agent"]) await p.same(`agent ${agent}`, list({ agent }));
      for (const name of ["team one", "Team,One", "{p}", "team"]) await p.same(`project ${name}`, list({ project: { id: "none", name } }));
      await p.same("tool with a quote", list({ tool: 't"q' }));
      await p.same("advisory", list({ advisory: true }));
    } finally {
      await p.close();
    }
  });

  test("rejected lessons holding control characters or broken text are kept and looked up alike", opts, async () => {
    const p = Pair.open();
    try {
      const lessons = ["Plain rejected text.", "Tab\tand bell\u0007 and DEL\u007f.", "Half \ud83d emoji.", "NUL \u0000 inside."];
      const at = "2026-01-05T10:00:00.000Z";
      for (const lesson of lessons) {
        await p.same(`add ${JSON.stringify(lesson)}`, (s) => s.addRejected({ lesson, reason: "vague", codes: ["vague"], source: "add", at }, 50).then(() => "ok", (e: { code?: string }) => e.code));
      }
      await p.same("listed", (s) => s.listRejected().then((r) => r.map((x) => [x.lesson, x.reason, x.codes])));
      for (const lesson of lessons) await p.same(`isRejected ${JSON.stringify(lesson)}`, (s) => s.isRejected(lesson).then((r) => r?.lesson));
    } finally {
      await p.close();
    }
  });

  test("vectors: the same nearest entries at near-equal similarities, the same counts and gaps on both", opts, async () => {
    const p = Pair.open();
    try {
      // A fixed generator: the same vectors every run.
      let seed = 42;
      const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 2 - 1;
      const space = { modelId: "parity-test", dimension: 24 };
      // Unit length, as every embedder hands them over (endpoint-embedder.ts normalised, the static table's sums).
      const vec = () => {
        const v = Float32Array.from({ length: space.dimension }, rand);
        const n = Math.hypot(...v);
        return v.map((x) => x / n);
      };
      const entries: Entry[] = [];
      for (let i = 0; i < 60; i++) entries.push(await p.add(`v${i}`, `Vector lesson ${i} about ${["caches", "queues", "proxies"][i % 3]}.`, { tags: [i % 2 ? "odd" : "even"] }));
      const rows = entries.slice(0, 50).map((e) => ({ id: e.id, vector: vec() }));
      for (const s of [p.lite, p.pg]) await s.putVectors(space, rows);
      await p.same("counts", (s) => s.vectorCounts());
      await p.same("entries without a vector", (s) => s.entriesWithoutVector(space, 20).then((r) => p.named(r.map((x) => x.entry))));
      for (let q = 0; q < 5; q++) {
        const query = vec();
        for (const filter of [{}, { anyTags: ["odd"] }] as EntryFilter[]) {
          // The SQLite store reports int8-quantised similarities, the PostgreSQL one exact cosines (both by design,
          // see sqlite-vectors.ts and pg/vectors.ts): the same entries, each at a similarity within 0.01 of the
          // other's, and an order that differs only between neighbours closer than that.
          const [lite, pg] = await Promise.all([p.lite, p.pg].map((s) => s.searchVectors(space, query, filter, 8)));
          const liteSim = new Map(lite!.map((h) => [h.entry.id, h.similarity]));
          const label = `nearest ${q} ${JSON.stringify(filter)}`;
          assert.ok(pg!.filter((h) => liteSim.has(h.entry.id)).length >= 7, `${label}: the same entries`);
          pg!.forEach((h, i) => {
            const other = liteSim.get(h.entry.id);
            if (other !== undefined) assert.ok(Math.abs(other - h.similarity) < 0.01, `${label}: similarity of ${i}`);
            for (const later of pg!.slice(i + 1)) assert.ok(later.similarity - h.similarity < 1e-9 && (liteSim.get(later.entry.id) ?? -1) - (other ?? 1) < 0.01, `${label}: order`);
          });
        }
      }
    } finally {
      await p.close();
    }
  });

  test("outcome counts read odd payloads alike (a success that is a number, a string, missing or not an object)", opts, async () => {
    const p = Pair.open();
    try {
      const payloads: unknown[] = [{ success: true }, { success: false }, { success: 1 }, { success: 0 }, { success: 1.0 }, { success: "true" }, { success: "maybe" }, { success: null }, {}, "just text", [1, 2], 42];
      for (const [i, payload] of payloads.entries()) await p.same(`enqueue ${i}`, (s) => s.enqueueOutcome(`o-${i}`, payload, "2026-01-05T10:00:00.000Z"));
      await p.same("all", (s) => s.countOutcomes());
      await p.same("successful", (s) => s.countOutcomes({ success: true }).then((n) => n, (e: Error) => e.message));
      await p.same("failed", (s) => s.countOutcomes({ success: false }).then((n) => n, (e: Error) => e.message));
    } finally {
      await p.close();
    }
  });

  test("ties (same time, same score) come back in the same order, and keyset pages over them lose and repeat nothing", opts, async () => {
    const p = Pair.open();
    try {
      const at = "2026-02-01T08:00:00.000Z";
      for (let i = 0; i < 9; i++) await p.add(`t${i}`, `Retry the flaky webhook call number ${["one", "two", "three", "four", "five", "six", "seven", "eight", "nine"][i]}.`, { created_at: at, updated_at: at });
      await p.same("search ties", (s) => p.searchNames(s, ["webhook"]));
      await p.same("search ties, two words", (s) => p.searchNames(s, ["webhook", "flaky"]));
      await p.same("list by confidence ties", (s) => s.listEntries({}, { order: "confidence", limit: 5, offset: 2 }).then((es) => p.named(es)));
      for (const sort of ["created", "updated", "confidence", "applied", "shown"] as const) {
        for (const desc of [false, true]) {
          await p.same(`pages by ${sort} ${desc ? "desc" : "asc"}`, async (s) => {
            const seen: string[] = [];
            let after: { key: string | number; seq: number } | undefined;
            for (;;) {
              const page = await s.pageEntries({ filter: {}, sort, desc, limit: 2, ...(after ? { after } : {}) });
              if (page.length === 0) return seen;
              seen.push(...p.named(page.map((r) => r.entry)));
              after = { key: page.at(-1)!.key, seq: page.at(-1)!.seq };
            }
          });
        }
      }
      await p.same("relevance pages over equal scores", async (s) => {
        const out: string[] = [];
        for (let offset = 0; offset < 10; offset += 4) out.push(...(await p.pageNames(s, { text: "webhook", sort: "relevance", offset, limit: 4 })));
        return out;
      });
    } finally {
      await p.close();
    }
  });

  test("times at millisecond precision and with offsets sort, page and filter the same", opts, async () => {
    const p = Pair.open();
    try {
      const times = [
        "2026-03-01T10:00:00.001Z", "2026-03-01T10:00:00.010Z", "2026-03-01T10:00:00Z", "2026-03-01T10:00:00.000Z",
        "2026-03-01T11:30:00.000+02:00", "2026-03-01T09:59:59.999-01:00", "2026-03-01T10:00:00.5Z",
      ];
      for (const [i, at] of times.entries()) await p.add(`at${i}`, `Lesson ${["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf"][i]} about clock skew between runners.`, { created_at: at, updated_at: at });
      for (const desc of [false, true]) {
        await p.same(`by created ${desc}`, (s) => s.pageEntries({ filter: {}, sort: "created", desc, limit: 50 }).then((rows) => rows.map((r) => [p.named([r.entry])[0], r.key])));
        await p.same(`after a time key ${desc}`, (s) => p.pageNames(s, { sort: "created", desc, after: { key: "2026-03-01T10:00:00.000Z", seq: desc ? Number.MAX_SAFE_INTEGER : 0 } }));
      }
      await p.same("entries keep their times as given", (s) => s.listEntries({}, { order: "oldest" }).then((es) => es.map((e) => [e.created_at, e.updated_at])));
    } finally {
      await p.close();
    }
  });

  test("a 100 KB lesson is stored whole and found by its first and last words in both", opts, async () => {
    const p = Pair.open();
    try {
      const filler = Array.from({ length: 20_000 }, (_, i) => `w${i % 997}x`).join(" ");
      const long = `Openingword ${filler} closingword.`;
      assert.ok(long.length > 100_000);
      const e = await p.add("long", long);
      await p.add("short", "A short lesson that mentions the closingword once.");
      await p.same("read back whole", (s) => s.getEntry(e.id).then((x) => x?.lesson.length));
      for (const w of ["openingword", "closingword", "w996x"]) {
        await p.same(`search ${w}`, (s) => p.searchNames(s, [w]));
        await p.same(`browse ${w}`, (s) => p.pageNames(s, { text: w }));
      }
    } finally {
      await p.close();
    }
  });

  test("NUL bytes and lone surrogates in a lesson, a tag or an event are refused alike, or stored alike; no store fails alone", opts, async () => {
    const p = Pair.open();
    try {
      const cases: Array<[string, Partial<Entry> & { lesson: string }]> = [
        ["nul in lesson", { lesson: "Strip the \u0000 byte before logging." }],
        ["nul in tag", { lesson: "Tags may carry odd bytes.", tags: ["a\u0000b"] }],
        ["lone high surrogate", { lesson: "Half an emoji \ud83d stays behind." }],
        ["lone low surrogate", { lesson: "The other half \ude80 too." }],
      ];
      for (const [name, c] of cases) {
        const at = "2026-01-05T10:00:00.000Z";
        const e = EntrySchema.parse({ id: newEntryId(), handle: "", tier: "hive", category: "tooling", kind: "learning", created_at: at, updated_at: at, ...c });
        const outcome = async (s: Store) => {
          try {
            const stored = await s.insertEntry(e, { type: "created", actor: "t", data: { note: c.lesson } });
            const back = await s.getEntry(stored.id);
            return { stored: true, lesson: back?.lesson, tags: back?.tags };
          } catch (err) {
            return { stored: false, code: (err as { code?: string }).code };
          }
        };
        const r = await p.same(name, outcome);
        if (!r.stored) assert.equal((r as { code?: string }).code, "INVALID_INPUT", `${name}: refused with an actionable error`);
      }
      const good = await p.add("good", "A lesson with plain text.");
      const refused = (fn: (s: Store) => Promise<unknown>) => async (s: Store) => fn(s).then(() => "stored", (err: { code?: string }) => err.code);
      const bad = EntrySchema.parse({ ...good, id: newEntryId(), lesson: "Broken \ud800 text." });
      await p.same("a bulk call with one bad row writes nothing", refused((s) => s.insertEntries([{ ...good, id: newEntryId(), lesson: "Fine row." }, bad], { type: "created", actor: "t" })));
      await p.same("an edit adding a NUL", refused((s) => s.updateEntry(good.id, (e) => ({ ...e, why: "because\u0000" }), { type: "updated", actor: "t" })));
      await p.same("an event carrying a NUL", refused((s) => s.appendEvent(good.id, { type: "updated", actor: "t", data: { note: "x\u0000" } })));
      await p.same("usage data with half an emoji", refused((s) => s.recordUsage([good.id], "applied", "t", { note: "\ude80" })));
      await p.same("the good entry is as it was", (s) => s.getEntry(good.id).then((e) => [e?.why, e?.usage.applied]));
      await p.same("nothing half-written", (s) => s.totalEntries());
      await p.same("no event half-written", (s) => s.listEvents(good.id).then((evs) => evs.map((e) => e.type)));
    } finally {
      await p.close();
    }
  });

  test("an entry reads back the same from both, field by field, through every read, and its feedback decays to now alike", opts, async () => {
    const p = Pair.open();
    try {
      const rich = {
        title: "Floats, offsets and Unicode round trip",
        why: "Scores multiply these; a last bit lost moves a ranking.",
        tags: ["zeit", "Ünïcödé", "a b"],
        entities: ["pg", "sqlite"],
        created_at: "2026-01-01T00:00:00.123+05:30",
        updated_at: "2026-01-02T23:59:59.999-08:00",
        lifecycle: { ...EntrySchema.parse({ id: "x", handle: "", tier: "hive", lesson: "x", category: "tooling", kind: "learning", created_at: "2026-01-01T00:00:00Z", updated_at: "2026-01-01T00:00:00Z" }).lifecycle, confidence: 0.1 + 0.2, flags: ["contradicts:abc"], phases_alive: 3, revalidated_at: "2026-01-03T00:00:00.001Z" },
        usage: { shown: 7, applied: 2, ignored: 1, violated: 1, prevented: 0, consulted: 4, helpful: 1.999, harmful: 1 / 3, last_shown_at: "2026-01-04T01:02:03.456Z", last_feedback_at: "2026-01-05T10:00:00.000+01:00", last_consulted_at: "2026-01-06T00:00:00Z" },
      } satisfies Partial<Entry>;
      const e = await p.add("rich", "Keep the float sums of feedback exact across backends.", rich);
      const view = (x: Entry | undefined) => x;
      const one = await p.same("getEntry", (s) => s.getEntry(e.id), view);
      await p.same("listEntries", (s) => s.listEntries({}, {}));
      await p.same("searchEntries", (s) => s.searchEntries(["float"], {}, 5).then((h) => h.map((x) => x.entry)));
      await p.same("pageEntries", (s) => s.pageEntries({ filter: {}, sort: "updated", desc: true, limit: 5 }).then((r) => r.map((x) => [x.entry, x.key])));
      await p.same("flagged", (s) => s.listEntries({ contradicted: true, maxUtility: 0.9 }, {}).then((es) => p.named(es)));
      const now = new Date("2026-03-01T12:00:00.000Z");
      await p.same("decayed feedback to now", (s) => s.getEntry(e.id).then((x) => decayedFeedback(x!, now, 30)));
      assert.equal(one?.lifecycle.confidence, 0.1 + 0.2, "not rounded by either store");
    } finally {
      await p.close();
    }
  });

  test("two processes writing at once end with the same entries, counts and edits on both: no twin, no lost update", { ...opts, timeout: 300_000 }, async () => {
    const p = Pair.open();
    try {
      const hub = await p.add("hub", "Every writer tags this lesson once per lesson it adds.");
      const N = 24;
      const summary = async (s: Store) => {
        const all: Entry[] = [];
        for await (const e of s.iterateEntries()) all.push(e);
        const lessons = all.map((e) => e.lesson);
        const tallies = (await s.entryTallies()).map((t) => [t.status, t.source, t.entries, t.shown, t.applied]);
        return {
          total: await s.totalEntries(),
          distinct: new Set(lessons).size,
          rows: all.length,
          shown: all.reduce((n, e) => n + e.usage.shown, 0),
          applied: all.reduce((n, e) => n + e.usage.applied, 0),
          hubTags: all.find((e) => e.id === hub.id)!.tags.length,
          hubEvents: (await s.listEvents(hub.id, 1000)).length,
          integrity: await s.integrityCheck(),
          tallies,
        };
      };
      const race = async (backend: string[], env: NodeJS.ProcessEnv) => {
        const runs = ["w1", "w2"].map((w) => runWorker("store-writer-worker.ts", [...backend, w, String(N), hub.id], env));
        const done = await Promise.all(runs.map((r) => r.done));
        for (const d of done) assert.equal(d.code, 0, d.stderr);
        return done.map((d) => JSON.parse(d.stdout.trim().split(" ").slice(1).join(" ")) as { added: number; twins: number });
      };
      const env = { ...process.env };
      const liteRuns = await race(["sqlite", p.lite.location], env);
      const pgRuns = await race(["pg", pgTestUrl()!, p.pg.schema], env);
      for (const runs of [liteRuns, pgRuns]) {
        assert.equal(runs.reduce((n, r) => n + r.added, 0), N, "each lesson added once in all");
        assert.equal(runs.reduce((n, r) => n + r.twins, 0), N, "and refused once as a twin");
      }
      const s = await p.same("after the race", summary);
      assert.deepEqual([s.total, s.distinct, s.rows, s.shown, s.applied, s.hubTags, s.integrity], [N + 1, N + 1, N + 1, N, N, 2 * N, "ok"]);
    } finally {
      await p.close();
    }
  });

  test("browsing by relevance ranks the same entries in the same order on both", opts, async () => {
    const p = Pair.open();
    try {
      await p.add("once-long", "The webhook handler must verify the signature before parsing the body of every request it is sent by the provider.");
      await p.add("twice", "Webhook retries need a webhook idempotency key.");
      await p.add("once-short", "Log every webhook.");
      await p.add("thrice", "Webhook, webhook, webhook: a storm of webhooks needs a queue.");
      await p.add("with-signature", "Check the webhook signature in constant time.");
      for (let i = 0; i < 12; i++) await p.add(`filler${i}`, `Format the changelog entry ${i} before the release.`);
      for (const text of ["webhook", "webhook signature", "webh", "signature webhook request"]) {
        await p.same(`relevance ${text}`, (s) => p.pageNames(s, { text, sort: "relevance" }));
        await p.same(`relevance ${text}, second page`, (s) => p.pageNames(s, { text, sort: "relevance", offset: 2, limit: 2 }));
        await p.same(`relevance keys ${text}`, (s) => s.pageEntries({ filter: {}, text, sort: "relevance", desc: false, limit: 50 }).then((rows) => rows.map((r) => Number(r.key).toPrecision(9))));
      }
    } finally {
      await p.close();
    }
  });
});

describe("Store parity: a database whose default collation is not byte order", () => {
  test("project ids and times with offsets sort as SQLite sorts them (byte order), whatever the database's collation", opts, async (t) => {
    // Many servers create databases with a language's collation (en_US.UTF-8, ICU): there "proj-B" sorts after "proj-a",
    // and "+02:00" after ".000Z"; SQLite compares text byte by byte.
    const base = pgTestUrl()!;
    const db = uniqueSchema("icu");
    const made = await adminQuery(base, `CREATE DATABASE ${db} TEMPLATE template0 ENCODING 'UTF8' LOCALE 'C.UTF-8' LOCALE_PROVIDER icu ICU_LOCALE 'en-US'`).then(
      () => undefined,
      (e: Error) => e.message,
    );
    // A server built without ICU (or a role that may not create databases) cannot host the case: said, not failed.
    if (made) return t.skip(`no ICU database on this server (${made})`);
    const url = new URL(base);
    url.pathname = `/${db}`;
    const p = Pair.open(url.toString());
    try {
      const times = ["2026-03-01T10:00:00.000Z", "2026-03-01T10:00:00+02:00", "2026-03-01T10:00:00-01:00", "2026-03-01T10:00:00Z", "2026-03-01T10:00:00.5Z"];
      const projects = ["proj-B", "proj-a", "Proj-c", "proj_d", "proj-a"];
      const added: Entry[] = [];
      for (const [i, at] of times.entries()) {
        const provenance = { ...EntrySchema.parse({ id: "x", handle: "", tier: "hive", lesson: "x", category: "tooling", kind: "learning", created_at: at, updated_at: at }).provenance, source_project_id: projects[i], source_project_name: `name ${projects[i]}` };
        added.push(await p.add(`e${i}`, `Lesson ${["alpha", "bravo", "charlie", "delta", "echo"][i]} on the release train.`, { created_at: at, updated_at: at, provenance }));
      }
      for (const desc of [false, true]) {
        await p.same(`by created ${desc}`, (s) => p.pageNames(s, { sort: "created", desc }));
        await p.same(`pages of two by updated ${desc}`, async (s) => {
          const seen: string[] = [];
          let after: { key: string | number; seq: number } | undefined;
          for (;;) {
            const page = await s.pageEntries({ filter: {}, sort: "updated", desc, limit: 2, ...(after ? { after } : {}) });
            if (page.length === 0) return seen;
            seen.push(...p.named(page.map((r) => r.entry)));
            after = { key: page.at(-1)!.key, seq: page.at(-1)!.seq };
          }
        });
      }
      await p.same("source projects, ties by id", (s) => s.sourceProjects(10));
      await p.same("source project menu", (s) => s.sourceProjectIds(10));
      for (const [i, e] of added.entries()) await p.same(`usage ${i}`, (s) => s.recordUsage([e.id], "shown", "t", { project_id: projects[(i + 2) % 5] }).then(() => true));
      await p.same("project usage, ties by id", (s) => s.projectUsage(10).then((u) => [u.projects.map((x) => [x.project_id, x.entries, x.shown]), u.entries.map((x) => [x.project_id, p.named([{ id: x.entry_id } as Entry])[0]])]));
      await p.same("reflection queue in time order", async (s) => {
        for (const [i, at] of times.entries()) await s.enqueueOutcome(`o-${projects[i]}-${i}`, { i }, at);
        const order: string[] = [];
        for (let o = await s.claimNextOutcome("2027-01-01T00:00:00.000Z", "2027-01-01T00:01:00.000Z"); o; o = await s.claimNextOutcome("2027-01-01T00:00:00.000Z", "2027-01-01T00:01:00.000Z")) order.push(o.id);
        return order;
      });
    } finally {
      await p.close();
      await adminQuery(base, `DROP DATABASE IF EXISTS ${db} WITH (FORCE)`);
    }
  });
});

describe("Store parity: queues, copies, retirement and listings", () => {
  test("the reflection queue and the hive outbox go through the same states in the same order on both", opts, async () => {
    const p = Pair.open();
    try {
      const items: Array<[string, string]> = [["o-b", "2026-03-01T10:00:00.000Z"], ["o-a", "2026-03-01T10:00:00.000Z"], ["o-c", "2026-03-01T09:00:00.000+00:00"], ["o-d", "2026-03-01T11:30:00.000+02:00"]];
      await p.same("enqueue, twice", async (s) => {
        const out: boolean[] = [];
        for (const [id, at] of items) out.push(await s.enqueueOutcome(id, { id, n: [1, 2] }, at));
        out.push(await s.enqueueOutcome("o-a", { other: true }, "2027-01-01T00:00:00.000Z"));
        return out;
      });
      await p.same("when each was enqueued, as given", (s) => Promise.all([...items.map(([id]) => id), "o-none"].map((id) => s.outcomeEnqueuedAt(id))));
      const now = "2026-04-01T00:00:00.000Z";
      const lease = "2026-04-01T00:05:00.000Z";
      await p.same("claim, share, fail with a retry time, claim again, complete", async (s) => {
        const log: unknown[] = [];
        const first = await s.claimNextOutcome(now, lease);
        log.push(first);
        await s.saveOutcomeShares(first!.id, { x: 0.5 });
        log.push(await s.failOutcome(first!.id, "boom", 3, "2026-04-01T01:00:00.000Z"));
        const next = await s.claimNextOutcome(now, lease);
        log.push(next?.id);
        await s.completeOutcome(next!.id, { ok: true }, now);
        log.push(await s.claimNextOutcome("2026-04-01T02:00:00.000Z", "2026-04-01T02:05:00.000Z"));
        log.push(await s.failOutcome("o-c", "again", 2));
        log.push(await s.queueCounts());
        for (const st of ["pending", "processing", "done", "dead"] as const) log.push([st, (await s.listQueue(st)).map((q) => [q.id, q.attempts, q.last_error ?? null, q.shares ?? null])]);
        log.push(await s.outcomeEnqueuedAt(next!.id));
        return log;
      });
      await p.same("outbox", async (s) => {
        const log: unknown[] = [];
        for (const [id, at] of items) log.push(await s.enqueueOutbox(`x-${id}`, "feedback", { id }, at));
        log.push(await s.enqueueOutbox("x-o-a", "feedback", { again: true }, now));
        await s.failOutbox("x-o-b", "down", false);
        await s.failOutbox("x-o-c", "never", true);
        await s.completeOutbox("x-o-a");
        log.push(await s.outboxCounts());
        for (const st of ["pending", "dead"] as const) log.push((await s.listOutbox(st)).map((o) => [o.id, o.op, o.payload, o.status, o.attempts, o.last_error ?? null, o.enqueued_at]));
        return log;
      });
    } finally {
      await p.close();
    }
  });

  test("copies from another store: kept handle, idempotent, merged into a live twin once, never into a retired one", opts, async () => {
    const p = Pair.open();
    try {
      const live = await p.add("live", "Keep the webhook secret in the vault, never in the repository.", { tags: ["a"] });
      const retired = await p.add("retired", "Run the nightly export with the read replica as its source.");
      for (const s of [p.lite, p.pg]) await s.updateEntry(retired.id, (e) => ({ ...e, lifecycle: { ...e.lifecycle, status: "archived" } }), { type: "archived", actor: "t" });
      const at = "2026-02-01T10:00:00.000Z";
      const from = (lesson: string, handle: string, extra: Partial<Entry> = {}) =>
        EntrySchema.parse({ id: newEntryId(), handle, tier: "swarm", lesson, category: "tooling", kind: "learning", created_at: at, updated_at: at, tags: ["b"], ...extra });
      const fresh = from("Tag each release image with the commit it was built from.", "H-40");
      const twin = from(live.lesson, "S-3", { usage: { ...live.usage, shown: 2, helpful: 1 } });
      const old = from(retired.lesson, "H-2");
      const events = [{ seq: 1, entry_id: "x", type: "created" as const, at, actor: "agent:x", data: { note: "from a project" } }];
      const view = (r: { action: string; entry: Entry }) => [r.action, r.entry.handle, r.entry.tags, r.entry.usage.shown, r.entry.usage.helpful, r.entry.lifecycle.status, p.named([r.entry])[0]];
      for (const [name, e] of [["fresh", fresh], ["twin", twin], ["old", old]] as const) {
        await p.same(`copy ${name}`, (s) => s.copyEntry(e, events).then(view));
        await p.same(`copy ${name} again`, (s) => s.copyEntry(e, events).then(view));
      }
      await p.same("what the tier holds", (s) => s.listEntries({}, { order: "oldest" }).then((es) => es.map((e) => [e.lesson.slice(0, 20), e.handle, e.lifecycle.status, e.usage.shown])));
      await p.same("the twin's history", (s) => s.listEvents(live.id).then((evs) => evs.map((e) => [e.type, e.actor, e.data])));
      await p.same("the copy's history", (s) => s.listEvents(fresh.id).then((evs) => evs.map((e) => [e.type, e.actor, e.at, e.data])));
    } finally {
      await p.close();
    }
  });

  test("retirement, removal and upkeep answer alike: handles never reused, eviction order, expiry, rejected lessons", opts, async () => {
    const p = Pair.open();
    try {
      const es: Entry[] = [];
      for (let i = 0; i < 6; i++) es.push(await p.add(`e${i}`, `Lesson number ${["one", "two", "three", "four", "five", "six"][i]} about the build cache.`, { category: i === 2 ? "todo" : "tooling" }));
      const set = (e: Entry, status: Entry["lifecycle"]["status"], extra: Partial<Entry["lifecycle"]> = {}) =>
        Promise.all([p.lite, p.pg].map((s) => s.updateEntry(e.id, (x) => ({ ...x, lifecycle: { ...x.lifecycle, status, ...extra } }), { type: "updated", actor: "t" })));
      await set(es[0]!, "archived");
      await set(es[1]!, "promoted");
      await set(es[3]!, "quarantined");
      await set(es[4]!, "established", { max_phases: 1 });
      await p.same("delete", (s) => s.deleteEntry(es[5]!.id, { type: "removed", actor: "t" }));
      await p.same("delete again", (s) => s.deleteEntry(es[5]!.id, { type: "removed", actor: "t" }));
      await p.same("the next handle is new", async (s) => {
        const e = EntrySchema.parse({ id: `${es[0]!.id.slice(0, -4)}ffff`, handle: "", tier: "hive", lesson: "A lesson added after a removal.", category: "tooling", kind: "learning", created_at: "2026-01-05T10:00:00.000Z", updated_at: "2026-01-05T10:00:00.000Z" });
        return (await s.insertEntry(e, { type: "created", actor: "t" })).handle;
      });
      await p.same("phases", (s) => s.incrementPhasesAlive(["candidate", "established"]));
      await p.same("phases again", (s) => s.incrementPhasesAlive(["candidate", "established"]));
      await p.same("expired", (s) => s.findExpired(["candidate", "established"], 3, 1).then((x) => p.named(x)));
      await p.same("eviction order", (s) => s.evictionCandidates(10).then((x) => p.named(x)));
      await p.same("counts by status", (s) => Promise.all([s.countEntries(), s.countEntries({ statuses: ["archived", "quarantined"] }), s.totalEntries(), s.countEntries({ categories: ["todo"] })]));
      await p.same("listing without retired, without some ids", (s) => s.listEntries({ statuses: ["candidate", "established", "promoted"], excludeIds: [es[1]!.id] }, { order: "oldest" }).then((x) => p.named(x)));
      await p.same("by ids", (s) => s.listEntries({ ids: [es[3]!.id, es[0]!.id, "nope"], statuses: ["quarantined", "archived", "superseded"] }, { order: "oldest" }).then((x) => p.named(x)));
      await p.same("usage and events naming a removed entry", async (s) => {
        await s.recordUsage([es[4]!.id, es[5]!.id], "applied", "t", { project_id: "p1" });
        const appended = await s.appendEvent(es[5]!.id, { type: "feedback", actor: "t", data: { verdict: "harmful" } }).then(() => "ok", (e: { code?: string }) => e.code);
        return [appended, (await s.listEvents(es[5]!.id)).map((e) => e.type), (await s.getEntry(es[4]!.id))?.usage.applied, await s.sumUsage()];
      });
      await p.same("rejected, capped at 3", async (s) => {
        for (let i = 0; i < 5; i++) await s.addRejected({ lesson: `bad ${i % 2}`, reason: `why ${i}`, codes: ["vague"], source: "agent:x", at: `2026-01-0${i + 1}T00:00:00.000Z` }, 3);
        return [(await s.listRejected(10)).map((r) => [r.lesson, r.reason, r.at]), (await s.isRejected("bad 1"))?.reason, await s.isRejected("bad 9"), await s.countRejected(100)];
      });
    } finally {
      await p.close();
    }
  });
});
