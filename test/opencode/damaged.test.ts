// A damaged project database inside OpenCode: the turn goes on, and the person is told where they look (/swarm, the plugin log).
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { openCairn } from "../../src/engine.js";
import { loadPlugin, newProject, readLog, textOf, userMessage } from "./helpers.js";

const LESSON = "In src/auth/middleware.ts check the session token for null before reading its claims; a missing token crashed /login.";

/** A project whose .swarm/cairn.db held a lesson and is now overwritten with bytes SQLite cannot read. */
async function damagedProject(): Promise<{ dir: string; db: string }> {
  const dir = newProject("damaged");
  const c = await openCairn({ projectDir: dir, actor: "human:test" });
  assert.equal((await c.add({ lesson: LESSON, category: "security" })).action, "added");
  await c.close();
  const db = path.join(dir, ".swarm", "cairn.db");
  for (const s of ["", "-wal", "-shm"]) fs.rmSync(db + s, { force: true });
  fs.writeFileSync(db, Buffer.alloc(64 * 1024, 0x5a));
  return { dir, db };
}

test("a damaged project database: the turn goes on without a block, and /swarm status, /swarm knowledge and the plugin log name the file and `cairn doctor`", async () => {
  const { dir, db } = await damagedProject();
  const p = await loadPlugin({ orchestrators: ["build"] }, dir);
  try {
    await p.hook("config")({});
    const m = [userMessage("msg_1", "build", "fix the session token null check in src/auth/middleware.ts")];
    await p.hook("experimental.chat.messages.transform")({}, { messages: m });
    assert.ok(!/damaged|cairn doctor/.test(textOf(m[0]!)), "nothing about it in the conversation's turn");

    const answer = async (args: string) => {
      const out = { parts: [{ type: "text", text: "template" }] as never[] };
      await p.hook("command.execute.before")({ command: "swarm", sessionID: "ses_1", arguments: args }, out);
      return (out.parts[0] as unknown as { text: string }).text;
    };
    const status = await answer("status");
    assert.ok(status.includes(db) && /damaged/.test(status) && /cairn doctor/.test(status), status);
    const list = await answer("knowledge");
    assert.doesNotMatch(list, /No lessons recorded yet/, "the lessons are in the damaged file, not absent");
    assert.ok(list.includes(db) && /damaged/.test(list), list);
    assert.ok(readLog(dir).includes(db), `plugin log: ${readLog(dir)}`);
    // The damaged file is left as it was.
    assert.equal(fs.readFileSync(db).every((b) => b === 0x5a), true);
  } finally {
    await p.close();
  }
});
