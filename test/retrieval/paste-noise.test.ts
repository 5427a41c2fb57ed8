// What a pasted diff, log line or URL loses before its words are read, and what it must keep: versions, ports, statuses and error codes.
import { test } from "node:test";
import assert from "node:assert/strict";
import { queryTerms } from "../../src/core/text.js";
import { withoutDiffNoise, withoutPasteNoise, withoutRunIds } from "../../src/retrieval/paste-noise.js";

test("the numbers lessons name stay: versions, ports, HTTP statuses, SQLSTATE and compiler codes", () => {
  const text = "node 20 and python 3.12 on port 5432: HTTP 502, SQLSTATE 23505, error E0502 and TS2345, v1.2.3, ES2022";
  assert.equal(withoutRunIds(text), text);
});

test("a run's identifiers go: timestamps, UUIDs, IP addresses, hashes, long numbers, percent-escapes", () => {
  const terms = queryTerms(
    withoutRunIds("2026-11-30T14:02:17.481Z [30/Nov/2026:14:02:17 +0000] 14:02:17 req 9b2f4c1e-5d6a-4e7b-8c9d-0a1b2c3d4e5f from 10.0.3.17 commit 3f2a1c0 ts 1701352937000 q=service%3Acheckout"),
  );
  assert.deepEqual(terms, ["req", "commit", "ts", "service", "checkout"]);
});

test("text without a digit, a percent sign or a diff comes back as it was", () => {
  const text = "- keep the list\n+ and this line\nplain words only";
  assert.equal(withoutPasteNoise(text), text);
});

test("a diff reads its changed lines first, then context, then its files' names; its headers and hashes go", () => {
  const diff = [
    "diff --git a/src/lib/http/client.ts b/src/lib/http/client.ts",
    "index 3f2a1c0..8b9d4e2 100644",
    "--- a/src/lib/http/client.ts",
    "+++ b/src/lib/http/client.ts",
    "@@ -118,9 +118,11 @@ export async function request(url) {",
    "   const controller = new AbortController();",
    "-  const res = await fetch(url);",
    "+  const res = await fetch(url, { keepalive: true });",
  ].join("\n");
  assert.equal(
    withoutDiffNoise(diff),
    ["  const res = await fetch(url);", "  const res = await fetch(url, { keepalive: true });", "export async function request(url) {", "  const controller = new AbortController();", "client.ts"].join("\n"),
  );
});
