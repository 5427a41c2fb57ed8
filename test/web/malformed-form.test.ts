// A form post whose body cannot be read (a cut-off multipart upload, a wrong boundary) is the sender's mistake: `cairn ui` answers 400 saying so, not a server failure with a stack trace in its terminal.
import { test } from "node:test";
import assert from "node:assert/strict";
import { sandbox } from "../helpers/cli.js";
import { httpSession, startUi } from "../helpers/web.js";

const BROKEN = { "content-type": "multipart/form-data; boundary=cairn", body: "--cairn\r\nContent-Disposition: form-data; name=\"files\"\r\n\r\nsrc/a.ts" };

test("a malformed form body is refused with 400 and a reason, signed in or not, and the server logs no failure", async () => {
  const sb = sandbox();
  const ui = await startUi(sb.project("api"), sb.env);
  try {
    const { cookie, csrf } = await httpSession(ui);
    const signedIn = await fetch(`${ui.base}/advisories/check`, { method: "POST", headers: { "content-type": BROKEN["content-type"], cookie, "x-csrf-token": csrf }, body: BROKEN.body });
    const signIn = await fetch(`${ui.base}/login`, { method: "POST", headers: { "content-type": BROKEN["content-type"] }, body: BROKEN.body, redirect: "manual" });
    for (const r of [signedIn, signIn]) {
      const page = await r.text();
      assert.equal(r.status, 400, page.slice(0, 300));
      assert.match(page, /could not be read/);
    }
    assert.doesNotMatch(ui.output(), /\n\s+at /, "no stack trace in the terminal");
    // The server still answers a well-formed request after them.
    const ok = await fetch(`${ui.base}/advisories/check`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", cookie, "x-csrf-token": csrf }, body: "files=src%2Fa.ts" });
    assert.equal(ok.status, 200);
  } finally {
    await ui.stop();
    sb.cleanup();
  }
});
