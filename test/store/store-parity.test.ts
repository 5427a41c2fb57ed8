// Parity: the same calls, with the same inputs, on the SQLite store and the PostgreSQL store must answer the same (what a team sees must not hang on its backend).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { EntrySchema, type Entry } from "../../src/core/entry.js";
import { newEntryId } from "../../src/core/ids.js";
import { PostgresStore } from "../../src/store/pg/pg-store.js";
import { SqliteStore } from "../../src/store/sqlite-store.js";
import type { EntryFilter, PageQuery, Store } from "../../src/store/store.js";
import { makeSandbox, removeSandbox, type Sandbox } from "../fixtures/workers/sandbox.js";
import { dropSchema, pgTestOptions, pgTestUrl, uniqueSchema } from "../helpers/pg.js";

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

  static open(): Pair {
    return new Pair(makeSandbox(), pgTestUrl()!, uniqueSchema("parity"));
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

  test("browse words of four letters or more match as prefixes of their stem, as SQLite's do", opts, async () => {
    const p = Pair.open();
    try {
      await p.add("deployment", "Tag the deployment with the commit it shipped.");
      await p.add("deploying", "Deploying on Fridays needs a second reviewer.");
      await p.add("configuration", "Keep the configuration beside the code it configures.");
      await p.add("japanese", "データベースの接続が切れたら再試行する。");
      for (const text of ["deplo", "deploy", "deployments", "config", "configura", "conf", "データベース", "DEPLO deploying", "tag commit"]) {
        await p.same(`browse ${JSON.stringify(text)}`, (s) => p.pageNames(s, { text }));
        await p.same(`browse by relevance ${JSON.stringify(text)}`, (s) => p.pageNames(s, { text, sort: "relevance" }), (n) => [...n].sort());
        await p.same(`count ${JSON.stringify(text)}`, (s) => s.countEntriesCapped({}, text, 100));
      }
    } finally {
      await p.close();
    }
  });
});
