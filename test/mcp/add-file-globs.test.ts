// A lesson's file_globs are matched against paths relative to the project: one that is absolute or climbs out with .. is refused naming the glob, on MCP and the CLI.
import assert from "node:assert/strict";
import { after, test } from "node:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { sandbox } from "../helpers/cli.js";
import { mcpSandbox, textOf } from "../helpers/mcp-stdio.js";

const mcp = mcpSandbox("globs");
const sb = sandbox();
let client: Client | undefined;
after(() => sb.cleanup());

const LESSON = "Check the session token for null before reading its claims in the auth module; a missing token crashed the login page.";

/** Globs that name no file of the project: a climb out, a machine's absolute path, a drive, a share, a home folder. */
const OUTSIDE = ["../../etc/**", "src/../../secrets/*", "/etc/passwd", "C:\\Windows\\**", "c:/Users/me/**", "~/.ssh/*", "//server/share/**", "\\\\server\\share\\*", "/home/me/project/src/**", "/Users/me/app/**"];

async function add(args: Record<string, unknown>): Promise<string> {
  client ??= await mcp.connect(mcp.project());
  return textOf((await client.callTool({ name: "knowledge_add", arguments: args })) as CallToolResult);
}

test("knowledge_add refuses a file glob outside the project, naming it; project globs (anchored, folder, anywhere) are stored", async () => {
  for (const glob of OUTSIDE) {
    const text = await add({ lesson: LESSON, file_globs: ["src/auth/**", glob] });
    assert.match(text, /^rejected: /, `${glob} was stored: ${text}`);
    assert.ok(text.includes(JSON.stringify(glob).slice(1, -1)) || text.includes(glob), `the message names ${glob}: ${text}`);
    assert.match(text, /relative to the project/);
  }
  // .gitignore's leading slash anchors at the project root, and a project may have its own etc/ folder.
  const ok = await add({ lesson: LESSON, file_globs: ["/src/auth/**", "src/billing/", "*.config.ts", "etc/nginx/**", "./scripts/*.sh", "src/..hidden/*", "**/~backup.txt"] });
  assert.match(ok, /^added S-\d+/, ok);
});

test("cairn add --files refuses the same globs, naming each, and stores nothing", async () => {
  const p = sb.project("cli-globs");
  for (const glob of ["../../etc/**", "/etc/passwd", "~/.ssh/*", "C:\\Windows\\**"]) {
    const r = await sb.json(p, "add", LESSON, "--files", glob);
    assert.equal(r.body.action, "rejected", `${glob}: ${r.stdout}`);
    assert.ok(String(r.body.reason).includes(glob), r.body.reason);
  }
  const listed = await sb.json(p, "list");
  assert.equal(listed.body.length ?? listed.body.entries?.length, 0);
});
