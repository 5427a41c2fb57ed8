// An error about a huge argument (a pasted path, a runaway shell variable) stays one readable line: the argument is shortened, not echoed whole.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { sandbox } from "../helpers/cli.js";

const sb = sandbox();
after(() => sb.cleanup());

test("a 5,000-character --project, a 100,000-character --config or --limit: the error is one short line naming the start of what was given", async () => {
  const p = sb.project("long");
  const cases: Array<{ args: string[]; says: RegExp; starts: string }> = [
    { args: ["--project", path.join(sb.root, "z".repeat(5_000)), "list"], says: /does not exist/, starts: path.join(sb.root, "zzzz") },
    { args: ["--project", p, "--config", path.join(sb.root, "c".repeat(100_000)), "list"], says: /Cannot read config file/, starts: path.join(sb.root, "cccc") },
    { args: ["--project", p, "list", "--limit", "9".repeat(100_000)], says: /--limit is too large: at most \d+/, starts: "9999" },
  ];
  for (const c of cases) {
    const r = await sb.raw(c.args);
    assert.equal(r.code, 2, r.stderr.slice(0, 300));
    const lines = r.stderr.trimEnd().split("\n");
    assert.equal(lines.length, 1, r.stderr.slice(0, 300));
    assert.match(lines[0]!, c.says);
    assert.ok(lines[0]!.includes(c.starts), lines[0]!.slice(0, 300));
    assert.ok(lines[0]!.length < 1000, `${c.args[c.args.length - 2]}: ${lines[0]!.length} characters`);
    const j = await sb.raw([...c.args, "--json"]);
    const message = (JSON.parse(j.stdout) as { error: { message: string } }).error.message;
    assert.ok(message.length < 1000, `--json: ${message.length} characters`);
  }
});
