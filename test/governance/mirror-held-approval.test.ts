// `cairn mirror --pull` approves only what the person running it confirms: an approval written into a mirror file (by anyone who can write files) is held, not applied as a side effect.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { sandbox } from "../helpers/cli.js";

const sb = sandbox();
after(() => sb.cleanup());

const CONFIG = { governance: { require_approval: { swarm: true, hive: true }, mirror: { enabled: true } } };
const LESSONS = [
  "Check the session token for null before reading its claims in src/auth/middleware.ts; a missing token crashed /login.",
  "Run prisma generate after editing schema.prisma in packages/db, or the API build uses a stale client.",
  "The billing worker must read STRIPE_WEBHOOK_TOLERANCE from config; the hard-coded 300s broke replays.",
  "Pin the node-gyp version in the CI image; a floating version broke the native sqlite build twice in March.",
];

function project(name: string): string {
  const dir = sb.project(name);
  fs.mkdirSync(path.join(dir, ".swarm"), { recursive: true });
  fs.writeFileSync(path.join(dir, ".swarm", "cairn.json"), JSON.stringify(CONFIG));
  return dir;
}

/** The mirror file of a lesson, wherever it sits. */
function fileFor(p: string, handle: string): string {
  const root = path.join(p, ".swarm", "knowledge");
  for (const folder of fs.readdirSync(root)) {
    for (const name of fs.readdirSync(path.join(root, folder))) if (name.startsWith(`${handle}-`)) return path.join(root, folder, name);
  }
  throw new Error(`no mirror file for ${handle}`);
}

const status = async (p: string, handle: string) => (await sb.json(p, "show", handle)).body.entry as { lifecycle: { status: string }; provenance: { approved_by?: string }; tags: string[] };

test("an agent's draft set to `status: approved` (or moved into approved/) in the mirror is held at the person's pull, not approved as them; the rest of the pull applies; --approve applies it", async () => {
  const p = project("held");
  const agent = ["--actor", "agent:x"];
  const [a, b, c, d] = await Promise.all(LESSONS.map(async (l) => (await sb.json(p, ...agent, "add", l)).body as { handle: string; status: string }));
  for (const x of [a, b, c, d]) assert.equal(x!.status, "draft");
  // The person's own lesson, approved by them, which they then edit in the mirror.
  assert.equal((await sb.run(p, "--actor", "human:alice", "approve", d!.handle)).code, 0);

  // The agent approves its own drafts through the files: A by front matter, B by a move into approved/.
  const aFile = fileFor(p, a!.handle);
  const aEdited = fs.readFileSync(aFile, "utf8").replace("status: draft", "status: approved");
  fs.writeFileSync(aFile, aEdited);
  const bFile = fileFor(p, b!.handle);
  const bMoved = path.join(p, ".swarm", "knowledge", "approved", path.basename(bFile));
  fs.mkdirSync(path.dirname(bMoved), { recursive: true });
  fs.renameSync(bFile, bMoved);
  // The person's own edits: C moved into archived/ (reject), a tag added to D.
  const cFile = fileFor(p, c!.handle);
  fs.mkdirSync(path.join(p, ".swarm", "knowledge", "archived"), { recursive: true });
  fs.renameSync(cFile, path.join(p, ".swarm", "knowledge", "archived", path.basename(cFile)));
  const dFile = fileFor(p, d!.handle);
  fs.writeFileSync(dFile, fs.readFileSync(dFile, "utf8").replace("tags: []", "tags: [auth]"));

  const pulled = await sb.run(p, "--actor", "human:alice", "mirror", "--pull");
  assert.equal((await status(p, a!.handle)).lifecycle.status, "draft", "the agent's front-matter approval was not applied");
  assert.equal((await status(p, b!.handle)).lifecycle.status, "draft", "the agent's move into approved/ was not applied");
  assert.equal(pulled.code, 4, pulled.stdout + pulled.stderr);
  const said = pulled.stdout + pulled.stderr;
  for (const x of [a!, b!]) {
    assert.match(said, new RegExp(`held ${x.handle} \\(\\S*${x.handle}-\\S*\\.md\\).*\`cairn mirror --pull --approve ${x.handle}\``), said);
  }
  assert.equal((await status(p, c!.handle)).lifecycle.status, "archived", "the reject was applied");
  assert.deepEqual((await status(p, d!.handle)).tags, ["auth"], "the field edit was applied");
  assert.equal(fs.readFileSync(aFile, "utf8"), aEdited, "the held file stays as it is");
  assert.ok(fs.existsSync(bMoved), "the moved file stays where it was put");

  // A rebuild keeps the held files as unpulled changes.
  assert.equal((await sb.run(p, "mirror")).code, 0);
  assert.equal(fs.readFileSync(aFile, "utf8"), aEdited);
  assert.ok(fs.existsSync(bMoved));

  // --json lists them in a field of their own.
  const json = await sb.json(p, "--actor", "human:alice", "mirror", "--pull");
  assert.equal(json.code, 4);
  assert.deepEqual(json.body.held.map((h: { handle: string }) => h.handle).sort(), [a!.handle, b!.handle].sort());
  assert.deepEqual(json.body.applied, []);

  // The person confirms one by name, then the rest.
  const one = await sb.json(p, "--actor", "human:alice", "mirror", "--pull", "--approve", b!.handle);
  assert.equal(one.code, 4, one.stderr);
  assert.deepEqual(one.body.held.map((h: { handle: string }) => h.handle), [a!.handle]);
  const bNow = await status(p, b!.handle);
  assert.equal(bNow.lifecycle.status, "established");
  assert.equal(bNow.provenance.approved_by, "human:alice");
  assert.equal((await status(p, a!.handle)).lifecycle.status, "draft");
  const all = await sb.json(p, "--actor", "human:alice", "mirror", "--pull", "--approve");
  assert.equal(all.code, 0, all.stderr);
  assert.deepEqual(all.body.held, []);
  assert.equal((await status(p, a!.handle)).lifecycle.status, "established");
  assert.equal((await status(p, a!.handle)).provenance.approved_by, "human:alice");
});

