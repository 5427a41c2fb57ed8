// `cairn review` in a real terminal: a save over a change someone made while the editor was open is refused, and theirs is kept.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { BIN, REPO, sandbox } from "../helpers/cli.js";

const has = (cmd: string) => spawnSync("sh", ["-c", `command -v ${cmd}`]).status === 0;
const TMUX = has("tmux");
const SCRIPT = has("script");

const sb = sandbox();
after(() => sb.cleanup());

const LESSON = "Run the database migrations inside one transaction so a failed step leaves the schema unchanged.";

/** A terminal the test types into and reads the screen (or, under `script`, the output) of. */
interface Terminal {
  screen(): string;
  keys(...keys: Array<"Down" | "Enter" | "C-c">): void;
  close(): void;
}

/** tmux on a socket of its own, so the test never meets (or kills) anyone else's sessions. */
function tmuxTerminal(command: string): Terminal {
  const socket = `cairn-review-test-${process.pid}`;
  const tmux = (...args: string[]) => execFileSync("tmux", ["-L", socket, ...args], { encoding: "utf8" });
  tmux("new-session", "-d", "-s", "review", "-x", "200", "-y", "60", command);
  return {
    screen: () => tmux("capture-pane", "-p", "-J", "-S", "-200", "-t", "review"),
    keys: (...keys) => void tmux("send-keys", "-t", "review", ...keys),
    close: () => void spawnSync("tmux", ["-L", socket, "kill-server"]),
  };
}

/** util-linux `script` gives the command a pseudo-terminal and passes our stdin to it as typed keys. */
function scriptTerminal(command: string): Terminal {
  const child: ChildProcess = spawn("script", ["-qfec", command, "/dev/null"], { stdio: ["pipe", "pipe", "pipe"] });
  let out = "";
  child.stdout!.on("data", (d: Buffer) => (out += d.toString("utf8")));
  const codes = { Down: "\x1b[B", Enter: "\r", "C-c": "\x03" } as const;
  return {
    screen: () => out,
    keys: (...keys) => void child.stdin!.write(keys.map((k) => codes[k]).join("")),
    close: () => void child.kill(),
  };
}

async function waitFor(term: Terminal, pattern: RegExp, what: string, ms = 60_000): Promise<string> {
  const until = Date.now() + ms;
  for (;;) {
    const screen = term.screen();
    if (pattern.test(screen)) return screen;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}; the terminal shows:\n${screen}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

test(
  "review: saving an edit over a change made after the review began is refused with a message; the other change is kept",
  { skip: !TMUX && !SCRIPT ? "needs a terminal to drive `cairn review`, and neither tmux nor script(1) is installed" : false, timeout: 180_000 },
  async () => {
    const p = sb.project("review");
    fs.mkdirSync(path.join(p, ".swarm"), { recursive: true });
    fs.writeFileSync(path.join(p, ".swarm", "cairn.json"), JSON.stringify({ governance: { require_approval: { swarm: true } } }));
    // An agent's lesson waits for a person under require_approval: the draft the review walks.
    const added = await sb.json(p, "--actor", "agent:coder", "add", LESSON, "--category", "architecture");
    assert.equal(added.body.status, "draft", JSON.stringify(added.body));
    const handle: string = added.body.handle;

    // The "editor": while it is open, someone else changes the draft (another process, the engine's
    // own edit, as the web page would); then the reviewer's own change is saved in the file.
    const editor = path.join(sb.root, "editor.mjs");
    fs.writeFileSync(
      editor,
      `import fs from "node:fs";
const { openCairn } = await import(${JSON.stringify(path.join(REPO, "dist", "index.js"))});
const c = await openCairn({ projectDir: ${JSON.stringify(p)}, actor: "human:bob" });
await c.edit(${JSON.stringify(handle)}, { tags: ["changed-meanwhile"] }, "human:bob", "web");
await c.close();
const file = process.argv[2];
fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace("inside one transaction", "inside a single transaction"));
`,
    );
    const run = path.join(sb.root, "review.sh");
    const env = { ...sb.env, EDITOR: `${process.execPath} ${editor}`, VISUAL: "", TERM: "xterm-256color", COLUMNS: "200" };
    const exports = Object.entries(env)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `export ${k}='${String(v).replace(/'/g, `'\\''`)}'`)
      .join("\n");
    // The exit line tells the test the command is done; the sleep keeps the tmux pane readable after it.
    fs.writeFileSync(run, `${exports}\ncd '${sb.root}'\n'${process.execPath}' '${BIN}' --project '${p}' review\necho "REVIEW-EXIT=$?"\nsleep 30\n`);
    const term = TMUX ? tmuxTerminal(`sh '${run}'`) : scriptTerminal(`sh '${run}'`);
    try {
      await waitFor(term, /what now\?/, "the review prompt");
      term.keys("Down");
      await waitFor(term, /❯ edit in \$EDITOR|> edit in \$EDITOR/, "the cursor on 'edit in $EDITOR'");
      term.keys("Enter");
      const conflict = await waitFor(term, /changed by someone else/, "the edit-conflict message");
      assert.match(conflict.replace(/\s+/g, " "), new RegExp(`${handle} was changed by someone else .*nothing was saved`));
      // Back at the prompt for the same draft: the reviewer can look again; stop here.
      term.keys("C-c");
      const end = await waitFor(term, /REVIEW-EXIT=\d+/, "review to exit");
      assert.match(end, /REVIEW-EXIT=0/);
      assert.match(end, /reviewed 1 draft\(s\): approved 0, rejected 0, edited 0, skipped 0/);
    } finally {
      term.close();
    }
    const shown = await sb.json(p, "show", handle);
    const entry = shown.body.entry;
    assert.ok(entry.tags.includes("changed-meanwhile"), `the other person's change is kept: ${JSON.stringify(entry.tags)}`);
    assert.match(entry.lesson, /inside one transaction/, "the reviewer's save over it was not applied");
    assert.equal(entry.lifecycle.status, "draft");
  },
);
