// The review queue: drafts and flagged lessons on the left, the selected one with its nearest neighbours and the actions on the right.
import type { Entry } from "../../../core/entry.js";
import { REJECT_REASON_MAX } from "../../../core/free-text.js";
import { reviewBasis } from "../../../governance/edit-basis.js";
import type { Neighbour, ReviewItem, ReviewQueue, ReviewReason } from "../../../governance/queue.js";
import { ActionForm, Layout, type Frame } from "./layout.js";
import { clip, EntryLink, entryHref, LessonFields, pct, StatusBadge } from "./parts.js";

export interface ReviewView {
  queue: ReviewQueue;
  selected?: ReviewItem;
  neighbours: Neighbour[];
}

const reviewHref = (id: string) => `/review?sel=${encodeURIComponent(id)}`;

function reasonLabel(r: ReviewReason): string {
  if (r.kind === "draft") return "draft";
  if (r.kind === "contradiction") return "contradiction";
  if (r.kind === "quarantine_request") return `quarantine requested (${r.requests.length})`;
  if (r.kind === "origin_superseded") return "origin superseded";
  if (r.kind === "silenced") return `silenced (${+r.harmful.toFixed(1)} harmful, ${+r.helpful.toFixed(1)} helpful)`;
  return `low utility ${pct(r.utility)}`;
}

function Reasons(props: { reasons: ReviewReason[] }) {
  return (
    <span class="reasons">
      {props.reasons.map((r) => (
        <span class={`badge why-${r.kind}`}>{reasonLabel(r)}</span>
      ))}
    </span>
  );
}

// Approving an approved lesson again is how a person keeps it and dismisses agents' quarantine requests.
const approvable = (e: Entry) =>
  ["draft", "candidate", "established", "promoted"].includes(e.lifecycle.status) &&
  (!(e.provenance.approved_at && e.lifecycle.status !== "draft") || e.lifecycle.flags.some((f) => f.startsWith("quarantine-requested:") || f.startsWith("origin-superseded:")));
const rejectable = (e: Entry) => e.lifecycle.status === "draft" || e.lifecycle.status === "candidate";

function Actions(props: { item: ReviewItem; csrf: string; next?: string }) {
  const e = props.item.entry;
  const id = encodeURIComponent(e.id);
  const back = props.next ? reviewHref(props.next) : "/review";
  const contradiction = props.item.reasons.some((r) => r.kind === "contradiction");
  return (
    <div class="actions" role="group" aria-label="Decide">
      {approvable(e) ? (
        <ActionForm action={`/lessons/${id}/approve`} csrf={props.csrf} id="approve-form" class="inline">
          <input type="hidden" name="back" value={back} />
          <input type="hidden" name="seen" value={reviewBasis(e)} />
          <button type="submit" class="primary" aria-keyshortcuts="a">
            {contradiction && e.lifecycle.status !== "draft" ? "Keep both (approve)" : "Approve"} <kbd>a</kbd>
          </button>
        </ActionForm>
      ) : null}
      <a class="button" id="edit-link" href={`/lessons/${id}/edit?back=${encodeURIComponent(reviewHref(e.id))}`} aria-keyshortcuts="e">
        Edit <kbd>e</kbd>
      </a>
      <ActionForm action={`/lessons/${id}/${rejectable(e) ? "reject" : "archive"}`} csrf={props.csrf} id="reject-form" class="inline reject">
        <input type="hidden" name="back" value={back} />
        <input type="hidden" name="seen" value={reviewBasis(e)} />
        <label for="reject-reason" class="sr-only">
          Reason
        </label>
        <input id="reject-reason" name="reason" type="text" maxlength={REJECT_REASON_MAX} placeholder="reason (optional)" aria-keyshortcuts="r" />
        <button type="submit" class="danger">
          {rejectable(e) ? "Reject" : "Archive"} <kbd>r</kbd>
        </button>
      </ActionForm>
    </div>
  );
}

