// The knowledge dashboard: charts (drawn in the browser by Chart.js from data attributes) with a data table beside each.
import type { Dashboard, EntryRef } from "../../../governance/dashboard.js";
import { METRIC_TARGETS } from "../../../governance/metrics.js";
import { Layout, type Frame } from "./layout.js";
import { clip, entryHref, num, pct, Time } from "./parts.js";

/** What the client script draws; kept tiny so the page stays the source of truth. */
export interface ChartSpec {
  type: "line" | "bar";
  labels: string[];
  series: Array<{ label: string; data: Array<number | null> }>;
  horizontal?: boolean;
  percent?: boolean;
}

function Chart(props: { id: string; title: string; spec: ChartSpec; note?: string }) {
  const s = props.spec;
  return (
    <figure class="chart" aria-labelledby={`${props.id}-t`}>
      <figcaption id={`${props.id}-t`}>{props.title}</figcaption>
      <div class="canvas-box">
        <canvas id={props.id} role="img" aria-label={`${props.title} (the data table below has the numbers)`} data-chart={JSON.stringify(s)}></canvas>
      </div>
      {props.note ? <p class="dim">{props.note}</p> : null}
      <details>
        <summary>Data table</summary>
        <table>
          <thead>
            <tr>
              <th scope="col">{s.horizontal ? "" : "week"}</th>
              {s.series.map((x) => (
                <th scope="col">{x.label}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {s.labels.map((l, i) => (
              <tr>
                <th scope="row">{l}</th>
                {s.series.map((x) => (
                  <td class="num">{x.data[i] === null || x.data[i] === undefined ? "—" : s.percent ? pct(x.data[i]) : num(x.data[i] as number)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}

function RefTable(props: { caption: string; rows: EntryRef[]; empty: string }) {
  if (!props.rows.length) return <p class="dim">{props.empty}</p>;
  return (
    <table>
      <caption class="sr-only">{props.caption}</caption>
      <thead>
        <tr>
          <th scope="col">Lesson</th>
          <th scope="col" class="num">
            Shown
          </th>
          <th scope="col" class="num">
            Applied
          </th>
        </tr>
      </thead>
      <tbody>
        {props.rows.map((r) => (
          <tr>
            <td>
              <a href={entryHref(r)} class="handle">
                {r.handle}
              </a>{" "}
              {clip(r.lesson, 110)}
            </td>
            <td class="num">{num(r.shown)}</td>
            <td class="num">{num(r.applied)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Stat(props: { label: string; value: string; hint?: string }) {
  return (
    <div class="stat">
      <div class="stat-value">{props.value}</div>
      <div class="stat-label">{props.label}</div>
      {props.hint ? <div class="dim">{props.hint}</div> : null}
    </div>
  );
}

export function DashboardPage(props: { frame: Frame; d: Dashboard }) {
  const d = props.d;
  const weeks = d.weeks.map((w) => w.week.slice(5));
  const g = d.governance;
  const projectLabel = (p: { project_id: string; project_name?: string }) => p.project_name ?? p.project_id.slice(0, 12);
  return (
    <Layout {...props.frame}>
      <h1>Dashboard</h1>
      <div class="stats">
        <Stat label="lessons (live)" value={`${num(d.totals.entries)} (${num(d.totals.live)})`} />
        <Stat label="application rate" value={pct(d.totals.rate)} hint={`${num(d.totals.applied)} applied of ${num(d.totals.shown)} shown`} />
        <Stat label={`approval rate (${d.weeks.length} ${d.weeks.length === 1 ? "week" : "weeks"})`} value={pct(g.approval_rate)} hint={`target ${METRIC_TARGETS.approval_rate}; ${g.approvals} approved, ${g.rejections} rejected, ${g.drafts_pending} pending`} />
        <Stat label="consultations per lesson" value={g.mean_consultations_per_lesson === null ? "—" : g.mean_consultations_per_lesson.toFixed(2)} hint={`target ${METRIC_TARGETS.mean_consultations_per_lesson}`} />
        <Stat label="prevented" value={num(g.prevented_total)} hint={`target ${METRIC_TARGETS.prevented_total}`} />
        <Stat label="low utility" value={`${num(d.low_utility.count)}${d.low_utility.capped ? "+" : ""}`} />
        <Stat label="never applied" value={`${num(d.never_applied.count)}${d.never_applied.capped ? "+" : ""}`} hint={`shown ≥ ${d.never_applied.min_shown} times`} />
      </div>
      <div class="charts">
        <Chart
          id="chart-rate"
          title="Application rate per week"
          spec={{ type: "line", labels: weeks, percent: true, series: [{ label: "applied / shown", data: d.weeks.map((w) => w.rate) }] }}
        />
        <Chart
          id="chart-shown"
          title="Shown vs applied per week"
          spec={{ type: "bar", labels: weeks, series: [{ label: "shown", data: d.weeks.map((w) => w.shown) }, { label: "applied", data: d.weeks.map((w) => w.applied) }] }}
        />
        <Chart
          id="chart-flow"
          title="Lessons added, approved and archived per week"
          spec={{
            type: "bar",
            labels: weeks,
            series: [
              { label: "added", data: d.weeks.map((w) => w.added) },
              { label: "approved", data: d.weeks.map((w) => w.approved) },
              { label: "archived", data: d.weeks.map((w) => w.archived) },
            ],
          }}
        />
        <Chart
          id="chart-rejected"
          title="Rejected lessons by reason"
          note="Gates: the capped rejected list by its first reason code. Review: drafts people rejected, by the reason they gave."
          spec={{
            type: "bar",
            horizontal: true,
            labels: [...d.rejected.gates.map((r) => `gate: ${r.reason}`), ...d.rejected.review.map((r) => `review: ${clip(r.reason, 40)}`)],
            series: [{ label: "rejected", data: [...d.rejected.gates.map((r) => r.n), ...d.rejected.review.map((r) => r.n)] }],
          }}
        />
        <Chart
          id="chart-contrib"
          title="Hive lessons contributed per project"
          spec={{
            type: "bar",
            horizontal: true,
            labels: d.contributions.map((p) => `${projectLabel(p)}${p.current ? " (this)" : ""}`),
            series: [
              { label: "live", data: d.contributions.map((p) => p.live) },
              { label: "all", data: d.contributions.map((p) => p.entries) },
            ],
          }}
        />
      </div>
      <div class="columns">
        <section aria-labelledby="h-low">
          <h2 id="h-low">Low utility</h2>
          <RefTable caption="Low-utility lessons" rows={d.low_utility.top} empty="No lesson is flagged for low utility." />
          <h2 id="h-never">Never applied</h2>
          <RefTable caption="Lessons shown but never applied" rows={d.never_applied.top} empty="Every lesson shown often enough was applied at least once." />
        </section>
        <section aria-labelledby="h-usage">
          <h2 id="h-usage">Who uses the hive</h2>
          {d.usage.projects.length === 0 ? (
            <p class="dim">No project has been shown a hive lesson yet.</p>
          ) : (
            <table>
              <caption class="sr-only">Hive usage per project</caption>
              <thead>
                <tr>
                  <th scope="col">Project</th>
                  <th scope="col" class="num">
                    Lessons used
                  </th>
                  <th scope="col" class="num">
                    Shown
                  </th>
                  <th scope="col" class="num">
                    Applied
                  </th>
                  <th scope="col">Last</th>
                </tr>
              </thead>
              <tbody>
                {d.usage.projects.map((p) => (
                  <tr>
                    <td>{projectLabel(p)}</td>
                    <td class="num">{num(p.entries)}</td>
                    <td class="num">{num(p.shown)}</td>
                    <td class="num">{num(p.applied)}</td>
                    <td>
                      <Time iso={p.last_at} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {d.usage.lessons.length ? (
            <>
              <h3>Hive lessons used by the most projects</h3>
              <ul class="plain">
                {d.usage.lessons.map((l) => (
                  <li>
                    <a href={entryHref(l.entry)} class="handle">
                      {l.entry.handle}
                    </a>{" "}
                    {clip(l.entry.lesson, 80)}
                    <div class="dim">{l.projects.map((p) => `${projectLabel(p)}: ${p.shown} shown, ${p.applied} applied`).join(" · ")}</div>
                  </li>
                ))}
              </ul>
            </>
          ) : null}
          <h2 id="h-queue">Reflection queue</h2>
          <p>
            {(["pending", "processing", "done", "dead"] as const).map((k) => `${k} ${num(d.queue.counts[k] ?? 0)}`).join(" · ")}
            {d.queue.oldest_pending ? (
              <>
                {" "}
                · oldest pending <Time iso={d.queue.oldest_pending} />
              </>
            ) : null}
          </p>
          {d.queue.dead.length ? (
            <ul class="plain">
              {d.queue.dead.map((q) => (
                <li>
                  <Time iso={q.enqueued_at} /> {q.attempts} attempts: <span class="dim">{clip(q.last_error ?? "", 160)}</span>
                </li>
              ))}
            </ul>
          ) : (
            <p class="dim">No dead outcomes.</p>
          )}
        </section>
      </div>
    </Layout>
  );
}
