// decodeText: UTF-8 with or without a BOM, UTF-16 of either byte order with one; the mark never reaches the text.
import { test } from "node:test";
import assert from "node:assert/strict";
import { decodeText, utf16Order } from "../../src/core/decode.js";

const TEXT = "Pin café → 🙂 to v2\r\nsecond line";

test("UTF-8, with or without a byte-order mark", () => {
  assert.equal(decodeText(Buffer.from(TEXT, "utf8")), TEXT);
  assert.equal(decodeText(Buffer.from(`\uFEFF${TEXT}`, "utf8")), TEXT);
  assert.equal(utf16Order(Buffer.from(TEXT, "utf8")), undefined);
});

test("UTF-16 little- and big-endian with a byte-order mark; a stray last byte is dropped", () => {
  const le = Buffer.from(`\uFEFF${TEXT}`, "utf16le");
  const be = Buffer.from(le).swap16();
  assert.equal(utf16Order(le), "le");
  assert.equal(utf16Order(be), "be");
  assert.equal(decodeText(le), TEXT);
  assert.equal(decodeText(be), TEXT);
  assert.equal(decodeText(Buffer.concat([be, Buffer.from([0x41])])), TEXT);
  assert.equal(decodeText(Buffer.from([0xff, 0xfe])), "");
});
