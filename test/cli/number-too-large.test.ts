// A whole-number option given a number past what can be counted exactly is told it is too large and what the largest is, not "must be ≥ 1".
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { sandbox } from "../helpers/cli.js";

const sb = sandbox();
after(() => sb.cleanup());

test("--limit 99999999999999999999 is refused as too large, naming the largest number taken; the largest is taken", async () => {
  const p = sb.project("too-large");
  for (const args of [["list", "--limit", "99999999999999999999"], ["recall", "prisma", "--limit", "99999999999999999999"], ["list", "--offset", "1".repeat(30)]]) {
    const r = await sb.json(p, ...args);
    assert.equal(r.code, 2, args.join(" "));
    const message: string = r.body.error.message;
    assert.match(message, /too large/, `${args.join(" ")}: ${message}`);
    assert.match(message, /9007199254740991/, `${args.join(" ")}: names the largest`);
    assert.doesNotMatch(message, /must be a whole number ≥/, `${args.join(" ")}: it is one: ${message}`);
  }
  assert.equal((await sb.json(p, "list", "--limit", "9007199254740991")).code, 0);
});
