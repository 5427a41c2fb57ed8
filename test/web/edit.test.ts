// The web page's lesson editor over HTTP, in process through the real Hono app and engine: every problem of a failed edit at once, an edit over the request limit.
import { test } from "node:test";
import assert from "node:assert/strict";
import { decode, signedInUi, type SignedInUi } from "../helpers/web-app.js";

const LESSON = "The payments webhook handler must verify the Stripe signature header before parsing the JSON body.";

/** Alice signed in, one lesson (`id`) and the form token of its edit page. */
type World = SignedInUi & { id: string; csrf: string };

async function world(): Promise<World> {
  const ui = await signedInUi("web-edit");
  const id = (await ui.cairn.add({ lesson: LESSON, category: "security" })).id!;
  return Object.assign(ui, { id, csrf: ui.csrfOf(await ui.page(`/lessons/${id}/edit`)) });
}

/** The edit form as the page sends it: every field, with `change` over the stored values. */
function editForm(w: World, change: Record<string, string>): string {
  const fields = {
    _csrf: w.csrf, back: `/lessons/${w.id}`, title: "", lesson: LESSON, why: "", category: "security", root_cause: "", tags: "",
    rule: "", detection_pattern: "", guardrail: "", file_globs: "", tech_stack: "", projects: "", enforcement: "warn", ...change,
  };
  return new URLSearchParams(fields).toString();
}

const postEdit = (w: World, body: string) => w.post(`/lessons/${w.id}/edit`, { cookie: w.cookie }, body);

test("an edit that fails several checks shows every problem at once, and keeps what was typed", async () => {
  const w = await world();
  try {
    const typed = {
      title: "A title far too long for the eighty characters a lesson title may have, going on and on",
      lesson: "fix it",
      why: "the staging admin password is Summer2024",
      detection_pattern: "kw: a",
    };
    const r = await postEdit(w, editForm(w, typed));
    assert.equal(r.status, 422);
    const html = decode(await r.text());
    const alert = /<div class="flash error" role="alert">([\s\S]*?)<\/div>/.exec(html)?.[1] ?? "";
    assert.match(alert, /title:/, `the too-long title is named:\n${alert}`);
    assert.match(alert, /at least 15 are needed/, `the too-short lesson is named:\n${alert}`);
    assert.match(alert, /why: .*password/, `the password in "why" is named:\n${alert}`);
    assert.match(alert, /detection pattern is unusable/, `the unusable detection pattern is named:\n${alert}`);
    for (const v of Object.values(typed)) assert.ok(html.includes(v), `the typed "${v}" is still in the form`);
    assert.equal((await w.cairn.get(w.id)).lesson, LESSON, "nothing was saved");
  } finally {
    await w.close();
  }
});

test("an edit over the request limit is answered with what the limit is, and saves nothing", async () => {
  const w = await world();
  try {
    const r = await postEdit(w, editForm(w, { lesson: `${LESSON} ${"x".repeat(300 * 1024)}` }));
    assert.equal(r.status, 413);
    assert.match(await r.text(), /too large: the limit is 256 KB/);
    assert.equal((await w.cairn.get(w.id)).lesson, LESSON, "nothing was saved");
    const page = await w.page(`/lessons/${w.id}/edit`);
    assert.match(page, /<form[^>]* class="edit"[^>]* data-max-bytes="262144"/, "the form carries the limit, for the page to refuse a larger edit before sending it");
  } finally {
    await w.close();
  }
});

test("a category named the opencode-swarm way in an edit is stored as add stores it, and the page says as what", async () => {
  const w = await world();
  try {
    const r = await postEdit(w, editForm(w, { category: "decision" }));
    assert.equal(r.status, 303, await r.clone().text());
    const page = decode(await w.page(r.headers.get("location")!));
    assert.match(page, /category "decision" is opencode-swarm's name: stored as category \w+/, "the page says as what the edit was stored");
    const e = await w.cairn.get(w.id);
    assert.equal(e.kind, "decision");
    assert.ok(e.tags.includes("legacy-category:decision"), e.tags.join(","));
  } finally {
    await w.close();
  }
});

test("an edit saved over a change someone else made after the form was opened is refused, keeping both: the other change stays, the typed text stays in the form", async () => {
  const w = await world();
  try {
    // Bob opens the form: the page he reads and will send back.
    const opened = await w.page(`/lessons/${w.id}/edit`);
    const hidden = Object.fromEntries([...opened.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)].map((m) => [m[1]!, decode(m[2]!)]));
    // Meanwhile Ann changes the lesson (another tab, the mirror, cairn review).
    const ann = "The payments webhook handler must verify the Stripe-Signature header against the raw request body before JSON parsing.";
    await w.cairn.edit(w.id, { lesson: ann }, "human:ann", "api");
    // An agent's use of the lesson in between is not a change to it.
    await w.cairn.recall("Stripe signature webhook");
    const bob = "The payments webhook handler must check the Stripe signature header before it parses the JSON body of the event.";
    const r = await postEdit(w, new URLSearchParams({ ...Object.fromEntries(new URLSearchParams(editForm(w, { lesson: bob }))), ...hidden, lesson: bob }).toString());
    assert.equal(r.status, 409, "refused as a conflict");
    const html = decode(await r.text());
    assert.match(html, /changed .* after you opened/i, "the page says why");
    assert.ok(html.includes(bob), "Bob's text is still in the form");
    assert.equal((await w.cairn.get(w.id)).lesson, ann, "Ann's change is kept");
  } finally {
    await w.close();
  }
});

