// Small pieces several pages show: status badges, entry links, dates, numbers, field lists.
import type { Child } from "hono/jsx";
import type { Entry, Status } from "../../../core/entry.js";

export const entryHref = (e: Pick<Entry, "id">) => `/lessons/${encodeURIComponent(e.id)}`;

export function StatusBadge(props: { status: Status }) {
  return <span class={`badge st-${props.status}`}>{props.status}</span>;
}

export function EntryLink(props: { entry: Pick<Entry, "id" | "handle"> }) {
  return (
    <a href={entryHref(props.entry)} class="handle">
      {props.entry.handle}
    </a>
  );
}

/** Whole minutes in UTC: precise enough for people, and the same on every machine. */
export function when(iso: string | undefined): string {
  if (!iso) return "—";
  return iso.replace("T", " ").slice(0, 16) + " UTC";
}

export function Time(props: { iso: string | undefined }) {
  return props.iso ? <time datetime={props.iso}>{when(props.iso)}</time> : <span>—</span>;
}

export const pct = (x: number | null | undefined) => (x === null || x === undefined ? "—" : `${Math.round(x * 100)}%`);
export const num = (n: number) => n.toLocaleString("en-US");

export function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** A definition list row that disappears when there is nothing to show. */
export function Field(props: { label: string; value?: Child | string | undefined; mono?: boolean }) {
  const v = props.value;
  if (v === undefined || v === null || v === "" || (Array.isArray(v) && v.length === 0)) return null;
  return (
    <div class="field">
      <dt>{props.label}</dt>
      <dd class={props.mono ? "mono" : undefined}>{v}</dd>
    </div>
  );
}

export function List(props: { items: readonly string[]; mono?: boolean }) {
  if (!props.items.length) return null;
  return (
    <ul class={`chips${props.mono ? " mono" : ""}`}>
      {props.items.map((x) => (
        <li>{x}</li>
      ))}
    </ul>
  );
}

/** Every structured field of a lesson, as a reviewer needs to see them. */
export function LessonFields(props: { entry: Entry }) {
  const e = props.entry;
  return (
    <dl class="fields">
      <Field label="Title" value={e.title} />
      <Field label="Lesson" value={<p class="lesson-text">{e.lesson}</p>} />
      <Field label="Why it matters" value={e.why} />
      <Field label="Category" value={e.category} />
      <Field label="Kind" value={e.kind} />
      <Field label="Root cause" value={e.root_cause} />
      <Field label="Prevention rule" value={e.prevention.rule} />
      <Field label="Detection pattern" value={e.prevention.detection_pattern} mono />
      <Field label="Suggested guardrail" value={e.prevention.suggested_guardrail} />
      <Field label="Tags" value={e.tags.length ? <List items={e.tags} /> : undefined} />
      <Field label="File globs" value={e.applicability.file_globs.length ? <List items={e.applicability.file_globs} mono /> : undefined} />
      <Field label="Tech stack" value={e.applicability.tech_stack.length ? <List items={e.applicability.tech_stack} /> : undefined} />
      <Field label="Projects" value={e.applicability.projects.length ? <List items={e.applicability.projects} /> : undefined} />
      <Field label="Scope" value={e.applicability.scope} />
      <Field label="Enforcement" value={e.directive.enforcement} />
      <Field label="Created by" value={e.provenance.created_by} />
      <Field label="Created" value={<Time iso={e.created_at} />} />
      <Field label="Flags" value={e.lifecycle.flags.length ? <List items={e.lifecycle.flags} /> : undefined} />
      <Field label="Status reason" value={e.lifecycle.status_reason} />
    </dl>
  );
}
