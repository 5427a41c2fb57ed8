// The JS unicode61 tokenizer (PostgreSQL lexemes, in-memory rankings) splits and folds text exactly as the SQLite Cairn ships does.
import { test } from "node:test";
import assert from "node:assert/strict";
import Database from "libsql";
import { probeUnicode61 } from "../../scripts/gen-unicode61.js";
import { unicode61Tokens } from "../../src/store/unicode61.js";

/** What SQLite's own tokenizer makes of each text, token by token. */
function sqliteTokens(texts: readonly string[]): string[][] {
  const db = new Database(":memory:");
  db.exec("CREATE VIRTUAL TABLE f USING fts5(t, tokenize='unicode61'); CREATE VIRTUAL TABLE v USING fts5vocab(f, 'instance');");
  texts.forEach((t, i) => db.prepare("INSERT INTO f(rowid, t) VALUES (?, ?)").run(i + 1, t));
  const out = texts.map((): string[] => []);
  for (const r of db.prepare('SELECT doc, term FROM v ORDER BY doc, "offset"').all() as Array<{ doc: number; term: string }>) out[r.doc - 1]!.push(r.term);
  db.close();
  return out;
}

test("texts in many scripts come out as the same tokens as SQLite's", () => {
  const texts = [
    "Der Straßen-Test läuft nur unter ÜBERLAST; café crème.",
    "Lỗi kết nối cơ sở dữ liệu khi triển khai: tăng thời gian chờ.",
    "Ошибка сборки: задайте переменную йод.",
    "Σίσυφος ΟΔΟΣ δοκιμή τελικός ς.",
    "データベースの接続が切れたら再試行する。数据库连接池 배포 전에",
    "हिन्दी परीक्षण संदेश में त्रुटि",
    "Deploy🚀only ❤️ the 🥲 linter 👩🏽‍💻 dev.",
    "İstanbul ılık İZMİR ẞ ß µs ſ ﬁle ＡＢＣ ℌ.",
    "Decomposed cafe\u0301 and nai\u0308ve, a lone mark \u0301 and o\u0302\u0303 twice.",
    "Zero\u200bwidth, soft\u00adhyphen, tab\tand\u0000nul, 100% quota_limit C:\\temp\\x_y.",
    "lone \ud800 high and \udc00 low surrogates",
  ];
  const lite = sqliteTokens(texts);
  texts.forEach((t, i) => assert.deepEqual(unicode61Tokens(t), lite[i], JSON.stringify(t)));
});

test("every code point of the Basic Multilingual Plane folds as the generated table says (rerun scripts/gen-unicode61.ts after a libsql upgrade)", () => {
  const probed = probeUnicode61(1, 0xffff);
  const wrong: string[] = [];
  for (let cp = 1; cp <= 0xffff && wrong.length < 10; cp++) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    const v = probed.get(cp) ?? -1;
    const expected = v === -1 ? ["x", "x"] : v === -2 ? ["xx"] : [`x${String.fromCodePoint(v)}x`];
    const got = unicode61Tokens(`x${String.fromCodePoint(cp)}x`);
    if (JSON.stringify(got) !== JSON.stringify(expected)) wrong.push(`U+${cp.toString(16)}: ${JSON.stringify(got)} vs SQLite ${JSON.stringify(expected)}`);
  }
  assert.deepEqual(wrong, []);
});
