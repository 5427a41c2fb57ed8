// The web UI's guards, in process through the real Hono app and engine: sign-in, sessions, CSRF, origins, redirects, escaping, headers, binding, lazy loading.
import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { EntrySchema } from "../../src/core/entry.js";
import { newEntryId } from "../../src/core/ids.js";
import { openCairn, type Cairn } from "../../src/index.js";
import { createUiApp } from "../../src/faces/web/app.js";
import { runUiServer } from "../../src/faces/web/server.js";
import { SqliteStore } from "../../src/store/sqlite-store.js";
import { loadedModules } from "../helpers/loaded-modules.js";
import { makeSandbox, removeSandbox, type Sandbox } from "../fixtures/workers/sandbox.js";

const TOKEN = "test-token-1234567890";
const HOST = "127.0.0.1:7392";
const ORIGIN = `http://${HOST}`;
const DRAFT = "Run prisma generate after editing prisma/schema.prisma or the generated client stays stale in CI builds.";

interface World {
  sb: Sandbox;
  cairn: Cairn;
  app: ReturnType<typeof createUiApp>["app"];
  draftId: string;
  close(): Promise<void>;
}

async function world(): Promise<World> {
  const sb = makeSandbox("web-project");
  const base = { projectDir: sb.projectDir, hivePath: sb.hivePath, env: sb.env, config: { governance: { require_approval: { swarm: true, hive: false } } } };
  const agent = await openCairn({ ...base, actor: "agent:coder" });
  const draftId = (await agent.add({ lesson: DRAFT, category: "tooling" })).id!;
  await agent.close();
  const cairn = await openCairn({ ...base, actor: "human:ui" });
  const { app } = createUiApp({ cairn, token: TOKEN, loopback: true, cookieName: "cairn_ui_test", defaultName: "alice" });
  return {
    sb, cairn, app, draftId,
    async close() {
      await cairn.close();
      removeSandbox(sb);
    },
  };
}

async function signIn(w: World): Promise<{ cookie: string; csrf: string }> {
  const r = await w.app.request(`/login?token=${TOKEN}`, { headers: { host: HOST } });
  assert.equal(r.status, 303);
  const set = r.headers.get("set-cookie") ?? "";
  assert.match(set, /HttpOnly/i);
  assert.match(set, /SameSite=Strict/i);
  const cookie = set.split(";")[0]!;
  const html = await (await w.app.request("/review", { headers: { host: HOST, cookie } })).text();
  const csrf = /name="csrf-token" content="([^"]+)"/.exec(html)![1]!;
  return { cookie, csrf };
}

const post = (w: World, url: string, headers: Record<string, string>, fields: Record<string, string>) =>
  w.app.request(url, { method: "POST", headers: { host: HOST, "content-type": "application/x-www-form-urlencoded", ...headers }, body: new URLSearchParams(fields).toString() });

test("sign-in: the token link opens a session; a wrong token, no token or a made-up cookie does not", async () => {
  const w = await world();
  try {
    assert.equal((await w.app.request("/review", { headers: { host: HOST } })).status, 303, "no session: to sign-in");
    const wrong = await w.app.request("/login?token=nope", { headers: { host: HOST } });
    assert.equal(wrong.status, 401);
    assert.equal(wrong.headers.get("set-cookie"), null);
    const badPost = await post(w, "/login", { origin: ORIGIN }, { token: "nope", name: "mallory" });
    assert.equal(badPost.status, 401);
    const forged = await w.app.request("/review", { headers: { host: HOST, cookie: "cairn_ui_test=forged" } });
    assert.equal(forged.status, 303, "an unknown session id is no session");
    const form = await post(w, "/login", { origin: ORIGIN }, { token: TOKEN, name: "bob", next: "/dashboard" });
    assert.equal(form.status, 303);
    assert.equal(form.headers.get("location"), "/dashboard");
    const cookie = (form.headers.get("set-cookie") ?? "").split(";")[0]!;
    assert.match(await (await w.app.request("/review", { headers: { host: HOST, cookie } })).text(), /human:bob/, "the name typed at sign-in");
    const csrf = /name="csrf-token" content="([^"]+)"/.exec(await (await w.app.request("/review", { headers: { host: HOST, cookie } })).text())![1]!;
    const signedOut = await post(w, "/logout", { cookie, origin: ORIGIN, "x-csrf-token": csrf }, {});
    assert.equal(signedOut.status, 303);
    assert.equal((await w.app.request("/review", { headers: { host: HOST, cookie } })).status, 303, "signed out: the cookie is dead");
  } finally {
    await w.close();
  }
});

