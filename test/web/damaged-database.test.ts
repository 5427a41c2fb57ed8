// `cairn ui` over a project database damaged from its first byte: every page says so and names `cairn doctor --repair`, as the CLI does, instead of listing nothing.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { sandbox } from "../helpers/cli.js";
import { browserSkipReason, launchBrowser, startUi, type UiServer } from "../helpers/web.js";

const skip = browserSkipReason();

test("a project database overwritten from byte 0: the lessons, review and dashboard pages say it is damaged and how to repair it", { skip, timeout: 300_000 }, async () => {
  const sb = sandbox();
  let ui: UiServer | undefined;
  const browser = await launchBrowser();
  try {
    const p = sb.project("shop");
    const added = await sb.run(p, "add", "Pin the node version in .nvmrc so CI and laptops build with the same runtime.", "--category", "tooling");
    assert.equal(added.code, 0, added.stderr);
    const db = path.join(p, ".swarm", "cairn.db");
    // What a bad copy or a stray write leaves: the SQLite header gone.
    const fd = fs.openSync(db, "r+");
    fs.writeSync(fd, Buffer.from("this is not a database header, it was overwritten"), 0, undefined, 0);
    fs.closeSync(fd);

    ui = await startUi(p, sb.env, [], { cwd: sb.root });
    const { page } = browser;
    await page.goto(ui.loginUrl);
    for (const where of ["/lessons", "/review", "/dashboard", "/advisories"]) {
      await page.goto(`${ui.base}${where}`);
      const alert = (await page.locator('[role="alert"]').allInnerTexts()).join("\n");
      assert.match(alert, /damaged/, `${where}: the page says the database is damaged:\n${(await page.innerText("main")).slice(0, 800)}`);
      assert.match(alert, /cairn doctor --repair/, `${where}: and how to repair it`);
      assert.ok(alert.includes(db), `${where}: naming the file`);
    }
  } finally {
    await browser.close();
    await ui?.stop();
    sb.cleanup();
  }
});
