// A person's pages and listings while the team hive is down: the project's own lessons keep answering, and the page says why the hive's are missing.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { sandbox } from "../helpers/cli.js";
import { dropSchema, pgTestOptions, pgTestUrl, uniqueSchema } from "../helpers/pg.js";
import { startProxy, viaProxy, type TcpProxy } from "../helpers/tcp-proxy.js";
import { httpSession, startUi, type UiServer } from "../helpers/web.js";

const GENERIC_500 = "The server failed on this request";

test("with the team hive down, cairn ui's review queue, lessons, dashboard and advisories still show the project's lessons and say the hive is unreachable; cairn list too", { ...pgTestOptions(), timeout: 300_000 }, async () => {
  const url = pgTestUrl()!;
  const schema = uniqueSchema("webdown");
  const sb = sandbox();
  let proxy: TcpProxy | undefined;
  let ui: UiServer | undefined;
  try {
    proxy = await startProxy(Number(new URL(url).port || 5432));
    const env = {
      ...sb.env,
      CAIRN_HIVE_URL: viaProxy(url, proxy.port),
      CAIRN__hive_postgres__schema: schema,
      CAIRN__hive_postgres__read_timeout_ms: "10000",
      CAIRN__hive_postgres__connect_timeout_ms: "10000",
      CAIRN__hive_postgres__retry_after_ms: "200",
    };
    const p = sb.project("api");
    fs.mkdirSync(path.join(p, ".swarm"), { recursive: true });
    fs.writeFileSync(path.join(p, ".swarm", "cairn.json"), JSON.stringify({ governance: { require_approval: { swarm: true } } }));
    const cli = (...args: string[]) => sb.raw(["--json", "--project", p, ...args], { env });
    const draft = await cli("add", "Run prisma generate after editing prisma/schema.prisma or the generated client stays stale.", "--category", "tooling", "--actor", "agent:coder");
    assert.equal(draft.code, 0, draft.stderr);
    const draftHandle = JSON.parse(draft.stdout).handle as string;
    const local = await cli("add", "Keep currency amounts in src/billing as integer cents; float totals drifted on refunds.", "--category", "architecture");
    assert.equal(local.code, 0, local.stderr);
    const localHandle = JSON.parse(local.stdout).handle as string;
    const hive = await cli("promote", "Pin the Terraform provider versions in required_providers; an unpinned upgrade rewrote our state.");
    assert.equal(hive.code, 0, hive.stderr);
    const hiveHandle = JSON.parse(hive.stdout).handle as string;

    ui = await startUi(p, env, [], { cwd: sb.root });
    const { cookie } = await httpSession(ui);
    const get = async (page: string) => {
      const r = await fetch(`${ui!.base}${page}`, { headers: { cookie } });
      return { status: r.status, body: await r.text() };
    };
    const up = await get("/lessons");
    assert.equal(up.status, 200);
    assert.match(up.body, new RegExp(`>${hiveHandle}<`), "while the hive answers, its lesson is listed");

    await proxy.cut();
    for (const page of ["/review", "/lessons", "/lessons?q=currency", "/dashboard", "/advisories"]) {
      const r = await get(page);
      assert.doesNotMatch(r.body, new RegExp(GENERIC_500), `${page} does not fail as a server error`);
      assert.equal(r.status, 200, `${page} answers from the project`);
      assert.match(r.body, /team hive[^<]*unreachable/i, `${page} says the team hive is unreachable`);
    }
    assert.match((await get("/review")).body, new RegExp(`>${draftHandle}<`), "the project's draft waits in the review queue");
    assert.match((await get("/lessons")).body, new RegExp(`>${localHandle}<`), "the project's lessons are listed");
    // A hive lesson the server cannot reach is a clear answer, not a crash.
    const hiveDetail = await get(`/lessons/${hiveHandle}`);
    assert.doesNotMatch(hiveDetail.body, new RegExp(GENERIC_500));
    if (hiveDetail.status !== 200) {
      assert.equal(hiveDetail.status, 503);
      assert.match(hiveDetail.body, /unreachable/);
    }

    const listed = await cli("list");
    assert.equal(listed.code, 0, `cairn list answers from the project while the hive is down: ${listed.stdout}${listed.stderr}`);
    const ids = (JSON.parse(listed.stdout) as Array<{ handle: string }>).map((e) => e.handle);
    assert.ok(ids.includes(localHandle), "cairn list shows the project's lessons");

    await proxy.restore();
    let back = await get("/lessons");
    for (let i = 0; i < 100 && !back.body.includes(`>${hiveHandle}<`); i++) {
      await new Promise((r) => setTimeout(r, 100));
      back = await get("/lessons");
    }
    assert.match(back.body, new RegExp(`>${hiveHandle}<`), "once the hive is back its lessons are listed again");
    assert.doesNotMatch(back.body, /team hive[^<]*unreachable/i, "and the notice is gone");
  } finally {
    await ui?.stop();
    await proxy?.close();
    await dropSchema(url, schema);
    sb.cleanup();
  }
});
