// The web page's actions on a lesson the schema no longer accepts: the person reads which field is wrong, not "the server failed".
import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { storeOverlongTitle } from "../helpers/out-of-schema.js";
import { signedInUi } from "../helpers/web-app.js";
const LESSON = "The payments webhook handler must verify the Stripe signature header before parsing the JSON body.";

test("archiving a stored lesson whose title is over the schema says INVALID_INPUT's words naming the field, not an internal error", async () => {
  const ui = await signedInUi("web-validation");
  try {
    const id = (await ui.cairn.add({ lesson: LESSON, category: "security" })).id!;
    storeOverlongTitle(path.join(ui.sb.projectDir, ".swarm", "cairn.db"), id);
    const csrf = ui.csrfOf(await ui.page(`/lessons/${id}`));
    const back = `/lessons/${id}`;
    const r = await ui.post(`/lessons/${id}/archive`, { cookie: ui.cookie }, { _csrf: csrf, back, reason: "replaced" });
    assert.equal(r.status, 303, await r.text());
    const html = await ui.page(back);
    const alert = /<(?:p|div) class="flash error" role="alert">([\s\S]*?)<\/(?:p|div)>/.exec(html)?.[1] ?? "";
    assert.match(alert, /Invalid input: title is too long \(at most 80 characters\)/, alert || html.slice(0, 2000));
    assert.doesNotMatch(alert, /&quot;code&quot;|\[\s*\{/, "no raw issue list");
  } finally {
    await ui.close();
  }
});
