// A usage error (unknown command, a group without its subcommand, a missing argument, an unknown flag) is one line on stderr naming where help is; one JSON value under --json.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { sandbox } from "../helpers/cli.js";

const sb = sandbox();
after(() => sb.cleanup());

const CASES: Array<{ args: string[]; says: RegExp; help: string }> = [
  { args: ["hive"], says: /subcommand of cairn hive is required \(.*push.*\)/, help: "cairn hive --help" },
  { args: ["hive", "bogus"], says: /unknown command 'bogus'/, help: "cairn hive --help" },
  { args: ["recal", "x"], says: /unknown command 'recal' \(Did you mean recall\?\)/, help: "cairn --help" },
  { args: ["show"], says: /missing required argument 'id'/, help: "cairn show --help" },
  { args: ["list", "--bogus"], says: /unknown option '--bogus'/, help: "cairn list --help" },
  { args: ["hive", "pull"], says: /required option '--to <file>' not specified/, help: "cairn hive pull --help" },
];

test("each usage error is exactly one line on stderr, exit 2, saying what is wrong and which --help to read", async () => {
  const p = sb.project("usage");
  for (const c of CASES) {
    const r = await sb.run(p, ...c.args);
    assert.equal(r.code, 2, `${c.args.join(" ")}: ${r.stderr}`);
    assert.equal(r.stdout, "", `${c.args.join(" ")}: nothing on stdout`);
    const lines = r.stderr.trimEnd().split("\n");
    assert.equal(lines.length, 1, `${c.args.join(" ")}: one line, got:\n${r.stderr}`);
    assert.match(lines[0]!, /^error: /);
    assert.match(lines[0]!, c.says);
    assert.ok(lines[0]!.includes(c.help), `${c.args.join(" ")}: points at ${c.help}: ${lines[0]}`);
    const j = await sb.json(p, ...c.args);
    assert.equal(j.code, 2);
    assert.equal(j.body.error.code, "INVALID_INPUT");
    assert.equal(j.stderr, "", `${c.args.join(" ")} --json: nothing on stderr`);
  }
});
