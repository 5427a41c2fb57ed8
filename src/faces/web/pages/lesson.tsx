// One lesson: every field, usage, where it would be injected, lineage and its event timeline; and the edit form.
import { derivedFromLabel } from "../../../core/derived-from.js";
import { REASON_MAX, REJECT_REASON_MAX } from "../../../core/free-text.js";
import { CATEGORIES, ENFORCEMENTS, LIVE_STATUSES, ROOT_CAUSES, type Entry, type EntryEvent } from "../../../core/entry.js";
import { withHandles } from "../../../core/entry-links.js";
import { reviewBasis } from "../../../governance/edit-basis.js";
import type { LessonDetail, LinkedEntry, Reach } from "../../../governance/lesson-detail.js";
import { ActionForm, Layout, type Frame } from "./layout.js";
import { clip, entryHref, Field, LessonFields, List, num, pct, StatusBadge, Time } from "./parts.js";

function Linked(props: { l: LinkedEntry | undefined }) {
  const l = props.l;
  if (!l) return null;
  if (l.missing || !l.handle) {
    return (
      <span class="dim">
        {l.id} (not in this project{l.project_id ? `; from project ${l.project_id}` : ""})
      </span>
    );
  }
  return (
    <span>
      <a href={entryHref(l)} class="handle">
        {l.handle}
      </a>{" "}
      {l.status ? <StatusBadge status={l.status} /> : null} {clip(l.lesson ?? "", 100)}
    </span>
  );
}

/** Plain sentences: where this lesson reaches an agent, and where it never will. */
function reachSentences(r: Reach): string[] {
  const out: string[] = [];
  if (!r.live) {
    out.push(r.status === "draft" ? "Not injected: a draft waits for a person's approval." : `Not injected: it is ${r.status}.`);
    return out;
  }
  out.push(r.scope_default ? `Scope ${r.scope}: recalled and injected by default.` : `Scope ${r.scope}: only when the context's stack matches.`);
  if (r.projects.length) out.push(`Projects: ${r.projects.join(", ")}${r.applies_here ? " (includes this one)" : " (not this one)"}.`);
  out.push(r.agents.length ? `Agents: ${r.agents.join(", ")}.` : "Agents: the orchestrators' turns (architect, build, plan by default).");
  if (r.tools.length) out.push(`Tools: ${r.tools.join(", ")}.`);
  if (r.directive) out.push("A directive: delegated agents it fits get it too.");
  if (r.file_globs.length) out.push(`Ranked up when these files are in play: ${r.file_globs.join(", ")}.`);
  if (r.tech_stack.length) out.push(`Ranked up for the stack: ${r.tech_stack.join(", ")}.`);
  if (r.triggers.length) out.push(`Ranked up when the context mentions: ${r.triggers.join(", ")}.`);
  if (r.advisory) out.push(`Pre-action advisory before matching edits or commands (${r.enforcement === "enforce" ? "enforced: the call is stopped" : "a warning"}).`);
  return out;
}

function eventSummary(ev: EntryEvent, handles: Readonly<Record<string, string>>): string {
  const d = withHandles(ev.data, handles);
  const parts: string[] = [];
  for (const k of ["from", "reason", "review", "verdict", "route", "source", "by", "supersedes", "hive_id", "phase", "agent", "matched", "note"]) {
    const v = d[k];
    if (typeof v === "string" || typeof v === "number") parts.push(`${k}: ${String(v)}`);
  }
  if (Array.isArray(d.fields)) parts.push(`fields: ${d.fields.join(", ")}`);
  return clip(parts.join(" · "), 240);
}

function Timeline(props: { events: EntryEvent[]; handles: Readonly<Record<string, string>> }) {
  return (
    <ol class="timeline" aria-label="Event history">
      {props.events.map((ev) => (
        <li class={`ev-${ev.type}`}>
          <Time iso={ev.at} /> <strong>{ev.type}</strong> <span class="dim">by {ev.actor}</span>
          {eventSummary(ev, props.handles) ? <div class="dim">{eventSummary(ev, props.handles)}</div> : null}
        </li>
      ))}
    </ol>
  );
}