test("a write needs the session, its CSRF token and this very origin; every refusal leaves the draft a draft", async () => {
  const w = await world();
  try {
    const { cookie, csrf } = await signIn(w);
    const url = `/lessons/${w.draftId}/approve`;
    const attempts: Array<[string, Record<string, string>, Record<string, string>, number]> = [
      ["no session", { origin: ORIGIN }, { _csrf: csrf }, 401],
      ["no CSRF token", { cookie, origin: ORIGIN }, {}, 403],
      ["another session's CSRF token", { cookie, origin: ORIGIN }, { _csrf: "x".repeat(32) }, 403],
      ["a foreign origin", { cookie, origin: "http://evil.example" }, { _csrf: csrf }, 403],
      ["another local port", { cookie, origin: "http://127.0.0.1:9999" }, { _csrf: csrf }, 403],
      ["Origin: null (sandboxed frame)", { cookie, origin: "null" }, { _csrf: csrf }, 403],
      ["a foreign Referer and no Origin", { cookie, referer: "http://evil.example/page" }, { _csrf: csrf }, 403],
      ["a rebinding Host", { cookie, origin: ORIGIN, host: "evil.example" }, { _csrf: csrf }, 403],
    ];
    for (const [why, headers, fields, status] of attempts) {
      assert.equal((await post(w, url, headers, fields)).status, status, why);
      assert.equal((await w.cairn.get(w.draftId)).lifecycle.status, "draft", `${why}: nothing changed`);
    }
    const ok = await post(w, url, { cookie, origin: ORIGIN }, { _csrf: csrf, back: "/review" });
    assert.equal(ok.status, 303, "the same request done right goes through");
    const e = await w.cairn.get(w.draftId);
    assert.equal(e.lifecycle.status, "established");
    assert.equal(e.provenance.approved_by, "human:alice");
  } finally {
    await w.close();
  }
});

test("back= only ever leads to a page of this site", async () => {
  const w = await world();
  try {
    const { cookie, csrf } = await signIn(w);
    for (const back of ["https://evil.example/", "//evil.example/x", "/\\evil.example", "javascript:alert(1)"]) {
      const r = await post(w, `/lessons/${w.draftId}/reject`, { cookie, origin: ORIGIN }, { _csrf: csrf, back });
      assert.equal(r.headers.get("location"), "/review", `${back} is replaced`);
    }
    const login = await w.app.request(`/login?token=${TOKEN}&next=${encodeURIComponent("//evil.example")}`, { headers: { host: HOST } });
    assert.equal(login.headers.get("location"), "/review");
  } finally {
    await w.close();
  }
});

