// The web page's actions on a lesson the schema no longer accepts: the person reads which field is wrong, not "the server failed".
import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { openCairn } from "../../src/index.js";
import { createUiApp } from "../../src/faces/web/app.js";
import { makeSandbox, removeSandbox } from "../fixtures/workers/sandbox.js";
import { storeOverlongTitle } from "../helpers/out-of-schema.js";

const TOKEN = "test-token-1234567890";
const HOST = "127.0.0.1:7393";
const LESSON = "The payments webhook handler must verify the Stripe signature header before parsing the JSON body.";

test("archiving a stored lesson whose title is over the schema says INVALID_INPUT's words naming the field, not an internal error", async () => {
  const sb = makeSandbox("web-validation");
  const cairn = await openCairn({ projectDir: sb.projectDir, hivePath: sb.hivePath, env: sb.env, actor: "human:ui" });
  try {
    const id = (await cairn.add({ lesson: LESSON, category: "security" })).id!;
    storeOverlongTitle(path.join(sb.projectDir, ".swarm", "cairn.db"), id);
    const { app } = createUiApp({ cairn, token: TOKEN, loopback: true, cookieName: "cairn_ui_test", defaultName: "alice" });
    const login = await app.request(`/login?token=${TOKEN}`, { headers: { host: HOST } });
    const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0]!;
    const page = await (await app.request(`/lessons/${id}`, { headers: { host: HOST, cookie } })).text();
    const csrf = /name="csrf-token" content="([^"]+)"/.exec(page)![1]!;
    const back = `/lessons/${id}`;
    const r = await app.request(`/lessons/${id}/archive`, {
      method: "POST",
      headers: { host: HOST, cookie, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ _csrf: csrf, back, reason: "replaced" }).toString(),
    });
    assert.equal(r.status, 303, await r.text());
    const html = await (await app.request(back, { headers: { host: HOST, cookie } })).text();
    const alert = /<(?:p|div) class="flash error" role="alert">([\s\S]*?)<\/(?:p|div)>/.exec(html)?.[1] ?? "";
    assert.match(alert, /Invalid input: title is too long \(at most 80 characters\)/, alert || html.slice(0, 2000));
    assert.doesNotMatch(alert, /&quot;code&quot;|\[\s*\{/, "no raw issue list");
  } finally {
    await cairn.close();
    removeSandbox(sb);
  }
});