export function LessonPage(props: { frame: Frame; detail: LessonDetail }) {
  const { entry: e, lineage, reach, events, utility } = props.detail;
  const id = encodeURIComponent(e.id);
  const csrf = props.frame.csrf ?? "";
  const u = e.usage;
  return (
    <Layout {...props.frame}>
      <h1>
        {e.handle} <StatusBadge status={e.lifecycle.status} /> <span class="dim">{e.tier}</span>
      </h1>
      {e.title ? <p class="title">{e.title}</p> : null}
      <div class="actions">
        <a class="button" href={`/lessons/${id}/edit`}>
          Edit
        </a>
        {["draft", "candidate"].includes(e.lifecycle.status) || (["established", "promoted"].includes(e.lifecycle.status) && !e.provenance.approved_at) ? (
          <ActionForm action={`/lessons/${id}/approve`} csrf={csrf} class="inline">
            <input type="hidden" name="back" value={`/lessons/${id}`} />
            <input type="hidden" name="seen" value={reviewBasis(e)} />
            <button type="submit" class="primary">
              Approve
            </button>
          </ActionForm>
        ) : null}
        {["draft", "candidate"].includes(e.lifecycle.status) ? (
          <ActionForm action={`/lessons/${id}/reject`} csrf={csrf} class="inline">
            <input type="hidden" name="back" value={`/lessons/${id}`} />
            <input type="hidden" name="seen" value={reviewBasis(e)} />
            <label for="lesson-reject-reason" class="sr-only">
              Reason
            </label>
            <input id="lesson-reject-reason" name="reason" type="text" maxlength={REJECT_REASON_MAX} placeholder="reason (optional)" />
            <button type="submit" class="danger">
              Reject
            </button>
          </ActionForm>
        ) : null}
        {LIVE_STATUSES.includes(e.lifecycle.status) ? (
          // As `cairn quarantine`: hidden from every agent until a person restores it.
          <ActionForm action={`/lessons/${id}/quarantine`} csrf={csrf} class="inline">
            <input type="hidden" name="back" value={`/lessons/${id}`} />
            <label for="lesson-quarantine-reason" class="sr-only">
              Why quarantine it
            </label>
            <input id="lesson-quarantine-reason" name="reason" type="text" maxlength={REASON_MAX} placeholder="what is wrong with it (optional)" />
            <button type="submit" class="danger" title="Hide it from every agent until a person restores it">
              Quarantine
            </button>
          </ActionForm>
        ) : null}
      </div>
      <div class="columns">
        <section aria-labelledby="h-fields">
          <h2 id="h-fields">Fields</h2>
          <LessonFields entry={e} />
          <dl class="fields">
            <Field label="Id" value={e.id} mono />
            <Field label="Confidence" value={e.lifecycle.confidence.toFixed(2)} />
            <Field label="Confirmations" value={String(e.lifecycle.confirmations.length)} />
            <Field label="Phases alive" value={String(e.lifecycle.phases_alive)} />
            <Field label="Approved by" value={e.provenance.approved_by} />
            <Field label="Approved" value={e.provenance.approved_at ? <Time iso={e.provenance.approved_at} /> : undefined} />
            <Field label="Source project" value={e.provenance.source_project_name ?? e.provenance.source_project_id} />
            <Field label="Derived from" value={derivedFromLabel(e.provenance.derived_from) ?? ""} />
            <Field label="Session" value={e.provenance.session_id} mono />
            <Field label="Imported id" value={e.provenance.external_id} mono />
            <Field label="Required" value={e.directive.required_actions.length ? <List items={e.directive.required_actions} /> : undefined} />
            <Field label="Forbidden" value={e.directive.forbidden_actions.length ? <List items={e.directive.forbidden_actions} /> : undefined} />
            <Field label="Checks" value={e.directive.verification_checks.length ? <List items={e.directive.verification_checks} /> : undefined} />
            <Field label="Priority" value={e.directive.priority} />
            <Field label="Updated" value={<Time iso={e.updated_at} />} />
          </dl>
        </section>
        <section aria-labelledby="h-usage">
          <h2 id="h-usage">Usage</h2>
          <table class="usage">
            <caption class="sr-only">Usage counters</caption>
            <tbody>
              {(
                [
                  ["Shown", u.shown],
                  ["Applied", u.applied],
                  ["Ignored", u.ignored],
                  ["Violated", u.violated],
                  ["Prevented", u.prevented],
                  ["Consulted (advisories)", u.consulted],
                ] as const
              ).map(([k, v]) => (
                <tr>
                  <th scope="row">{k}</th>
                  <td class="num">{num(v)}</td>
                </tr>
              ))}
              <tr>
                <th scope="row">Helpful / harmful</th>
                <td class="num">
                  {u.helpful.toFixed(1)} / {u.harmful.toFixed(1)}
                </td>
              </tr>
              <tr>
                <th scope="row">Utility</th>
                <td class="num">{pct(utility)}</td>
              </tr>
            </tbody>
          </table>
          <h2 id="h-reach">Where it would be injected</h2>
          <ul class="reach" aria-labelledby="h-reach">
            {reachSentences(reach).map((s) => (
              <li>{s}</li>
            ))}
          </ul>
          <h2 id="h-lineage">Lineage</h2>
          <dl class="fields" aria-labelledby="h-lineage">
            <Field label="Supersedes" value={lineage.supersedes ? <Linked l={lineage.supersedes} /> : undefined} />
            <Field label="Superseded by" value={lineage.superseded_by ? <Linked l={lineage.superseded_by} /> : undefined} />
            <Field label="Promoted from" value={lineage.promoted_from ? <Linked l={lineage.promoted_from} /> : undefined} />
            <Field label="Promoted to" value={lineage.promoted_to ? <Linked l={lineage.promoted_to} /> : undefined} />
            <Field
              label="Contradicts"
              value={lineage.contradicts.length ? <ul class="plain">{lineage.contradicts.map((l) => <li><Linked l={l} /></li>)}</ul> : undefined}
            />
            <Field label="Merged duplicates" value={lineage.merged.length ? `${lineage.merged.length} sighting(s) reinforced it` : undefined} />
          </dl>
          {!lineage.supersedes && !lineage.superseded_by && !lineage.promoted_from && !lineage.promoted_to && !lineage.contradicts.length && !lineage.merged.length ? (
            <p class="dim">No links: an original lesson, never merged or replaced.</p>
          ) : null}
        </section>
      </div>
      <section aria-labelledby="h-history">
        <h2 id="h-history">History</h2>
        <Timeline events={events} handles={props.detail.handles} />
      </section>
    </Layout>
  );
}