test("the same edit sent twice from one form (a double click on Save): the second finds its values stored and is no conflict", async () => {
  const w = await world();
  try {
    const opened = await w.page(`/lessons/${w.id}/edit`);
    const hidden = Object.fromEntries([...opened.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)].map((m) => [m[1]!, decode(m[2]!)]));
    const typed = "The payments webhook handler must verify the Stripe-Signature header against the raw body before JSON parsing.";
    const body = new URLSearchParams({ ...Object.fromEntries(new URLSearchParams(editForm(w, { lesson: typed }))), ...hidden, lesson: typed }).toString();
    const first = await postEdit(w, body);
    assert.equal(first.status, 303, await first.text());
    const second = await postEdit(w, body);
    assert.equal(second.status, 303, `the second send is not refused as someone else's change: ${decode(await second.clone().text()).slice(0, 300)}`);
    const page = decode(await w.page(second.headers.get("location")!));
    assert.match(page, /already holds/, "the page says the lesson holds what the form says");
    assert.equal((await w.cairn.get(w.id)).lesson, typed);
  } finally {
    await w.close();
  }
});

test("a form that lacks fields (an older page, a hand-made request) changes only the fields it sends; the rest keep their stored values", async () => {
  const w = await world();
  try {
    await w.cairn.edit(w.id, {
      title: "Verify Stripe signatures first",
      why: "An unsigned body let forged refund events through in March.",
      tags: ["stripe", "webhooks"],
      prevention: { rule: "Call stripe.webhooks.constructEvent before JSON.parse.", suggested_guardrail: "a unit test posting an unsigned body" },
      applicability: { file_globs: ["src/payments/**"], tech_stack: ["node"] },
      enforcement: "enforce",
    }, "human:alice", "test");
    const before = await w.cairn.get(w.id);
    const only = new URLSearchParams({ _csrf: w.csrf, back: `/lessons/${w.id}`, title: "Verify the Stripe signature before parsing" }).toString();
    const r = await postEdit(w, only);
    assert.equal(r.status, 303, await r.text());
    const after = await w.cairn.get(w.id);
    assert.equal(after.title, "Verify the Stripe signature before parsing", "the field sent is changed");
    assert.equal(after.lesson, before.lesson);
    assert.equal(after.why, before.why);
    assert.equal(after.category, before.category);
    assert.deepEqual(after.tags, before.tags);
    assert.deepEqual(after.prevention, before.prevention);
    assert.deepEqual(after.applicability.file_globs, before.applicability.file_globs);
    assert.deepEqual(after.applicability.tech_stack, before.applicability.tech_stack);
    assert.equal(after.directive.enforcement, "enforce");
    // A field sent empty is still cleared: only absence means "keep".
    const cleared = await postEdit(w, new URLSearchParams({ _csrf: w.csrf, back: `/lessons/${w.id}`, why: "" }).toString());
    assert.equal(cleared.status, 303, await cleared.text());
    const now = await w.cairn.get(w.id);
    assert.equal(now.why, undefined);
    assert.equal(now.title, "Verify the Stripe signature before parsing");
    assert.deepEqual(now.tags, before.tags);
  } finally {
    await w.close();
  }
});

test("an enforcement the form does not offer (a hand-made request, a mistyped value) is refused, naming the choices: an enforced rule is never quietly turned into a warning", async () => {
  const w = await world();
  try {
    await w.cairn.edit(w.id, { enforcement: "enforce" }, "human:alice", "test");
    for (const sent of ["Enforce", "block", "enforced"]) {
      const r = await postEdit(w, editForm(w, { enforcement: sent }));
      const html = decode(await r.text());
      assert.equal(r.status, 422, `${JSON.stringify(sent)}: ${html.slice(0, 300)}`);
      const alert = /<div class="flash error" role="alert">([\s\S]*?)<\/div>/.exec(html)?.[1] ?? "";
      assert.match(alert, /enforcement/i, alert);
      assert.match(alert, /warn/, `the choices are named:\n${alert}`);
      assert.equal((await w.cairn.get(w.id)).directive.enforcement, "enforce", `${JSON.stringify(sent)} left the rule enforced`);
    }
    const spaced = await postEdit(w, editForm(w, { enforcement: " enforce " }));
    assert.equal(spaced.status, 303, "a value with spaces around it is that value");
    assert.equal((await w.cairn.get(w.id)).directive.enforcement, "enforce");
    // Sent empty, as any field: cleared to its default.
    const cleared = await postEdit(w, editForm(w, { enforcement: "" }));
    assert.equal(cleared.status, 303);
    assert.equal((await w.cairn.get(w.id)).directive.enforcement, "warn");
  } finally {
    await w.close();
  }
});
