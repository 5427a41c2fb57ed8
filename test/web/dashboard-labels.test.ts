// The dashboard's labels read as English whatever span a person asks for: "(1 week)", never "(1 weeks)".
import { test } from "node:test";
import assert from "node:assert/strict";
import { openCairn } from "../../src/index.js";
import { createUiApp } from "../../src/faces/web/app.js";
import { makeSandbox, removeSandbox } from "../fixtures/workers/sandbox.js";

const TOKEN = "test-token-1234567890";
const HOST = "127.0.0.1:7392";

test("the dashboard's approval rate names its span in the singular for one week and the plural for more", async () => {
  const sb = makeSandbox("web-dashboard-labels");
  const cairn = await openCairn({ projectDir: sb.projectDir, hivePath: sb.hivePath, env: sb.env, actor: "human:ui" });
  try {
    const { app } = createUiApp({ cairn, token: TOKEN, loopback: true, cookieName: "cairn_ui_test", defaultName: "alice" });
    const login = await app.request(`/login?token=${TOKEN}`, { headers: { host: HOST } });
    const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0]!;
    const page = async (weeks: number) => (await app.request(`/dashboard?weeks=${weeks}`, { headers: { host: HOST, cookie } })).text();
    const one = await page(1);
    assert.match(one, /approval rate \(1 week\)/);
    assert.doesNotMatch(one, /1 weeks/);
    assert.match(await page(4), /approval rate \(4 weeks\)/);
  } finally {
    await cairn.close();
    removeSandbox(sb);
  }
});