export interface EditValues {
  title: string;
  lesson: string;
  why: string;
  category: string;
  root_cause: string;
  tags: string;
  rule: string;
  detection_pattern: string;
  guardrail: string;
  file_globs: string;
  tech_stack: string;
  projects: string;
  enforcement: string;
}

export function editValuesOf(e: Entry): EditValues {
  return {
    title: e.title ?? "",
    lesson: e.lesson,
    why: e.why ?? "",
    category: e.category,
    root_cause: e.root_cause ?? "",
    tags: e.tags.join(", "),
    rule: e.prevention.rule ?? "",
    detection_pattern: e.prevention.detection_pattern ?? "",
    guardrail: e.prevention.suggested_guardrail ?? "",
    file_globs: e.applicability.file_globs.join("\n"),
    tech_stack: e.applicability.tech_stack.join(", "),
    projects: e.applicability.projects.join(", "),
    enforcement: e.directive.enforcement,
  };
}

function Text(props: { name: keyof EditValues; label: string; v: EditValues; rows?: number; hint?: string; mono?: boolean }) {
  const id = `f-${props.name}`;
  return (
    <div class="form-row">
      <label for={id}>{props.label}</label>
      {props.rows ? (
        <textarea id={id} name={props.name} rows={props.rows} class={props.mono ? "mono" : undefined}>
          {props.v[props.name]}
        </textarea>
      ) : (
        <input id={id} name={props.name} type="text" value={props.v[props.name]} class={props.mono ? "mono" : undefined} />
      )}
      {props.hint ? <small class="dim">{props.hint}</small> : null}
    </div>
  );
}

function Choice(props: { name: keyof EditValues; label: string; v: EditValues; options: readonly string[]; blank?: boolean }) {
  const id = `f-${props.name}`;
  return (
    <div class="form-row">
      <label for={id}>{props.label}</label>
      <select id={id} name={props.name}>
        {props.blank ? <option value="">—</option> : null}
        {props.options.map((o) => (
          <option value={o} selected={props.v[props.name] === o}>
            {o}
          </option>
        ))}
      </select>
    </div>
  );
}

