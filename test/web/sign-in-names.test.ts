// Sign-in names: a person's own name in any alphabet (José, Зоя, 田中), the same actor however it was typed, and never a look-alike of another name.
import { test } from "node:test";
import assert from "node:assert/strict";
import { openCairn } from "../../src/index.js";
import { createUiApp } from "../../src/faces/web/app.js";
import { makeSandbox, removeSandbox } from "../fixtures/workers/sandbox.js";

const TOKEN = "test-token-names-1234567890";
const HOST = "127.0.0.1:7393";

async function withApp(run: (signIn: (name: string) => Promise<{ status: number; html: string; actor?: string }>) => Promise<void>): Promise<void> {
  const sb = makeSandbox("web-names");
  const cairn = await openCairn({ projectDir: sb.projectDir, hivePath: sb.hivePath, env: sb.env, actor: "human:ui" });
  const { app } = createUiApp({ cairn, token: TOKEN, loopback: true, cookieName: "cairn_ui_names", defaultName: "alice" });
  const signIn = async (name: string) => {
    const r = await app.request("/login", {
      method: "POST",
      headers: { host: HOST, origin: `http://${HOST}`, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: TOKEN, name, next: "/review" }).toString(),
    });
    if (r.status !== 303) return { status: r.status, html: await r.text() };
    const cookie = (r.headers.get("set-cookie") ?? "").split(";")[0]!;
    const html = await (await app.request("/review", { headers: { host: HOST, cookie } })).text();
    return { status: r.status, html, actor: /human:([^<"\s]+)/.exec(html)?.[1] };
  };
  try {
    await run(signIn);
  } finally {
    await cairn.close();
    removeSandbox(sb);
  }
}

test("names in any alphabet sign in, NFC-normalised; the sign-in form does not limit them to ASCII", async () => {
  await withApp(async (signIn) => {
    for (const name of ["José", "Zoë", "Зоя", "田中", "François-Xavier"]) {
      const r = await signIn(name);
      assert.equal(r.status, 303, `${name}: ${r.html.slice(0, 400)}`);
      assert.equal(r.actor, name, name);
    }
    // "José" typed with a combining accent is the same person as the precomposed one.
    const decomposed = await signIn("Jose\u0301");
    assert.equal(decomposed.actor, "José");
    const form = await signIn("");
    assert.doesNotMatch(form.html, /pattern="\[A-Za-z0-9/, "no ASCII-only pattern on the name field");
    assert.match(form.html, /letters of any alphabet/i, "the field says what a name may hold");
  });
});

test("a refused name is told exactly why: a character it may not hold, letters of look-alike alphabets, or a whole look-alike of a plain name", async () => {
  await withApp(async (signIn) => {
    const bad = await signIn("bob<script>");
    assert.equal(bad.status, 400);
    assert.match(bad.html, /letters of any alphabet, digits, _ \. -/);
    assert.match(bad.html, /&lt;/, "names the character at fault");
    // Latin "al" + Cyrillic "і" + Latin "ce": reads as alice.
    const mixed = await signIn("al\u0456ce");
    assert.equal(mixed.status, 400);
    assert.match(mixed.html, /mixes Latin and Cyrillic letters/);
    // All Cyrillic, drawn exactly like "ace".
    const whole = await signIn("\u0430\u0441\u0435");
    assert.equal(whole.status, 400);
    assert.match(whole.html, /drawn like &quot;ace&quot;|drawn like "ace"/);
    const long = await signIn("é".repeat(61));
    assert.equal(long.status, 400);
    assert.match(long.html, /61 characters/);
  });
});
