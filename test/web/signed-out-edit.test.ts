// An edit saved after the session ended (signed out in another tab, or the form's token stale): the page says why and gives back the typed text, not a bare line of text and a lost edit.
import { test } from "node:test";
import assert from "node:assert/strict";
import { decode, signedInUi } from "../helpers/web-app.js";

const LESSON = "The payments webhook handler must verify the Stripe signature header before parsing the JSON body.";
const TYPED = "The payments webhook handler must verify the Stripe-Signature header against the raw body — <b>before</b> JSON parsing, über alles.";

test("saving an edit signed out or with a stale form token: an HTML page saying why, with the typed text to copy, and nothing saved", async () => {
  const ui = await signedInUi("web-signed-out");
  const { cairn, cookie } = ui;
  try {
    const id = (await cairn.add({ lesson: LESSON, category: "security" })).id!;
    const form = (csrf: string) => new URLSearchParams({ _csrf: csrf, back: `/lessons/${id}`, lesson: TYPED, title: "", category: "security", enforcement: "warn" }).toString();
    const save = (headers: Record<string, string>, body: string) => ui.post(`/lessons/${id}/edit`, headers, body);

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
    await ui.close();
  }
});
