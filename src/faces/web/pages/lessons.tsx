// The lessons table: search box, filters, sortable columns and next-page links (keyset cursors from the engine).
import { CATEGORIES, KINDS, STATUS_FILTERS, type Entry } from "../../../core/entry.js";
import type { BrowsePage } from "../../../governance/browse.js";
import type { PageSort } from "../../../store/store.js";
import { Layout, type Frame } from "./layout.js";
import { clip, EntryLink, num, StatusBadge, when } from "./parts.js";

/** The query string as the page received it (already validated by the engine call). */
export interface LessonsParams {
  q?: string;
  tier?: string;
  status?: string;
  category?: string;
  kind?: string;
  scope?: string;
  tags?: string;
  project?: string;
}

export interface ProjectOption {
  id: string;
  label: string;
}

const COLUMNS: Array<{ sort?: PageSort; label: string; class?: string }> = [
  { label: "Lesson" },
  { label: "Status" },
  { label: "Tier" },
  { label: "Category" },
  { label: "Kind" },
  { sort: "confidence", label: "Confidence", class: "num" },
  { sort: "shown", label: "Shown", class: "num" },
  { sort: "applied", label: "Applied", class: "num" },
  { sort: "created", label: "Created" },
  { sort: "updated", label: "Updated" },
];

export function lessonsHref(p: LessonsParams, extra: Record<string, string | undefined> = {}): string {
  const u = new URLSearchParams();
  for (const [k, v] of Object.entries({ ...p, ...extra })) if (v) u.set(k, v);
  const qs = u.toString();
  return qs ? `/lessons?${qs}` : "/lessons";
}

function Select(props: { name: string; label: string; value?: string; options: ReadonlyArray<string | { id: string; label: string }> }) {
  return (
    <label>
      {props.label}
      <select name={props.name}>
        <option value="">any</option>
        {props.options.map((o) => {
          const id = typeof o === "string" ? o : o.id;
          return (
            <option value={id} selected={props.value === id}>
              {typeof o === "string" ? o : o.label}
            </option>
          );
        })}
      </select>
    </label>
  );
}

function Row(props: { e: Entry; promotedFrom?: { handle: string } | undefined }) {
  const e = props.e;
  return (
    <tr>
      <td class="lesson-cell">
        <EntryLink entry={e} /> <span>{clip(e.title ?? e.lesson, 140)}</span>
        {props.promotedFrom ? <span class="dim"> · promoted from this project's {props.promotedFrom.handle}</span> : null}
      </td>
      <td>
        <StatusBadge status={e.lifecycle.status} />
      </td>
      <td>{e.tier}</td>
      <td>{e.category}</td>
      <td>{e.kind}</td>
      <td class="num">{e.lifecycle.confidence.toFixed(2)}</td>
      <td class="num">{num(e.usage.shown)}</td>
      <td class="num">{num(e.usage.applied)}</td>
      <td>{when(e.created_at).slice(0, 10)}</td>
      <td>{when(e.updated_at).slice(0, 10)}</td>
    </tr>
  );
}

export function LessonsPage(props: { frame: Frame; params: LessonsParams; page: BrowsePage; projects: ProjectOption[]; first: boolean }) {
  const { params: p, page } = props;
  const sortHref = (sort: PageSort) => lessonsHref(p, { sort, dir: page.sort === sort && page.desc ? "asc" : "desc" });
  return (
    <Layout {...props.frame}>
      <h1>Lessons</h1>
      <form method="get" action="/lessons" class="filters" role="search">
        <label class="grow">
          Search
          <input type="search" name="q" value={p.q ?? ""} placeholder="words in the lesson, title, rule, tags, globs…" aria-keyshortcuts="/" />
        </label>
        <Select name="tier" label="Tier" value={p.tier} options={["swarm", "hive"]} />
        <Select name="status" label="Status" value={p.status} options={STATUS_FILTERS} />
        <Select name="category" label="Category" value={p.category} options={CATEGORIES} />
        <Select name="kind" label="Kind" value={p.kind} options={KINDS} />
        <label>
          Scope
          <input type="text" name="scope" value={p.scope ?? ""} placeholder="global, stack:node" size={12} />
        </label>
        <label>
          Tags
          <input type="text" name="tags" value={p.tags ?? ""} placeholder="auth, db" size={12} />
        </label>
        <Select name="project" label="Project" value={p.project} options={props.projects} />
        <button type="submit" class="primary">
          Search
        </button>
        <a href="/lessons" class="button">
          Clear
        </a>
      </form>
      <p class="dim" role="status" id="result-count">
        {page.capped ? `${num(page.total)}+` : num(page.total)} {page.total === 1 ? "lesson" : "lessons"}
        {page.sort === "relevance" ? " · by relevance" : ` · by ${page.sort}, ${page.desc ? "descending" : "ascending"}`}
      </p>
      <div class="table-wrap">
        <table class="lessons">
          <caption class="sr-only">Lessons matching the search and filters</caption>
          <thead>
            <tr>
              {COLUMNS.map((c) => (
                <th
                  scope="col"
                  class={c.class}
                  aria-sort={c.sort && page.sort === c.sort ? (page.desc ? "descending" : "ascending") : undefined}
                >
                  {c.sort ? (
                    <a href={sortHref(c.sort)}>
                      {c.label}
                      {page.sort === c.sort ? (page.desc ? " ↓" : " ↑") : ""}
                    </a>
                  ) : (
                    c.label
                  )}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {page.entries.map((e) => (
              <Row e={e} promotedFrom={page.promoted_from?.[e.id]} />
            ))}
          </tbody>
        </table>
      </div>
      {page.entries.length === 0 ? <p class="empty">No lesson matches.</p> : null}
      <nav class="pager" aria-label="Pages">
        {!props.first ? <a href={lessonsHref(p, { sort: page.sort, dir: page.desc ? "desc" : "asc" })}>⇤ First page</a> : null}
        {page.next ? (
          <a href={lessonsHref(p, { sort: page.sort, dir: page.desc ? "desc" : "asc", cursor: page.next })} rel="next">
            Next page →
          </a>
        ) : null}
      </nav>
    </Layout>
  );
}
