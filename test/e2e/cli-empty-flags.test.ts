// An empty --hive, --project or --config given explicitly is refused (exit 2), not silently taken as the default.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { sandbox } from "../helpers/cli.js";

const sb = sandbox();
after(() => sb.cleanup());

test("`--hive \"\"`, `--project \"\"`, `--config \"\"` (and blank ones) are refused with what the flag needs, before anything is opened", async () => {
  const p = sb.project("empty-flags");
  const cases: Array<[string[], RegExp]> = [
    [["--hive", "", "list"], /--hive needs a path/],
    [["--hive", "  ", "list"], /--hive needs a path/],
    [["--project", "", "list"], /--project needs a path/],
    [["--config", "", "list"], /--config needs a path/],
    [["mcp", "--project", ""], /--project needs a path/],
  ];
  for (const [args, message] of cases) {
    const r = await sb.raw(args, { cwd: p, timeoutMs: 20_000 });
    assert.equal(r.code, 2, `${JSON.stringify(args)}: ${r.stdout}${r.stderr}`);
    assert.match(r.stderr, message, JSON.stringify(args));
  }
  const json = await sb.raw(["--json", "--hive", "", "list"], { cwd: p });
  assert.equal(json.code, 2);
  assert.match(JSON.parse(json.stdout).error.message, /--hive needs a path/);
});

test("the servers' `--host \"\"`, `--token \"\"` and `--name \"\"` (an unset shell variable) are refused, not served with no token or a blank interface", async () => {
  const p = sb.project("empty-server-flags");
  const cases: Array<[string[], RegExp]> = [
    [["mcp", "--http", "--port", "0", "--host", ""], /--host needs an interface/],
    [["mcp", "--http", "--port", "0", "--token", ""], /--token needs a secret/],
    [["mcp", "--http", "--port", "0", "--token", " "], /--token needs a secret/],
    [["ui", "--port", "0", "--host", ""], /--host needs an interface/],
    [["ui", "--port", "0", "--token", ""], /--token needs a secret/],
    [["ui", "--port", "0", "--name", ""], /--name needs a name/],
  ];
  for (const [args, message] of cases) {
    // Before, these started a server: the timeout ends it and the exit check fails.
    const r = await sb.raw(["--project", p, ...args], { cwd: p, timeoutMs: 20_000 });
    assert.equal(r.code, 2, `${JSON.stringify(args)}: ${r.stdout}${r.stderr}`);
    assert.match(r.stderr, message, JSON.stringify(args));
  }
});

test("an empty file for import/export, or an empty --status, is a usage error, not the project folder or every status", async () => {
  const p = sb.project("empty-args");
  const added = await sb.json(p, "add", "Run prisma migrate deploy before starting the api container; the app crashes on a missing column.");
  assert.equal(added.body.action, "added", added.stdout);
  const cases: Array<[string[], RegExp]> = [
    [["import", ""], /needs a file/],
    [["export", ""], /needs a file/],
    [["list", "--status", ""], /--status needs/],
    [["list", "--status", " , "], /--status needs/],
    [["recall", "prisma migrate", "--status", ""], /--status needs/],
  ];
  for (const [args, message] of cases) {
    const r = await sb.json(p, ...args);
    assert.equal(r.code, 2, `${JSON.stringify(args)}: ${r.stdout}`);
    assert.equal(r.body.error.code, "INVALID_INPUT", JSON.stringify(args));
    assert.match(r.body.error.message, message, JSON.stringify(args));
  }
});

test("an empty CAIRN_HIVE is taken as unset, as shells commonly mean it (the default hive is used)", async () => {
  const p = sb.project("empty-env");
  const r = await sb.raw(["list", "--json"], { cwd: p, env: { ...sb.env, CAIRN_HIVE: "" } });
  assert.equal(r.code, 0, r.stderr);
});

test("`cairn sweep --phase \"\"` (an unset shell variable) is refused, not run as an unnamed sweep that no repeat guard covers", async () => {
  const p = sb.project("empty-phase");
  const added = await sb.json(p, "add", "Run prisma migrate deploy before starting the api container; the app crashes on a missing column.");
  assert.equal(added.body.action, "added", added.stdout);
  for (const args of [["sweep", "--phase", ""], ["sweep", "--phase", "  ", "--promote"]]) {
    const r = await sb.run(p, ...args);
    assert.equal(r.code, 2, `${JSON.stringify(args)}: ${r.stdout}${r.stderr}`);
    assert.match(r.stderr, /--phase needs/, JSON.stringify(args));
  }
  const shown = await sb.json(p, "show", added.body.handle);
  assert.equal(shown.body.entry.lifecycle.phases_alive, 0, "nothing was aged");
});