// No total time limit a busy machine could hit: waitFor fails when the terminal shows nothing new for a minute.
test("in a terminal, `cairn mirror --pull` asks per approval found, default No: a yes approves as the person, Enter holds", { skip: !fs.existsSync("/usr/bin/script") && "needs util-linux script for a pty" }, async () => {
  const { spawn } = await import("node:child_process");
  const { BIN } = await import("../helpers/cli.js");
  const p = project("tty");
  // One after the other: the prompts come in file order, S-1 first.
  const a = (await sb.json(p, "--actor", "agent:x", "add", LESSONS[0]!)).body as { handle: string };
  const b = (await sb.json(p, "--actor", "agent:x", "add", LESSONS[1]!)).body as { handle: string };
  for (const x of [a!, b!]) {
    const f = fileFor(p, x.handle);
    fs.writeFileSync(f, fs.readFileSync(f, "utf8").replace("status: draft", "status: approved"));
  }
  const child = spawn("script", ["-qfec", `${process.execPath} ${BIN} --project ${p} --actor human:alice mirror --pull`, "/dev/null"], { env: { ...sb.env, TERM: "xterm" } });
  let out = "";
  child.stdout.on("data", (d: Buffer) => (out += d.toString()));
  const answer = async (prompt: RegExp, keys: string) => {
    const from = out.length;
    let [seen, lastProgress] = [out.length, Date.now()];
    while (!prompt.test(out.slice(Math.max(0, from - 2000)))) {
      if (out.length !== seen) [seen, lastProgress] = [out.length, Date.now()];
      if (Date.now() - lastProgress > 60_000) throw new Error(`no progress for 60 s waiting for ${prompt} in:\n${out}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    // Inquirer reads keys once its prompt is drawn; a short pause covers the raw-mode switch.
    await new Promise((r) => setTimeout(r, 300));
    child.stdin.write(keys);
  };
  const closed = new Promise<number | null>((r) => child.on("close", r));
  try {
    await answer(new RegExp(`Approve ${a!.handle} as human:alice\\?`), "y\r");
    await answer(new RegExp(`Approve ${b!.handle} as human:alice\\?`), "\r");
  } catch (e) {
    child.kill();
    throw e;
  }
  const code = await closed;
  assert.equal(code, 4, out);
  assert.match(out, new RegExp(`held ${b!.handle} `));
  const ea = (await sb.json(p, "show", a!.handle)).body.entry;
  assert.equal(ea.lifecycle.status, "established");
  assert.equal(ea.provenance.approved_by, "human:alice");
  assert.equal((await sb.json(p, "show", b!.handle)).body.entry.lifecycle.status, "draft");
});
