// `cairn help <command> --json` shows the help asked for and succeeds, as `cairn <command> --help --json` does (it exited 2).
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { sandbox } from "../helpers/cli.js";

const sb = sandbox();
after(() => sb.cleanup());

test("help asked for by the help command exits 0 with or without --json; a bare group under --json is still a usage error", async () => {
  for (const args of [["help", "list"], ["help"], ["help", "hive"]]) {
    for (const json of [false, true]) {
      const r = await sb.raw([...args, ...(json ? ["--json"] : [])]);
      assert.equal(r.code, 0, `${args.join(" ")}${json ? " --json" : ""}: exit ${r.code}\n${r.stdout}${r.stderr}`);
      assert.match(r.stdout, /^Usage: cairn/, "the help is shown");
    }
  }
  const bare = await sb.raw(["hive", "--json"]);
  assert.equal(bare.code, 2);
  assert.equal(JSON.parse(bare.stdout).error.code, "INVALID_INPUT");
});