/** `basis`: the version the form was opened on (governance/edit-basis.ts), sent back so a save over someone else's change is caught. */
/** The edit form's fields as a person reads their names, in the form's order. */
const FIELD_LABELS: ReadonlyArray<[keyof EditValues, string]> = [
  ["title", "Title"], ["lesson", "Lesson"], ["why", "Why it matters"], ["category", "Category"], ["root_cause", "Root cause"], ["tags", "Tags"],
  ["rule", "Prevention rule"], ["detection_pattern", "Detection pattern"], ["guardrail", "Suggested guardrail"], ["file_globs", "File globs"],
  ["tech_stack", "Tech stack"], ["projects", "Projects"], ["enforcement", "Enforcement"],
];

/**
 * After a refused save over someone else's change: the stored version's fields that differ from the form,
 * side by side, so saving again is a choice made seeing what it replaces (the form keeps what was typed).
 */
function ChangedSince(props: { current: EditValues; yours: EditValues }) {
  const differ = FIELD_LABELS.filter(([k]) => props.current[k].trim() !== props.yours[k].trim());
  if (!differ.length) return null;
  return (
    <section class="conflict" aria-labelledby="conflict-title">
      <h2 id="conflict-title">The current version, where it differs from your form</h2>
      <div class="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">Field</th>
              <th scope="col">Saved now</th>
              <th scope="col">Your form (not saved)</th>
            </tr>
          </thead>
          <tbody>
            {differ.map(([k, label]) => (
              <tr>
                <th scope="row">{label}</th>
                <td class="lesson-text">{props.current[k] || "(empty)"}</td>
                <td class="lesson-text">{props.yours[k] || "(empty)"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

export function EditPage(props: { frame: Frame; entry: Entry; values: EditValues; basis: string; back: string; errors: string[]; maxBytes: number; current?: EditValues }) {
  const e = props.entry;
  const v = props.values;
  return (
    <Layout {...props.frame}>
      <h1>
        Edit {e.handle} <StatusBadge status={e.lifecycle.status} />
      </h1>
      {props.errors.length ? (
        <div class="flash error" role="alert">
          <p>Not saved:</p>
          <ul>
            {props.errors.map((m) => (
              <li>{m}</li>
            ))}
          </ul>
        </div>
      ) : null}
      {props.current ? <ChangedSince current={props.current} yours={v} /> : null}
      <ActionForm action={`/lessons/${encodeURIComponent(e.id)}/edit`} csrf={props.frame.csrf ?? ""} class="edit" maxBytes={props.maxBytes}>
        <input type="hidden" name="back" value={props.back} />
        <input type="hidden" name="basis" value={props.basis} />
        <Text name="title" label="Title" v={v} />
        <Text name="lesson" label="Lesson" v={v} rows={4} hint="15–280 characters; checked by the same gates as a new lesson." />
        <Text name="why" label="Why it matters" v={v} rows={2} />
        <Choice name="category" label="Category" v={v} options={CATEGORIES} />
        <Choice name="root_cause" label="Root cause" v={v} options={ROOT_CAUSES} blank />
        <Text name="tags" label="Tags" v={v} hint="comma-separated" />
        <Text name="rule" label="Prevention rule" v={v} rows={2} />
        <Text name="detection_pattern" label="Detection pattern" v={v} mono hint="regex (re2), glob or keywords" />
        <Text name="guardrail" label="Suggested guardrail" v={v} rows={2} />
        <Text name="file_globs" label="File globs" v={v} rows={3} mono hint="one per line" />
        <Text name="tech_stack" label="Tech stack" v={v} hint="comma-separated" />
        <Text name="projects" label="Projects" v={v} hint="comma-separated names or ids; * or empty for any" />
        <Choice name="enforcement" label="Enforcement" v={v} options={ENFORCEMENTS} />
        <div class="actions">
          <button type="submit" class="primary">
            Save
          </button>
          <a class="button" href={props.back}>
            Cancel
          </a>
        </div>
      </ActionForm>
    </Layout>
  );
}
