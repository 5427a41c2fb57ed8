// A project's name as the CLI shows it and the hive passes it to teammates: a folder name's terminal escapes and hidden characters never travel.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { sandbox } from "../helpers/cli.js";

// ESC ] 0 ; … BEL sets a terminal's title, ESC [ 31 m turns it red, U+202E reverses the text after it: all legal in a folder name.
const HOSTILE = "shop\u001b]0;pwned\u0007\u001b[31mred\u202e";
const HIDDEN = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

test("a project folder named with terminal escapes and a BiDi override: its name is shown and shared without them", async () => {
  const sb = sandbox();
  try {
    const p = path.join(sb.root, "projects", HOSTILE);
    fs.mkdirSync(p, { recursive: true });
    const init = await sb.run(p, "init");
    assert.equal(init.code, 0, init.stderr);
    const projectLine = init.stdout.split("\n").find((l) => /^project\b/i.test(l)) ?? "";
    assert.match(projectLine, /shop/, init.stdout);
    assert.doesNotMatch(projectLine, HIDDEN, `the project line reaches the terminal clean: ${JSON.stringify(projectLine)}`);
    // The paths under it too, in init's answer and doctor's report.
    for (const line of init.stdout.split("\n")) assert.doesNotMatch(line, HIDDEN, `init's answer reaches the terminal clean: ${JSON.stringify(line)}`);
    const doctor = await sb.run(p, "doctor");
    for (const line of doctor.stdout.split("\n")) assert.doesNotMatch(line, HIDDEN, `doctor's report reaches the terminal clean: ${JSON.stringify(line)}`);
    const promoted = await sb.json(p, "promote", "Run terraform plan with -lock-timeout=5m in CI so a held Terraform state lock waits instead of failing the job.");
    assert.equal(promoted.code, 0, promoted.stderr);
    // A teammate reads it from the hive.
    const other = sb.project("teammate");
    const shown = await sb.json(other, "show", promoted.body.handle);
    const source = shown.body.entry.provenance.source_project_name as string;
    assert.match(source, /shop/);
    assert.doesNotMatch(source, HIDDEN, `the hive carries the name clean: ${JSON.stringify(source)}`);
  } finally {
    sb.cleanup();
  }
});

test("a project folder named over 200 characters: lessons can be added, under a shortened name that stays the same", async () => {
  const sb = sandbox();
  try {
    const long = "payments-service-" + "x".repeat(220);
    const p = path.join(sb.root, "projects", long);
    fs.mkdirSync(p, { recursive: true });
    const added = await sb.json(p, "add", "Run prisma migrate deploy before starting the api container; the app crashes on a missing column.");
    assert.equal(added.code, 0, added.stdout + added.stderr);
    assert.equal(added.body.action, "added", added.stdout);
    const shown = await sb.json(p, "show", added.body.handle);
    const name = shown.body.entry.provenance.source_project_name as string;
    assert.ok(name.length <= 200, `${name.length} characters`);
    assert.ok(name.startsWith("payments-service-"), name);
    // A second run names the project the same (the hive groups a project's lessons by it).
    const again = await sb.json(p, "add", "Set statement_timeout on every postgres connection pool so a runaway query cannot hold locks forever.");
    assert.equal(again.code, 0, again.stdout + again.stderr);
    const second = await sb.json(p, "show", again.body.handle);
    assert.equal(second.body.entry.provenance.source_project_name, name);
    // Another long folder with the same first 200 characters gets a different name.
    const other = path.join(sb.root, "projects", long.slice(0, -1) + "y");
    fs.mkdirSync(other, { recursive: true });
    const third = await sb.json(other, "add", "Pin the node version in the CI workflow file so builds are reproducible across runners.");
    assert.equal(third.code, 0, third.stdout + third.stderr);
    const otherName = (await sb.json(other, "show", third.body.handle)).body.entry.provenance.source_project_name as string;
    assert.ok(otherName.length <= 200 && otherName !== name, `${name} / ${otherName}`);
  } finally {
    sb.cleanup();
  }
});
