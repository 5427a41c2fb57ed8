// The dashboard's labels read as English whatever span a person asks for: "(1 week)", never "(1 weeks)".
import { test } from "node:test";
import assert from "node:assert/strict";
import { signedInUi } from "../helpers/web-app.js";

test("the dashboard's approval rate names its span in the singular for one week and the plural for more", async () => {
  const ui = await signedInUi("web-dashboard-labels");
  try {
    const page = (weeks: number) => ui.page(`/dashboard?weeks=${weeks}`);
    const one = await page(1);
    assert.match(one, /approval rate \(1 week\)/);
    assert.doesNotMatch(one, /1 weeks/);
    assert.match(await page(4), /approval rate \(4 weeks\)/);
  } finally {
    await ui.close();
  }
});
