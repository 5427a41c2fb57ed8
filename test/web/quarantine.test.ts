// The lesson page's quarantine form, in process through the real Hono app and engine: the engine's quarantine as the signed-in person, behind the session and form-token checks, with the shared reason limit.
import { test } from "node:test";
import assert from "node:assert/strict";
import { openCairn } from "../../src/index.js";
import { createUiApp } from "../../src/faces/web/app.js";
import { makeSandbox, removeSandbox } from "../fixtures/workers/sandbox.js";

const TOKEN = "test-token-1234567890";
const HOST = "127.0.0.1:7392";
const LESSON = "The payments webhook handler must verify the Stripe signature header before parsing the JSON body.";

const decode = (html: string) => html.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");

test("the lesson page quarantines a lesson through a form (session and form token required, the reason kept, an over-long one refused naming the limit)", async () => {
  const sb = makeSandbox("web-quarantine");
  const cairn = await openCairn({ projectDir: sb.projectDir, hivePath: sb.hivePath, env: sb.env, actor: "human:ui" });
  try {
    const id = (await cairn.add({ lesson: LESSON, category: "security" })).id!;
    const { app } = createUiApp({ cairn, token: TOKEN, loopback: true, cookieName: "cairn_ui_test", defaultName: "alice" });
    const login = await app.request(`/login?token=${TOKEN}`, { headers: { host: HOST } });
    const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0]!;
    const page = await (await app.request(`/lessons/${id}`, { headers: { host: HOST, cookie } })).text();
    const csrf = /name="csrf-token" content="([^"]+)"/.exec(page)![1]!;
    const form = /<form[^>]*action="\/lessons\/[^"]+\/quarantine"[\s\S]*?<\/form>/.exec(page)?.[0];
    assert.ok(form, "the lesson page has a quarantine form");
    assert.match(form, /name="_csrf"/);
    assert.match(form, /name="reason"[^>]*maxlength="500"|maxlength="500"[^>]*name="reason"/);
    const post = (headers: Record<string, string>, fields: Record<string, string>) =>
      app.request(`/lessons/${id}/quarantine`, { method: "POST", headers: { host: HOST, "content-type": "application/x-www-form-urlencoded", ...headers }, body: new URLSearchParams(fields).toString() });

    // Without a session, or without the form token, nothing changes.
    assert.equal((await post({}, { _csrf: csrf, reason: "x" })).status, 401);
    assert.equal((await post({ cookie }, { reason: "x" })).status, 403);
    assert.equal((await cairn.get(id)).lifecycle.status, "candidate");

    // An over-long reason (a hand-made request past the field's maxlength) is refused by the engine's limit, said on the page.
    const long = await post({ cookie }, { _csrf: csrf, back: `/lessons/${id}`, reason: "y".repeat(501) });
    assert.equal(long.status, 303);
    const told = decode(await (await app.request(long.headers.get("location")!, { headers: { host: HOST, cookie } })).text());
    assert.match(told, /at most 500 characters/);
    assert.equal((await cairn.get(id)).lifecycle.status, "candidate");

    const reason = "It tells agents to parse first; the Stripe SDK needs the raw body.";
    const done = await post({ cookie }, { _csrf: csrf, back: `/lessons/${id}`, reason });
    assert.equal(done.status, 303);
    assert.equal(done.headers.get("location"), `/lessons/${id}`);
    const after = await cairn.get(id);
    assert.equal(after.lifecycle.status, "quarantined");
    assert.equal(after.lifecycle.status_reason, reason);
    const events = await cairn.history(id);
    assert.equal(events.find((e) => e.type === "quarantined")?.actor, "human:alice", "made as the signed-in person");
    const shown = decode(await (await app.request(`/lessons/${id}`, { headers: { host: HOST, cookie } })).text());
    assert.match(shown, /Quarantined S-1/);
    assert.doesNotMatch(shown, /action="\/lessons\/[^"]+\/quarantine"/, "no quarantine form on a quarantined lesson");
  } finally {
    await cairn.close();
    removeSandbox(sb);
  }
});
