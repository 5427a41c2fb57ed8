// A command group (`cairn hive …`) given wrong or no subcommand: one JSON value with --json, and a pointer to the group's own help.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { sandbox } from "../helpers/cli.js";

const sb = sandbox();
after(() => sb.cleanup());

test("`cairn hive --json` with no subcommand: one JSON error naming hive's subcommands, and no help text on stderr", async () => {
  const p = sb.project("hive-group");
  const r = await sb.raw(["--project", p, "hive", "--json"], { cwd: p });
  assert.equal(r.code, 2, r.stdout);
  const body = JSON.parse(r.stdout);
  assert.equal(body.error.code, "INVALID_INPUT");
  assert.match(body.error.message, /cairn hive/);
  assert.match(body.error.message, /push, pull, status, sync/);
  assert.doesNotMatch(body.error.message, /recall/, "not the top-level example");
  assert.equal(r.stderr, "", "the JSON error is the whole answer");
});

test("a subcommand's usage error under --json is one JSON value with nothing on stderr, as a top-level command's is", async () => {
  const p = sb.project("hive-sub");
  for (const args of [["hive", "pull"], ["hive", "status", "--bogus"], ["hive", "bogus"]]) {
    const r = await sb.raw(["--project", p, ...args, "--json"], { cwd: p });
    assert.equal(r.code, 2, `${args.join(" ")}: ${r.stdout}`);
    assert.equal(JSON.parse(r.stdout).error.code, "INVALID_INPUT", args.join(" "));
    assert.equal(r.stderr, "", `${args.join(" ")}: ${r.stderr}`);
  }
  const top = await sb.raw(["--project", p, "show", "--json"], { cwd: p });
  assert.equal(top.stderr, "");
});

test("`cairn hive bogus` points at `cairn hive --help`, where hive's subcommands are listed", async () => {
  const p = sb.project("hive-typo");
  const r = await sb.raw(["--project", p, "hive", "bogus"], { cwd: p });
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /unknown command 'bogus'/);
  assert.match(r.stderr, /cairn hive --help/);
  const top = await sb.raw(["--project", p, "recal", "x"], { cwd: p });
  assert.match(top.stderr, /Did you mean recall\?/);
  assert.match(top.stderr, /Run `cairn --help`/);
});
