// `cairn ui --port` and `cairn mcp --http --port` take the same ports and refuse the rest in the same words: a port is digits, 0 to 65535 ("0x0" or "1e3" is no port).
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { sandbox } from "../helpers/cli.js";

const sb = sandbox();
after(() => sb.cleanup());

test("a --port that is not plain digits from 0 to 65535 is refused by ui and mcp --http alike, before anything listens", async () => {
  const p = sb.project("ports");
  for (const port of ["0x0", "1e3", "-1", "65536", "80.5"]) {
    for (const args of [["ui", "--port", port], ["mcp", "--http", "--port", port]]) {
      // A port taken by mistake would start a server: the timeout ends it, and the test fails on its exit code.
      const r = await sb.raw(["--project", p, "--json", ...args], { timeoutMs: 60_000 });
      assert.equal(r.code, 2, `${args.join(" ")}: ${r.stdout}${r.stderr}`);
      const body = JSON.parse(r.stdout);
      assert.equal(body.error.code, "INVALID_INPUT", r.stdout);
      assert.match(body.error.message, /--port must be a whole number from 0 to 65535 \(0 picks a free one\)/, `${args.join(" ")}: ${body.error.message}`);
    }
  }
});
