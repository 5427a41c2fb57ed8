// An edit saved after the session ended (signed out in another tab, or the form's token stale): the page says why and gives back the typed text, not a bare line of text and a lost edit.
import { test } from "node:test";
import assert from "node:assert/strict";
import { openCairn } from "../../src/index.js";
import { createUiApp } from "../../src/faces/web/app.js";
import { makeSandbox, removeSandbox } from "../fixtures/workers/sandbox.js";

const TOKEN = "test-token-1234567890";
const HOST = "127.0.0.1:7392";
const LESSON = "The payments webhook handler must verify the Stripe signature header before parsing the JSON body.";
const TYPED = "The payments webhook handler must verify the Stripe-Signature header against the raw body — <b>before</b> JSON parsing, über alles.";

const decode = (html: string) => html.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");

test("saving an edit signed out or with a stale form token: an HTML page saying why, with the typed text to copy, and nothing saved", async () => {
  const sb = makeSandbox("web-signed-out");
  const cairn = await openCairn({ projectDir: sb.projectDir, hivePath: sb.hivePath, env: sb.env, actor: "human:ui" });
  try {
    const id = (await cairn.add({ lesson: LESSON, category: "security" })).id!;
    const { app } = createUiApp({ cairn, token: TOKEN, loopback: true, cookieName: "cairn_ui_test", defaultName: "alice" });
    const login = await app.request(`/login?token=${TOKEN}`, { headers: { host: HOST } });
    const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0]!;
    const form = (csrf: string) => new URLSearchParams({ _csrf: csrf, back: `/lessons/${id}`, lesson: TYPED, title: "", category: "security", enforcement: "warn" }).toString();
    const save = (headers: Record<string, string>, body: string) =>
      app.request(`/lessons/${id}/edit`, { method: "POST", headers: { host: HOST, "content-type": "application/x-www-form-urlencoded", ...headers }, body });

    for (const [label, r, status, why] of [
      ["signed out", await save({}, form("whatever")), 401, /Sign in/],
      ["stale form token", await save({ cookie }, form("stale-token")), 403, /form token/],
    ] as const) {
      assert.equal(r.status, status, label);
      assert.match(r.headers.get("content-type") ?? "", /text\/html/, `${label}: a page, not a bare line of text`);
      const html = await r.text();
      assert.match(html, /role="alert"/, label);
      assert.match(decode(html), why, label);
      assert.ok(decode(html).includes(TYPED), `${label}: the typed text is given back`);
      assert.doesNotMatch(html, /<b>before<\/b>/, `${label}: as text, never markup`);
    }
    assert.equal((await cairn.get(id)).lesson, LESSON, "nothing was saved");
  } finally {
    await cairn.close();
    removeSandbox(sb);
  }
});
