// ftsTokens gives the tokens SQLite's `porter unicode61` index holds, read back from a real FTS5 vocabulary, in any script.
import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { SqliteDriver } from "../../src/store/driver.js";
import { ftsTokens } from "../../src/store/fts-tokens.js";
import { makeSandbox, removeSandbox } from "../fixtures/workers/sandbox.js";

/** Words of lessons in several scripts: Latin with one mark or two, Greek and Cyrillic with theirs, kana with voicing marks, Hangul. */
const TEXTS = [
  "Ελλάδα: το αρχείο ρυθμίσεων φορτώνεται μία φορά.",
  "Йогурт и ёлка: настройки читаются один раз при запуске.",
  "Cấu hình được đọc một lần khi khởi động; lỗi kết nối cơ sở dữ liệu.",
  "Le café naïve à Ærø: ş ț ğ ő ű ā ē ī ō ū ǎ ṭ ḥ çà.",
  "データベース接続プールの上限を二十にする。결제모듈재시도횟수는세번으로제한한다",
  "Retrying the connections caches the handlers' configurations.",
];

test("ftsTokens is what FTS5 indexes: marks come off Latin letters only, as unicode61 takes them off", () => {
  const sb = makeSandbox();
  const db = new SqliteDriver(path.join(sb.root, "tokens.db"));
  try {
    db.exec("CREATE VIRTUAL TABLE f USING fts5(t, tokenize='porter unicode61'); CREATE VIRTUAL TABLE v USING fts5vocab(f, row);");
    for (const text of TEXTS) {
      db.exec("DELETE FROM f");
      db.run("INSERT INTO f(t) VALUES (?)", [text]);
      const indexed = db.all<{ term: string }>("SELECT term FROM v").map((r) => r.term).sort();
      assert.deepEqual([...new Set(ftsTokens(text))].sort(), indexed, text);
    }
  } finally {
    db.close();
    removeSandbox(sb);
  }
});