function NeighbourCard(props: { n: Neighbour; item: Entry; csrf: string; next?: string }) {
  const { n, item } = props;
  const canSupersede = n.entry.tier === item.tier && ["draft", "candidate", "established", "promoted"].includes(n.entry.lifecycle.status);
  return (
    <article class={`neighbour rel-${n.relation}`} aria-label={`${n.relation} ${n.entry.handle}`}>
      <header>
        <EntryLink entry={n.entry} /> <StatusBadge status={n.entry.lifecycle.status} />{" "}
        <span class="badge">{n.relation}</span> <span class="dim">similarity {n.similarity.toFixed(2)}</span>
      </header>
      {n.entry.title ? <p class="title">{n.entry.title}</p> : null}
      <p class="lesson-text">{n.entry.lesson}</p>
      {n.entry.prevention.rule ? <p class="dim">Rule: {n.entry.prevention.rule}</p> : null}
      {canSupersede ? (
        <ActionForm action={`/lessons/${encodeURIComponent(item.id)}/supersede`} csrf={props.csrf} class="inline supersede">
          <input type="hidden" name="old" value={n.entry.id} />
          <input type="hidden" name="back" value={props.next ? reviewHref(props.next) : "/review"} />
          <button type="submit" aria-keyshortcuts="s">
            {item.handle} replaces {n.entry.handle}
          </button>
        </ActionForm>
      ) : null}
    </article>
  );
}

export function ReviewPage(props: { frame: Frame; view: ReviewView }) {
  const { queue, selected, neighbours } = props.view;
  const items = queue.items;
  const at = selected ? items.findIndex((i) => i.entry.id === selected.entry.id) : -1;
  const prev = at > 0 ? items[at - 1] : undefined;
  const next = at >= 0 ? items[at + 1] : undefined;
  const csrf = props.frame.csrf ?? "";
  return (
    <Layout {...props.frame}>
      <h1>
        Review queue <span class="count">{items.length}</span>
      </h1>
      <p class="dim">
        {queue.counts.drafts} drafts · {queue.counts.contradictions} contradictions · {queue.counts.low_utility} low utility{queue.counts.quarantine_requests ? ` · ${queue.counts.quarantine_requests} quarantine requests` : ""}{queue.counts.origin_superseded ? ` · ${queue.counts.origin_superseded} superseded in their origin project` : ""}{queue.counts.silenced ? ` · ${queue.counts.silenced} silenced by agents' verdicts` : ""}. Keys:{" "}
        <kbd>j</kbd>/<kbd>k</kbd> move, <kbd>a</kbd> approve, <kbd>r</kbd> reject, <kbd>e</kbd> edit, <kbd>s</kbd> supersede.
      </p>
      {items.length === 0 ? (
        <p class="empty">Nothing waits for review.</p>
      ) : (
        <div class="review">
          <nav aria-label="Queue" class="queue">
            <ol id="queue-list">
              {items.map((i) => (
                <li>
                  <a
                    href={reviewHref(i.entry.id)}
                    data-review-item={i.entry.id}
                    aria-current={selected && i.entry.id === selected.entry.id ? "true" : undefined}
                  >
                    <span class="handle">{i.entry.handle}</span> <Reasons reasons={i.reasons} />
                    <span class="clip">{clip(i.entry.title ?? i.entry.lesson, 90)}</span>
                  </a>
                </li>
              ))}
            </ol>
          </nav>
          {selected ? (
            <section class="detail" aria-labelledby="sel-title" data-prev={prev ? reviewHref(prev.entry.id) : undefined} data-next={next ? reviewHref(next.entry.id) : undefined}>
              <h2 id="sel-title">
                <a href={entryHref(selected.entry)}>{selected.entry.handle}</a> <StatusBadge status={selected.entry.lifecycle.status} />{" "}
                <span class="dim">{selected.entry.tier}</span> <Reasons reasons={selected.reasons} />
              </h2>
              <Actions item={selected} csrf={csrf} next={next?.entry.id} />
              <div class="side-by-side">
                <div class="pane">
                  <h3>This lesson</h3>
                  <LessonFields entry={selected.entry} />
                </div>
                <div class="pane">
                  <h3>Nearest existing lessons</h3>
                  {neighbours.length === 0 ? <p class="dim">No similar lesson in either tier.</p> : null}
                  {neighbours.map((n) => (
                    <NeighbourCard n={n} item={selected.entry} csrf={csrf} next={next?.entry.id} />
                  ))}
                </div>
              </div>
            </section>
          ) : null}
        </div>
      )}
    </Layout>
  );
}
