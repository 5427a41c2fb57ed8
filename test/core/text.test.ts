// Tests for code-aware tokenisation and FTS5 query building, including hostile input against a real FTS5 table.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "libsql";
import { STOP_WORDS, buildSearchText, queryTerms, splitIdentifiers, toFtsMatchQuery } from "../../src/core/text.js";

test("splitIdentifiers splits camelCase, acronyms, snake, kebab, paths, dotted names and scopes", () => {
  assert.deepEqual(splitIdentifiers("getUserById"), ["get", "user", "by", "id"]);
  assert.deepEqual(splitIdentifiers("HTTPServer"), ["http", "server"]);
  assert.deepEqual(splitIdentifiers("parseJSONResponse"), ["parse", "json", "response"]);
  assert.deepEqual(splitIdentifiers("max_pool_size"), ["max", "pool", "size"]);
  assert.deepEqual(splitIdentifiers("force-with-lease"), ["force", "with", "lease"]);
  assert.deepEqual(splitIdentifiers("src/auth/middleware.ts"), ["src", "auth", "middleware", "ts"]);
  assert.deepEqual(splitIdentifiers("check req.headers.authorization first."), ["req", "headers", "authorization"]);
  assert.deepEqual(splitIdentifiers("@scope/pkg"), ["scope", "pkg"]);
  assert.deepEqual(splitIdentifiers("base64Encode"), ["base64", "encode"]);
});

test("splitIdentifiers leaves plain words, numbers and versions alone", () => {
  assert.deepEqual(splitIdentifiers("Plain words only, nothing to split."), []);
  assert.deepEqual(splitIdentifiers("Use v1.2.3 or 18.x, not 3.5"), []);
  assert.deepEqual(splitIdentifiers("don't"), []);
  assert.deepEqual(splitIdentifiers(""), []);
});

test("splitIdentifiers returns distinct sub-tokens in order of first appearance", () => {
  assert.deepEqual(splitIdentifiers("getUser setUser user_id"), ["get", "user", "set", "id"]);
});

test("buildSearchText keeps the original text and appends only sub-tokens unicode61 would miss", () => {
  const text = buildSearchText(["Use getUserById in src/auth/middleware.ts", "", "  tags here  "]);
  assert.ok(text.startsWith("Use getUserById in src/auth/middleware.ts\ntags here"));
  const extra = text.split("\n").pop()!.split(" ");
  assert.deepEqual(extra, ["get", "user", "by", "id"]); // src/auth/… already tokenises by itself
  assert.equal(buildSearchText(["plain words"]), "plain words");
  assert.equal(buildSearchText([]), "");
  assert.equal(buildSearchText(["getUserById"]), buildSearchText(["getUserById"]));
});

test("queryTerms keeps meaningful terms in first-appearance order", () => {
  assert.deepEqual(
    queryTerms("How do I fix getUserById when the auth middleware doesn't read req.headers.authorization?"),
    ["fix", "getuserbyid", "user", "id", "auth", "middleware", "read", "req", "headers", "authorization"],
  );
  assert.deepEqual(queryTerms("the and of a to"), []);
  assert.deepEqual(queryTerms("Redis redis REDIS"), ["redis"]);
  assert.equal(queryTerms("alpha beta gamma delta epsilon", 3).length, 3);
  assert.equal(queryTerms(Array.from({ length: 100 }, (_, i) => `word${i}`).join(" ")).length, 32);
  assert.ok(STOP_WORDS.has("the") && STOP_WORDS.has("never") && !STOP_WORDS.has("redis"));
});

test("toFtsMatchQuery quotes every term and ORs them", () => {
  assert.equal(toFtsMatchQuery([]), "");
  assert.equal(toFtsMatchQuery(["", "  ", "***", "\u0000"]), "");
  assert.equal(toFtsMatchQuery(["auth", "db"]), '"auth"* OR "db"');
  assert.equal(toFtsMatchQuery(["auth", "db"], { prefix: false }), '"auth" OR "db"');
  assert.equal(toFtsMatchQuery(['say "hi"']), '"say ""hi"""');
  assert.equal(toFtsMatchQuery(["NEAR(a b)"]), '"NEAR(a b)"');
});

const HOSTILE = [
  '"', '""', '"unterminated', "*", "a*", "NEAR(", "NEAR(a b, 2)", "AND", "OR", "NOT", "a AND b", "-",
  "-foo", "foo-bar", ":", "col:value", "body:x", "(", ")", "((a)", "a) OR (b", "\u0000", "a\u0000b",
  "^start", "{a b}", "+", "'", "\\", "%", "x OR", "🙂", "'; DROP TABLE t; --", "unique-keyword-12345",
];

test("hostile input never breaks an FTS5 MATCH, and getUserById is found by `user`", () => {
  const dir = mkdtempSync(join(tmpdir(), "cairn-text-"));
  const db = new Database(join(dir, "fts.db"));
  try {
    db.exec("CREATE VIRTUAL TABLE lessons USING fts5(body, tokenize='porter unicode61')");
    const insert = db.prepare("INSERT INTO lessons(rowid, body) VALUES (?, ?)");
    const lessons = [
      "The auth middleware calls getUserById before the null check; check req.headers.authorization first",
      "Quote FTS5 terms: unique-keyword-12345 is parsed as a MINUS otherwise",
      "Use NEAR and AND carefully in search strings",
    ];
    lessons.forEach((l, i) => insert.run([i + 1, buildSearchText([l])]));
    const search = db.prepare("SELECT rowid FROM lessons WHERE lessons MATCH ? ORDER BY rank");
    const ids = (q: string) => (search.all([q]) as Array<{ rowid: number }>).map((r) => r.rowid);

    for (const input of HOSTILE) {
      for (const q of [toFtsMatchQuery([input]), toFtsMatchQuery(queryTerms(input)), toFtsMatchQuery(HOSTILE)]) {
        if (q === "") continue;
        assert.doesNotThrow(() => ids(q), `MATCH ${JSON.stringify(q)} from ${JSON.stringify(input)}`);
      }
    }
    assert.deepEqual(ids(toFtsMatchQuery(queryTerms("user"))), [1]);
    assert.deepEqual(ids(toFtsMatchQuery(queryTerms("users"))), [1], "porter stems users → user");
    assert.deepEqual(ids(toFtsMatchQuery(queryTerms("getUserById"))), [1]);
    assert.deepEqual(ids(toFtsMatchQuery(["auth"], { prefix: false })), [1]);
    assert.deepEqual(ids(toFtsMatchQuery(["autho"])), [1], "prefix match reaches authorization");
    assert.deepEqual(ids(toFtsMatchQuery(queryTerms("unique-keyword-12345"))), [2]);
    assert.deepEqual(ids(toFtsMatchQuery(["NEAR"])), [3], "NEAR is a word, not an operator");
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
