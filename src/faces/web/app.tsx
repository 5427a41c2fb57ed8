// The web UI's routes (Hono): parse the request, call the engine as the signed-in person, render a page or redirect.
import { Hono, type Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { Cairn } from "../../engine.js";
import { asCairnError } from "../../core/validation-error.js";
import { isCairnError } from "../../errors.js";
import { editBasis } from "../../governance/edit-basis.js";
import type { LessonFields } from "../../governance/structured.js";
import { describeApproval } from "../../governance/approval.js";
import type { PageSort } from "../../store/store.js";
import { Assets, type AssetEntry } from "./assets.js";
import { AdvisoriesPage, CHECK_TOOLS, ErrorPage, LoginPage, type CheckInput } from "./pages/advisories.js";
import { DashboardPage } from "./pages/dashboard.js";
import type { Frame } from "./pages/layout.js";
import { EditPage, editValuesOf, LessonPage, type EditValues } from "./pages/lesson.js";
import { LessonsPage, type LessonsParams } from "./pages/lessons.js";
import { keptFields, NotSavedPage } from "./pages/not-saved.js";
import { ReviewPage } from "./pages/review.js";
import { checkName } from "../../governance/actor-name.js";
import { originGuard, secretMatches, securityHeaders, Sessions, type Session } from "./security.js";
import { readOnlyPageMessage } from "../../store/faults.js";

export interface UiAppOptions {
  cairn: Cairn;
  /** The login token (random per start, or configured). */
  token: string;
  /** Bound to loopback: Host and Origin must be loopback names too (DNS rebinding). */
  loopback: boolean;
  /** Cookies ignore ports: each server (port) gets its own cookie name. */
  cookieName: string;
  /** Name pre-filled at sign-in and used by the token link. */
  defaultName: string;
  assets?: Assets;
}

type Env = { Variables: { session: Session; flash?: Frame["flash"] } };

/** The largest request body the page may send; the edit form carries it so the page can refuse a larger edit without losing the text. */
const MAX_BODY = 256 * 1024;
const tooLarge = `Request body too large: the limit is ${MAX_BODY / 1024} KB. Nothing was saved; go back to your form, shorten the text and save again.`;
const unreadableForm = "The form could not be read (its body is cut off or malformed), so nothing was saved. Go back, reload the page and submit it again.";

/** Pages render in standards mode: the doctype JSX cannot express, then the escaped tree. */
async function render(c: Context<Env>, node: { toString(): string | Promise<string> }, status: 200 | 400 | 401 | 403 | 404 | 409 | 422 | 500 | 503 = 200): Promise<Response> {
  return c.html(`<!DOCTYPE html>${await node.toString()}`, status);
}
const flashes = new WeakMap<Session, NonNullable<Frame["flash"]>>();

/** A page answered without the team hive says so above its content. */
const noticed = (frame: Frame, notice: string | undefined): Frame => (notice ? { ...frame, notice } : frame);

/** Only our own paths: `back=https://evil` or `//evil` must not turn a form into an open redirect. */
function safeBack(raw: unknown, fallback: string): string {
  return typeof raw === "string" && /^\/(?![/\\])[^\s]*$/.test(raw) && raw.length < 2000 ? raw : fallback;
}

const str = (v: unknown) => (typeof v === "string" ? v : "");
const commaList = (v: string) => v.split(/[,\n]/).map((x) => x.trim()).filter(Boolean);
const lineList = (v: string) => v.split("\n").map((x) => x.trim()).filter(Boolean);
const opt = (v: string) => (v.trim() ? v.trim() : undefined);
/** The version of a lesson a decision form was shown with (reviewBasis), so a decision on a version changed since is refused. */
const seenOn = (body: Record<string, unknown>) => (typeof body.seen === "string" && body.seen ? { seen: body.seen } : {});

function statusOf(e: unknown): 400 | 403 | 404 | 409 | 422 | 500 | 503 {
  if (!isCairnError(e)) return 500;
  switch (e.code) {
    case "UNAVAILABLE":
      return 503;
    case "NOT_FOUND":
      return 404;
    case "FORBIDDEN":
      return 403;
    case "CONFLICT":
    case "FORCE_REQUIRED":
      return 409;
    case "REJECTED":
      return 422;
    case "INVALID_INPUT":
    case "INVALID_ID":
      return 400;
    default:
      return 500;
  }
}

/** The edit form's fields as the engine's LessonFields: every field named, so an emptied field is cleared. */
function fieldsFromForm(v: EditValues): LessonFields {
  return {
    title: opt(v.title),
    lesson: v.lesson.trim(),
    why: opt(v.why),
    category: (opt(v.category) as LessonFields["category"]) ?? undefined,
    root_cause: (opt(v.root_cause) as LessonFields["root_cause"]) ?? undefined,
    tags: commaList(v.tags),
    prevention: { rule: opt(v.rule), detection_pattern: opt(v.detection_pattern), suggested_guardrail: opt(v.guardrail) },
    applicability: { file_globs: lineList(v.file_globs), tech_stack: commaList(v.tech_stack), projects: commaList(v.projects) },
    // As sent: a value the form does not offer is the engine's to refuse (a mistyped one turned an enforced rule into a warning).
    enforcement: (opt(v.enforcement) as LessonFields["enforcement"]) ?? "warn",
  };
}

/**
 * The form as sent, over the stored values: a field the body leaves out (an older page, a hand-made request, a control
 * the browser did not send) keeps what is stored; a field sent empty clears it.
 */
function editValuesFromBody(body: Record<string, unknown>, stored: EditValues): EditValues {
  const keys = Object.keys(stored) as Array<keyof EditValues>;
  return Object.fromEntries(keys.map((k) => [k, Object.hasOwn(body, k) ? str(body[k]).replace(/\r\n/g, "\n") : stored[k]])) as unknown as EditValues;
}

export function createUiApp(opts: UiAppOptions): { app: Hono<Env>; sessions: Sessions } {
  const { cairn } = opts;
  const assets = opts.assets ?? new Assets();
  const sessions = new Sessions(opts.cookieName);
  const app = new Hono<Env>();

  const frame = (c: Context<Env>, title: string, nav?: Frame["nav"], entries: AssetEntry[] = ["main"]): Frame => {
    const s = c.get("session") as Session | undefined;
    const flash = s ? flashes.get(s) : undefined;
    if (s && flash) flashes.delete(s);
    // A damaged file reads as an empty tier: a signed-in person is told which file and how to repair it, as the CLI says on stderr.
    const damage = s ? cairn.damagedTiers().map((d) => d.message) : [];
    // A file this user cannot write is read fine: without a word, the first approval or edit would be the first sign.
    const readOnly = s ? cairn.readOnlyTiers().map((t) => readOnlyPageMessage(t.path, t.reason)) : [];
    return {
      title,
      ...(nav ? { nav } : {}),
      assets: assets.tags(...entries),
      project: cairn.project.name,
      ...(s ? { actor: s.actor, csrf: s.csrf } : {}),
      ...(flash ? { flash } : {}),
      ...(damage.length ? { damage } : {}),
      ...(readOnly.length ? { readOnly } : {}),
    };
  };
  const say = (c: Context<Env>, kind: "ok" | "error", text: string) => flashes.set(c.get("session"), { kind, text: text.slice(0, 600) });

  app.use("*", originGuard(opts.loopback));
  app.use("*", securityHeaders);
  app.use("*", bodyLimit({ maxSize: MAX_BODY, onError: (c) => c.text(tooLarge, 413) }));
  // A form body that cannot be read (cut off, a wrong multipart boundary) is the sender's mistake: said as such,
  // not a server failure with a stack trace in the terminal. Hono keeps the parsed form for the handlers.
  app.use("*", async (c, next) => {
    if (c.req.method === "POST" && !(await c.req.parseBody().then(() => true, () => false))) {
      return render(c, <ErrorPage frame={frame(c, "Not saved")} status={400} message={unreadableForm} />, 400);
    }
    await next();
  });

  app.get("/assets/*", (c) => {
    const file = assets.get(c.req.path);
    if (!file) return c.text("Not found", 404);
    return c.body(new Uint8Array(file.body), 200, { "content-type": file.type, "cache-control": "public, max-age=31536000, immutable" });
  });
  app.get("/favicon.ico", (c) => c.body(null, 204));

  const signIn = (c: Context<Env>, name: string, next: string) => {
    const s = sessions.create(name);
    sessions.setCookie(c, s);
    return c.redirect(safeBack(next, "/review"), 303);
  };

  app.get("/login", async (c) => {
    const next = safeBack(c.req.query("next"), "/review");
    const token = c.req.query("token");
    // The link printed at start (Jupyter style): the token is in the URL once, then a cookie session.
    if (token !== undefined) {
      if (secretMatches(token, opts.token)) return signIn(c, opts.defaultName, next);
      return render(c, <LoginPage frame={frame(c, "Sign in")} name={opts.defaultName} next={next} error="That token is not valid for this server." />, 401);
    }
    return render(c, <LoginPage frame={frame(c, "Sign in")} name={opts.defaultName} next={next} />);
  });

  app.post("/login", async (c) => {
    const body = await c.req.parseBody();
    const next = safeBack(body.next, "/review");
    const checked = checkName(str(body.name));
    const page = (error: string, status: 400 | 401) =>
      render(c, <LoginPage frame={frame(c, "Sign in")} name={str(body.name).slice(0, 60) || opts.defaultName} next={next} error={error} />, status);
    if (!secretMatches(str(body.token), opts.token)) return page("That token is not valid for this server.", 401);
    if ("problem" in checked) return page(checked.problem, 400);
    return signIn(c, checked.name, next);
  });

  // Everything below needs a session; a write also needs the session's CSRF token.
  app.use("*", async (c, next) => {
    const s = sessions.of(c);
    // A refused form is answered with a page that gives back what was typed: the edit is not lost with the session.
    const notSaved = async (message: string, status: 401 | 403) => {
      const body = c.req.method === "POST" ? await c.req.parseBody().catch(() => ({})) : {};
      return render(c, <NotSavedPage frame={frame(c, "Not saved")} message={message} kept={keptFields(body)} signIn="/login" />, status);
    };
    if (!s) {
      if (c.req.method !== "GET" && c.req.method !== "HEAD") return notSaved("Sign in first: your session ended (signed out, or `cairn ui` restarted), so nothing was saved. Open the link `cairn ui` printed, or /login.", 401);
      return c.redirect(`/login?next=${encodeURIComponent(c.req.path + (new URL(c.req.url).search || ""))}`, 303);
    }
    if (c.req.method === "POST") {
      const body = await c.req.parseBody();
      const given = c.req.header("x-csrf-token") ?? str(body._csrf);
      if (!secretMatches(given, s.csrf)) return notSaved("Forbidden: missing or stale form token (the page was opened before you signed in again); nothing was saved. Reload the page and try again.", 403);
    }
    c.set("session", s);
    await next();
  });

  app.post("/logout", (c) => {
    sessions.drop(c);
    return c.redirect("/login", 303);
  });

  app.get("/", (c) => c.redirect("/review", 303));

  app.get("/review", async (c) => {
    const actor = c.get("session").actor;
    const queue = await cairn.reviewQueue({ limit: 200, actor });
    const sel = c.req.query("sel");
    const selected = queue.items.find((i) => i.entry.id === sel) ?? queue.items[0];
    const neighbours = selected ? await cairn.nearest(selected.entry.id, 3) : [];
    return render(c, <ReviewPage frame={noticed(frame(c, "Review", "review"), queue.hive_unreachable)} view={{ queue, neighbours, ...(selected ? { selected } : {}) }} />);
  });

  app.get("/lessons", async (c) => {
    const q = c.req.query();
    const params: LessonsParams = {};
    for (const k of ["q", "tier", "status", "category", "kind", "scope", "tags", "project"] as const) if (q[k]) params[k] = q[k]!.slice(0, 200);
    const list = (v: string | undefined) => (v ? commaList(v) : undefined);
    const page = await cairn.browse({
      ...(params.q ? { text: params.q } : {}),
      tier: params.tier === "swarm" || params.tier === "hive" ? params.tier : "all",
      statuses: list(params.status) as never,
      categories: list(params.category) as never,
      kinds: list(params.kind) as never,
      scopes: list(params.scope),
      tags: list(params.tags),
      projects: list(params.project),
      ...(q.sort ? { sort: q.sort as PageSort } : {}),
      desc: q.dir !== "asc",
      ...(q.cursor ? { cursor: q.cursor } : {}),
      limit: 50,
    });
    const projects = (await cairn.sourceProjects(50)).map((p) => ({ id: p.project_id, label: `${p.project_name ?? p.project_id} (${p.tiers.join(", ")})` }));
    return render(c, <LessonsPage frame={noticed(frame(c, "Lessons", "lessons"), page.hive_unreachable)} params={params} page={page} projects={projects} first={!q.cursor} />);
  });

  app.get("/lessons/:ref", async (c) => {
    const detail = await cairn.lessonDetail(c.req.param("ref"));
    return render(c, <LessonPage frame={frame(c, detail.entry.handle, "lessons")} detail={detail} />);
  });

  app.get("/lessons/:ref/edit", async (c) => {
    const entry = await cairn.get(c.req.param("ref"));
    const back = safeBack(c.req.query("back"), `/lessons/${encodeURIComponent(entry.id)}`);
    return render(c, <EditPage frame={frame(c, `Edit ${entry.handle}`, "lessons")} entry={entry} values={editValuesOf(entry)} basis={editBasis(entry)} back={back} errors={[]} maxBytes={MAX_BODY} />);
  });

  app.post("/lessons/:ref/edit", async (c) => {
    const body = await c.req.parseBody();
    const entry = await cairn.get(c.req.param("ref"));
    const back = safeBack(body.back, `/lessons/${encodeURIComponent(entry.id)}`);
    const values = editValuesFromBody(body, editValuesOf(entry));
    // What the form was opened on: a save over someone else's change since is refused, not applied.
    const basis = typeof body.basis === "string" && body.basis ? body.basis : undefined;
    try {
      const r = await cairn.edit(entry.id, fieldsFromForm(values), c.get("session").actor, "web", basis ? { basis } : {});
      say(c, "ok", r.changed.length ? `Saved ${r.entry.handle}: ${r.changed.join(", ")} changed.${r.warnings.length ? ` Warnings: ${r.warnings.join("; ")}` : ""}` : `Nothing to save: ${r.entry.handle} already holds what the form says.`);
      return c.redirect(back, 303);
    } catch (thrown) {
      const e = asCairnError(thrown);
      if (!isCairnError(e) || !["REJECTED", "INVALID_INPUT", "INVALID_ID", "NOT_FOUND", "CONFLICT"].includes(e.code)) throw e;
      const issues = (e.details?.issues as Array<{ severity: string; message: string }> | undefined)?.filter((i) => i.severity === "reject").map((i) => i.message);
      const errors = issues?.length ? issues : [e.message];
      // After a conflict the form is based on the current version: saving again is the person's informed choice.
      const current = e.code === "CONFLICT" ? await cairn.get(entry.id) : entry;
      const shownBasis = e.code === "CONFLICT" ? editBasis(current) : (basis ?? "");
      const status = statusOf(e);
      const page = (
        <EditPage
          frame={frame(c, `Edit ${current.handle}`, "lessons")} entry={current} values={values} basis={shownBasis} back={back} errors={errors} maxBytes={MAX_BODY}
          {...(e.code === "CONFLICT" ? { current: editValuesOf(current) } : {})}
        />
      );
      return render(c, page, status === 404 || status === 409 ? status : 422);
    }
  });

  /** An action's outcome goes back to where the person was, as a one-line message. */
  const act = (fn: (c: Context<Env>, ref: string, body: Record<string, unknown>, actor: string) => Promise<string>) => async (c: Context<Env>) => {
    const body = await c.req.parseBody();
    const ref = c.req.param("ref") ?? "";
    const back = safeBack(body.back, "/review");
    try {
      say(c, "ok", await fn(c, ref, body, c.get("session").actor));
    } catch (thrown) {
      const e = asCairnError(thrown);
      if (!isCairnError(e)) throw e;
      say(c, "error", e.message);
    }
    return c.redirect(back, 303);
  };

  app.post(
    "/lessons/:ref/approve",
    act(async (_c, ref, body, actor) => {
      const r = await cairn.approve(ref, actor, seenOn(body));
      if (r.unchanged) return `${r.entry.handle} was already approved.`;
      const said = describeApproval(r);
      return `${said[0]!.toUpperCase()}${said.slice(1)}.`;
    }),
  );
  app.post(
    "/lessons/:ref/reject",
    act(async (_c, ref, body, actor) => {
      const e = await cairn.reject(ref, str(body.reason), actor, seenOn(body));
      return `Rejected ${e.handle} (archived).`;
    }),
  );
  app.post(
    "/lessons/:ref/archive",
    act(async (_c, ref, body, actor) => {
      const e = await cairn.archive(ref, opt(str(body.reason)) ?? `archived in review by ${actor}`, actor);
      return `Archived ${e.handle}.`;
    }),
  );
  app.post(
    "/lessons/:ref/quarantine",
    act(async (_c, ref, body, actor) => {
      const e = await cairn.quarantine(ref, str(body.reason).trim(), actor);
      return e.lifecycle.status === "quarantined" ? `Quarantined ${e.handle}: no agent is shown it until a person restores it.` : `${e.handle} is ${e.lifecycle.status}; it was not quarantined.`;
    }),
  );
  app.post(
    "/lessons/:ref/supersede",
    act(async (_c, ref, body, actor) => {
      const replacement = await cairn.get(ref);
      // A draft replaces a lesson only once a person vouches for it: approve first, so a refused approval retires nothing.
      if (replacement.lifecycle.status === "draft") await cairn.approve(replacement.id, actor);
      const r = await cairn.supersede(str(body.old), replacement.id, actor);
      return `${r.replacement.handle} now supersedes ${r.old.handle}.`;
    }),
  );

  app.get("/dashboard", async (c) => {
    const weeks = Number(c.req.query("weeks") ?? 12);
    const d = await cairn.dashboard({ weeks: Number.isFinite(weeks) ? weeks : 12 });
    return render(c, <DashboardPage frame={noticed(frame(c, "Dashboard", "dashboard", ["main", "dashboard"]), d.hive_unreachable)} d={d} />);
  });

  const advisoryRules = (cursor: string | undefined) =>
    cairn.browse({ advisory: true, statuses: ["established", "promoted"], sort: "created", limit: 50, ...(cursor ? { cursor } : {}) });

  app.get("/advisories", async (c) => {
    const cursor = c.req.query("cursor");
    const rules = await advisoryRules(cursor);
    return render(c, <AdvisoriesPage frame={noticed(frame(c, "Advisories", "advisories"), rules.hive_unreachable)} rules={rules} input={{ files: "", text: "", tool: "" }} {...(cursor ? { cursor } : {})} />);
  });

  app.post("/advisories/check", async (c) => {
    const body = await c.req.parseBody();
    const input: CheckInput = { files: str(body.files).slice(0, 20_000), text: str(body.text).slice(0, 100_000), tool: (CHECK_TOOLS as readonly string[]).includes(str(body.tool)) ? str(body.tool) : "" };
    const results = await cairn.checkAdvisories({
      files: lineList(input.files),
      text: input.text,
      ...(input.tool ? { tool: input.tool } : {}),
      actor: c.get("session").actor,
      record: false,
    });
    const rules = await advisoryRules(undefined);
    return render(c, <AdvisoriesPage frame={noticed(frame(c, "Advisories", "advisories"), rules.hive_unreachable)} rules={rules} input={input} results={results} />);
  });

  app.notFound((c) => render(c, <ErrorPage frame={frame(c, "Not found")} status={404} message="No such page." />, 404));
  app.onError((thrown, c) => {
    const e = asCairnError(thrown);
    const status = statusOf(e);
    if (status === 500) process.stderr.write(`cairn ui: ${(e as Error).stack ?? String(e)}\n`);
    const message = status === 500 ? "The server failed on this request; details are in the terminal running `cairn ui`." : (e as Error).message;
    return render(c, <ErrorPage frame={frame(c, "Error")} status={status} message={message} />, status);
  });

  return { app, sessions };
}
