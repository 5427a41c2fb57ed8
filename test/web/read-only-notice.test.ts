// `cairn ui` over a project database this user cannot write: every page says so before anyone tries to save, naming the file and the way out.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { BIN, sandbox } from "../helpers/cli.js";
import { canDropPrivileges } from "../helpers/privileges.js";

test("a read-only project database: the review, lessons, dashboard and advisories pages say saving will not work, and why, before a click", { skip: canDropPrivileges() ? false : "needs root and setpriv to run cairn ui as nobody", timeout: 180_000 }, async () => {
  const sb = sandbox();
  const p = sb.project("shop");
  const added = await sb.run(p, "add", "Pin the node version in .nvmrc so CI and laptops build with the same runtime.", "--category", "tooling");
  assert.equal(added.code, 0, added.stderr);
  const swarm = path.join(p, ".swarm");
  const db = path.join(swarm, "cairn.db");
  // Everything belongs to nobody but the project's .swarm folder and database, which stay root's: nobody can read them, not write.
  execFileSync("chown", ["-R", "nobody:nogroup", sb.root]);
  execFileSync("chown", ["-R", "root:root", swarm]);
  fs.chmodSync(swarm, 0o755);
  fs.chmodSync(db, 0o644);
  const child = spawn("setpriv", ["--reuid=nobody", "--regid=nogroup", "--clear-groups", process.execPath, BIN, "--project", p, "ui", "--port", "0"], { env: sb.env, cwd: sb.root, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => (out += d));
  child.stderr.setEncoding("utf8").on("data", (d: string) => (out += d));
  try {
    const login = await new Promise<string>((resolve, reject) => {
      const timer = setInterval(() => {
        const m = /Sign in: (http:\/\/\S+)/.exec(out);
        if (m) {
          clearInterval(timer);
          resolve(m[1]!);
        }
      }, 50);
      child.once("exit", (code) => {
        clearInterval(timer);
        reject(new Error(`cairn ui exited ${code}:\n${out}`));
      });
    });
    const signed = await fetch(login, { redirect: "manual" });
    const cookie = (signed.headers.get("set-cookie") ?? "").split(";")[0]!;
    const base = new URL(login).origin;
    for (const where of ["/review", "/lessons", "/dashboard", "/advisories"]) {
      const html = await (await fetch(`${base}${where}`, { headers: { cookie } })).text();
      const notices = [...html.matchAll(/<p class="flash[^"]*" role="(?:alert|status)">([^<]*)<\/p>/g)].map((m) => m[1]!).join("\n");
      assert.match(notices, /read-only/, `${where}: the page says the database is read-only:\n${html.slice(0, 1500)}`);
      assert.ok(notices.includes(db), `${where}: naming the file: ${notices}`);
      assert.match(notices, /not be saved/, `${where}: and that saving will not work: ${notices}`);
      assert.match(notices, /chmod u\+w|its owner/, `${where}: and the way out: ${notices}`);
    }
  } finally {
    child.kill("SIGTERM");
    await new Promise((r) => (child.exitCode !== null ? r(undefined) : child.once("exit", r)));
    sb.cleanup();
  }
});
