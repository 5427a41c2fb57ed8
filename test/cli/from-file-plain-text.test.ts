// `cairn add --from-file` given a plain-text lesson (as the README's `lesson.txt`): the error says how to add plain text, and that works.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { after, test } from "node:test";
import { BIN, sandbox } from "../helpers/cli.js";

const sb = sandbox();
after(() => sb.cleanup());

const LESSON = "Run prisma migrate deploy before starting the API container in CI";

test("a .txt file holding one sentence: the refusal names `cairn add - < file`, which adds it", async () => {
  const p = sb.project("txt");
  const file = path.join(p, "lesson.txt");
  fs.writeFileSync(file, `${LESSON}\n`);
  const r = await sb.json(p, "add", "--from-file", file);
  assert.equal(r.code, 2);
  assert.match(r.body.error.message, /cairn add - < /, r.body.error.message);

  const child = spawn(process.execPath, [BIN, "--project", p, "add", "-", "--json"], { cwd: p, env: sb.env, stdio: [fs.openSync(file, "r"), "pipe", "pipe"] });
  let out = "";
  child.stdout!.on("data", (d: Buffer) => (out += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  assert.equal(code, 0, out);
  assert.equal(JSON.parse(out).action, "added");
});
