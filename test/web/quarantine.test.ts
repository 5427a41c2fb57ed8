// The lesson page's quarantine form, in process through the real Hono app and engine: the engine's quarantine as the signed-in person, behind the session and form-token checks, with the shared reason limit.
import { test } from "node:test";
import assert from "node:assert/strict";
import { decode, signedInUi } from "../helpers/web-app.js";

const LESSON = "The payments webhook handler must verify the Stripe signature header before parsing the JSON body.";

test("the lesson page quarantines a lesson through a form (session and form token required, the reason kept, an over-long one refused naming the limit)", async () => {
  const ui = await signedInUi("web-quarantine");
  const { cairn, cookie } = ui;
  try {
    const id = (await cairn.add({ lesson: LESSON, category: "security" })).id!;
    const page = await ui.page(`/lessons/${id}`);
    const csrf = ui.csrfOf(page);
    const form = /<form[^>]*action="\/lessons\/[^"]+\/quarantine"[\s\S]*?<\/form>/.exec(page)?.[0];
    assert.ok(form, "the lesson page has a quarantine form");
    assert.match(form, /name="_csrf"/);
    assert.match(form, /name="reason"[^>]*maxlength="500"|maxlength="500"[^>]*name="reason"/);
    const post = (headers: Record<string, string>, fields: Record<string, string>) => ui.post(`/lessons/${id}/quarantine`, headers, fields);

    // Without a session, or without the form token, nothing changes.
    assert.equal((await post({}, { _csrf: csrf, reason: "x" })).status, 401);
    assert.equal((await post({ cookie }, { reason: "x" })).status, 403);
    assert.equal((await cairn.get(id)).lifecycle.status, "candidate");

    // An over-long reason (a hand-made request past the field's maxlength) is refused by the engine's limit, said on the page.
    const long = await post({ cookie }, { _csrf: csrf, back: `/lessons/${id}`, reason: "y".repeat(501) });
    assert.equal(long.status, 303);
    const told = decode(await ui.page(long.headers.get("location")!));
    assert.match(told, /at most 500 characters/);
    assert.equal((await cairn.get(id)).lifecycle.status, "candidate");

    const reason = "It tells agents to parse first; the Stripe SDK needs the raw body.";
    const done = await post({ cookie }, { _csrf: csrf, back: `/lessons/${id}`, reason });
    assert.equal(done.status, 303);
    assert.equal(done.headers.get("location"), `/lessons/${id}`);
    const after = await cairn.get(id);
    assert.equal(after.lifecycle.status, "quarantined");
    assert.equal(after.lifecycle.status_reason, reason);
    const events = await cairn.history(id);
    assert.equal(events.find((e) => e.type === "quarantined")?.actor, "human:alice", "made as the signed-in person");
    const shown = decode(await ui.page(`/lessons/${id}`));
    assert.match(shown, /Quarantined S-1/);
    assert.doesNotMatch(shown, /action="\/lessons\/[^"]+\/quarantine"/, "no quarantine form on a quarantined lesson");
  } finally {
    await ui.close();
  }
});
