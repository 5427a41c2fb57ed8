// The README's config reference is generated from the schema; this fails when they drift apart.
import assert from "node:assert/strict";
import fs from "node:fs";
import { test } from "node:test";
import { withReference } from "../../scripts/gen-config-docs.js";

test("README config reference matches the config schema (run `npm run docs` to fix)", () => {
  const readme = fs.readFileSync(new URL("../../README.md", import.meta.url), "utf8");
  assert.equal(readme, withReference(readme));
});

test("README opens with the install-and-run command and the test command", () => {
  const readme = fs.readFileSync(new URL("../../README.md", import.meta.url), "utf8");
  const firstBlock = /```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? "";
  const lines = firstBlock.trim().split("\n");
  assert.match(lines[0] ?? "", /^npm install && npx cairn /);
  assert.equal(lines[1], "npm test");
});
