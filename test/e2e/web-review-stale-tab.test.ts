// `cairn ui` in Debian's Chromium, two tabs on one draft in review: an approval given on the text a tab shows is refused once another tab changed that text.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { sandbox } from "../helpers/cli.js";
import { browserSkipReason, launchBrowser, startUi } from "../helpers/web.js";

const skip = browserSkipReason();
const LESSON = "Run prisma generate after editing prisma/schema.prisma or the generated client stays stale in CI builds.";
const EDITED = "Skip prisma generate in CI builds; the client generated on a laptop is committed and always current.";

test("tab B edits a draft's text, then tab A (still showing the old text) approves it: refused with a message, the draft waits", { skip, timeout: 10 * 60_000 }, async () => {
  const sb = sandbox();
  const p = sb.project("shop");
  fs.mkdirSync(path.join(p, ".swarm"), { recursive: true });
  // Agents write drafts; only a person makes them visible.
  fs.writeFileSync(path.join(p, ".swarm", "cairn.json"), JSON.stringify({ governance: { require_approval: { swarm: true } } }));
  const added = await sb.json(p, "add", LESSON, "--category", "tooling", "--actor", "agent:coder");
  assert.equal(added.body.status, "draft", added.stdout + added.stderr);
  const id = added.body.id as string;
  const server = await startUi(p, sb.env, [], { cwd: sb.root });
  const browser = await launchBrowser();
  try {
    const tabA = browser.page;
    await tabA.goto(server.loginUrl);
    const tabB = await browser.context.newPage();
    await tabA.goto(`${server.base}/review?sel=${encodeURIComponent(id)}`);

    await tabB.goto(`${server.base}/lessons/${id}/edit`);
    await tabB.locator("#f-lesson").fill(EDITED);
    await tabB.locator("form.edit button[type=submit]").click();
    await tabB.waitForURL(new RegExp(`/lessons/${id}$`));

    // Tab A still shows the text it was opened on; approving vouches for what the person read.
    assert.ok((await tabA.locator("main").innerText()).includes(LESSON));
    await tabA.locator("#approve-form button").click();
    await tabA.waitForLoadState();
    const alert = (await tabA.locator(".flash.error[role=alert]").allInnerTexts()).join(" ");
    assert.match(alert, /changed since you opened/, `tab A is told: ${alert || (await tabA.locator("main").innerText()).slice(0, 600)}`);
    const after = (await sb.json(p, "show", id)).body.entry;
    assert.equal(after.lifecycle.status, "draft", "the edited text is not approved unseen");
    assert.equal(after.lesson, EDITED);
  } finally {
    await browser.close();
    await server.stop();
    sb.cleanup();
  }
});
