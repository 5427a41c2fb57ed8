// `cairn ui` in Debian's Chromium: an edit over the request limit keeps what was typed and says what the limit is.
import { test } from "node:test";
import assert from "node:assert/strict";
import { sandbox } from "../helpers/cli.js";
import { browserSkipReason, launchBrowser, startUi } from "../helpers/web.js";

const skip = browserSkipReason();
const LESSON = "The payments webhook handler must verify the Stripe signature header before parsing the JSON body.";

test("an edit over the 256 KB request limit stays on the page with the typed text, saying it is too large and what the limit is", { skip, timeout: 10 * 60_000 }, async () => {
  const sb = sandbox();
  const p = sb.project("shop");
  const added = await sb.json(p, "add", LESSON, "--category", "security");
  assert.equal(added.body.action, "added", added.stdout + added.stderr);
  const id = added.body.id as string;
  const server = await startUi(p, sb.env, [], { cwd: sb.root });
  const browser = await launchBrowser();
  try {
    const { page } = browser;
    await page.goto(server.loginUrl);
    await page.goto(`${server.base}/lessons/${id}/edit`);
    // A pasted log: 300 KB, over the limit however it is encoded.
    const typed = `${LESSON} ${"stack frame at PaymentsController.handle (payments.ts:42)\n".repeat(5200)}`;
    // As a paste lands (typing 300 KB key by key would take the test's whole budget).
    await page.locator("#f-lesson").evaluate((el: { value: string; dispatchEvent(e: unknown): boolean }, v: string) => {
      el.value = v;
    }, typed);
    await page.locator("form.edit button[type=submit]").click();
    const alert = page.locator("form.edit [role=alert], .flash.error[role=alert]");
    await alert.first().waitFor({ timeout: 30_000 }).catch(() => undefined);
    assert.match(page.url(), new RegExp(`/lessons/${id}/edit$`), "still on the edit page");
    assert.equal(await page.locator("#f-lesson").inputValue().catch(() => ""), typed, "the typed text is still in the form");
    const said = (await alert.allTextContents()).join(" ");
    assert.match(said, /too large/i, said);
    assert.match(said, /256 KB/, said);
    const r = await sb.json(p, "show", id);
    assert.equal(r.body.entry.lesson, LESSON, "nothing was saved");
  } finally {
    await browser.close();
    await server.stop();
    sb.cleanup();
  }
});