test("hostile lesson fields come out escaped in every page's HTML", async () => {
  const w = await world();
  try {
    const store = new SqliteStore(path.join(w.sb.projectDir, ".swarm", "cairn.db"), "swarm");
    const at = new Date().toISOString();
    const hostile = await store.insertEntry(
      EntrySchema.parse({
        id: newEntryId(), handle: "", tier: "swarm", category: "security", kind: "learning", created_at: at, updated_at: at,
        lesson: `x <script>alert("lesson")</script> <a href="javascript:alert(1)">y</a>`, title: `<img src=x onerror=alert(1)>`,
        prevention: { rule: `"><svg onload=alert(1)>`, detection_pattern: "</textarea><script>alert(2)</script>" },
        applicability: { file_globs: ["javascript:alert(3)"] }, lifecycle: { status: "draft" },
      }),
      { type: "created", actor: `agent:"><script>alert(4)</script>` },
    );
    await store.close();
    const { cookie } = await signIn(w);
    for (const url of [`/lessons/${hostile.id}`, `/lessons/${hostile.id}/edit`, `/review?sel=${hostile.id}`, "/lessons?q=alert", "/lessons"]) {
      const html = await (await w.app.request(url, { headers: { host: HOST, cookie } })).text();
      assert.doesNotMatch(html, /<script>alert|<img src=x|<svg onload|<\/textarea><script/, `${url}: no raw markup from the lesson`);
      assert.doesNotMatch(html, /href="javascript:/, `${url}: no javascript: link`);
      if (url.startsWith("/lessons/")) assert.match(html, /&lt;script&gt;alert/, `${url}: shown as text`);
    }
  } finally {
    await w.close();
  }
});

test("every response carries a CSP with no inline script, nosniff, no framing, and no caching of pages", async () => {
  const w = await world();
  try {
    const { cookie } = await signIn(w);
    for (const url of ["/login", "/review", "/dashboard", "/nope"]) {
      const r = await w.app.request(url, { headers: { host: HOST, cookie } });
      const csp = r.headers.get("content-security-policy") ?? "";
      assert.match(csp, /script-src 'self'(;|$)/, url);
      assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/, url);
      assert.match(csp, /frame-ancestors 'none'/, url);
      assert.equal(r.headers.get("x-content-type-options"), "nosniff");
      assert.equal(r.headers.get("cache-control"), "no-store");
    }
    const html = await (await w.app.request("/review", { headers: { host: HOST, cookie } })).text();
    assert.doesNotMatch(html, /<script(?![^>]*\bsrc=)[^>]*>/, "no inline script tag at all");
    assert.match(html, /^<!DOCTYPE html>/);
  } finally {
    await w.close();
  }
});

test("--host 0.0.0.0 is refused without a configured token, before anything listens", async () => {
  const sb = makeSandbox();
  try {
    await assert.rejects(runUiServer({ projectDir: sb.projectDir, hivePath: sb.hivePath, env: sb.env, host: "0.0.0.0", port: 0, print: () => {} }), {
      code: "INVALID_CONFIG",
      message: /CAIRN_UI_TOKEN/,
    });
    // A configured token is accepted: started on loopback here (tests send no traffic off this machine).
    const ui = await runUiServer({ projectDir: sb.projectDir, hivePath: sb.hivePath, env: { ...sb.env, CAIRN_UI_TOKEN: TOKEN }, port: 0, print: () => {} });
    try {
      const r = await fetch(`${ui.url}/login?token=${TOKEN}`, { redirect: "manual" });
      assert.equal(r.status, 303, "the configured token signs in");
      assert.ok(!ui.loginUrl.includes("random"), "no random token is made when one is configured");
    } finally {
      await ui.close();
    }
  } finally {
    removeSandbox(sb);
  }
});

test("other commands never load the web server: `ui` imports it only when it runs", async () => {
  const sb = makeSandbox();
  try {
    const loaded = await loadedModules(["--version"], { cwd: sb.root, env: sb.env });
    assert.ok(loaded.includes("src/faces/web/command.ts"), `the tracer sees the CLI's modules: ${loaded.join(", ")}`);
    const web = loaded.filter((m) => /^src\/faces\/web\/(?!command\.ts)/.test(m) || /^node_modules\/hono\//.test(m));
    assert.deepEqual(web, [], "no web server, pages or JSX runtime for `cairn --version`");
  } finally {
    removeSandbox(sb);
  }
});
