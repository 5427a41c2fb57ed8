// `cairn ui` in Debian's Chromium, two tabs editing one lesson: the later save is refused, keeps its text, and shows what the other tab saved, so saving again overwrites nothing unseen.
import { test } from "node:test";
import assert from "node:assert/strict";
import { sandbox } from "../helpers/cli.js";
import { browserSkipReason, launchBrowser, startUi } from "../helpers/web.js";

const skip = browserSkipReason();
const LESSON = "The payments webhook handler must verify the Stripe signature header before parsing the JSON body.";
const TAB_B_TITLE = "Verify Stripe signatures — über-wichtig <b>first</b>";
const TAB_A_LESSON = "The payments webhook handler must verify the Stripe-Signature header against the raw body before any JSON parsing.";

test("a second tab's save over the first tab's: refused, the typed text kept, and the other tab's saved values shown beside it", { skip, timeout: 10 * 60_000 }, async () => {
  const sb = sandbox();
  const p = sb.project("shop");
  const added = await sb.json(p, "add", LESSON, "--category", "security");
  assert.equal(added.body.action, "added", added.stdout + added.stderr);
  const id = added.body.id as string;
  const server = await startUi(p, sb.env, [], { cwd: sb.root });
  const browser = await launchBrowser();
  try {
    const tabA = browser.page;
    await tabA.goto(server.loginUrl);
    const tabB = await browser.context.newPage();
    await tabA.goto(`${server.base}/lessons/${id}/edit`);
    await tabB.goto(`${server.base}/lessons/${id}/edit`);

    await tabB.locator("#f-title").fill(TAB_B_TITLE);
    await tabB.locator("form.edit button[type=submit]").click();
    await tabB.waitForURL(new RegExp(`/lessons/${id}$`));

    await tabA.locator("#f-lesson").fill(TAB_A_LESSON);
    await tabA.locator("form.edit button[type=submit]").click();
    const alert = tabA.locator(".flash.error[role=alert]");
    await alert.first().waitFor();
    assert.match((await alert.allTextContents()).join(" "), /changed by someone else/);
    assert.equal(await tabA.locator("#f-lesson").inputValue(), TAB_A_LESSON, "tab A's text is still in its form");
    // What tab B saved is on tab A's page (escaped, as text), so a second save is a choice made seeing it.
    const shown = await tabA.locator("main").innerText();
    assert.ok(shown.includes(TAB_B_TITLE), `tab B's title is shown on tab A's conflict page:\n${shown.slice(0, 1500)}`);
    assert.equal(await tabA.locator("main b").count(), 0, "the title's markup is shown as text, not rendered");

    const r = await sb.json(p, "show", id);
    assert.equal(r.body.entry.title, TAB_B_TITLE, "tab B's save stands");
    assert.equal(r.body.entry.lesson, LESSON, "tab A's refused save changed nothing");
  } finally {
    await browser.close();
    await server.stop();
    sb.cleanup();
  }
});
