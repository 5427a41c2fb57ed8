// Advisory rules (vetted lessons with globs or detection patterns) and the "would this edit trigger anything?" check.
import type { Advisory } from "../../../governance/advisories.js";
import type { BrowsePage } from "../../../governance/browse.js";
import { NAME_RULE } from "../../../governance/actor-name.js";
import { ActionForm, Layout, type Frame } from "./layout.js";
import { clip, EntryLink, entryHref, List, num } from "./parts.js";

export interface CheckInput {
  files: string;
  text: string;
  tool: string;
}

export const CHECK_TOOLS = ["", "edit", "write", "patch", "bash"] as const;

function Results(props: { results: Advisory[] }) {
  if (!props.results.length) return <p class="empty" role="status" id="check-result">Nothing would trigger: no vetted lesson matches these files or this text.</p>;
  return (
    <div role="status" id="check-result">
      <p>
        {props.results.length} advisor{props.results.length === 1 ? "y" : "ies"} would be shown
        {props.results.some((a) => a.enforcement === "enforce") ? " — and the call would be blocked (an enforced rule matches)" : ""}:
      </p>
      <ul class="plain advisories">
        {props.results.map((a) => (
          <li class={a.enforcement === "enforce" ? "enforced" : undefined}>
            <a href={entryHref(a)} class="handle">
              {a.handle}
            </a>{" "}
            {a.enforcement === "enforce" ? <span class="badge st-quarantined">enforced</span> : null} {a.title ?? ""}
            <div>Rule: {a.rule}</div>
            {a.why ? <div class="dim">Why: {a.why}</div> : null}
            <div class="dim">Matched {a.matched === "glob" ? `file ${a.on}` : `${a.on} pattern`}</div>
          </li>
        ))}
      </ul>
    </div>
  );
}

export function AdvisoriesPage(props: { frame: Frame; rules: BrowsePage; input: CheckInput; results?: Advisory[]; cursor?: string }) {
  const v = props.input;
  return (
    <Layout {...props.frame}>
      <h1>Advisories</h1>
      <section aria-labelledby="h-check" class="check">
        <h2 id="h-check">Would this edit trigger anything?</h2>
        <p class="dim">The same check the OpenCode plugin runs before an agent's edit, patch or shell command. A person's check is not counted as a consultation.</p>
        <ActionForm action="/advisories/check" csrf={props.frame.csrf ?? ""} class="edit">
          <div class="form-row">
            <label for="c-files">Files (one per line, relative to the project)</label>
            <textarea id="c-files" name="files" rows={3} class="mono">
              {v.files}
            </textarea>
          </div>
          <div class="form-row">
            <label for="c-text">New content, patch or command</label>
            <textarea id="c-text" name="text" rows={5} class="mono">
              {v.text}
            </textarea>
          </div>
          <div class="form-row">
            <label for="c-tool">Tool</label>
            <select id="c-tool" name="tool">
              {CHECK_TOOLS.map((t) => (
                <option value={t} selected={v.tool === t}>
                  {t || "any"}
                </option>
              ))}
            </select>
          </div>
          <div class="actions">
            <button type="submit" class="primary">
              Check
            </button>
          </div>
        </ActionForm>
        {props.results ? <Results results={props.results} /> : null}
      </section>
      <section aria-labelledby="h-rules">
        <h2 id="h-rules">Rules ({props.rules.capped ? `${num(props.rules.total)}+` : num(props.rules.total)})</h2>
        <p class="dim">Established and promoted lessons with file globs or a detection pattern.</p>
        <div class="table-wrap">
          <table>
            <caption class="sr-only">Advisory rules</caption>
            <thead>
              <tr>
                <th scope="col">Lesson</th>
                <th scope="col">File globs</th>
                <th scope="col">Detection pattern</th>
                <th scope="col">Enforcement</th>
                <th scope="col" class="num">
                  Consulted
                </th>
                <th scope="col" class="num">
                  Prevented
                </th>
              </tr>
            </thead>
            <tbody>
              {props.rules.entries.map((e) => (
                <tr>
                  <td>
                    <EntryLink entry={e} /> {clip(e.title ?? e.prevention.rule ?? e.lesson, 110)}
                  </td>
                  <td>
                    <List items={e.applicability.file_globs} mono />
                  </td>
                  <td class="mono">{e.prevention.detection_pattern ?? ""}</td>
                  <td>{e.directive.enforcement}</td>
                  <td class="num">{num(e.usage.consulted)}</td>
                  <td class="num">{num(e.usage.prevented)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {props.rules.entries.length === 0 ? <p class="empty">No advisory rules yet: approve a lesson that has file globs or a detection pattern.</p> : null}
        <nav class="pager" aria-label="Pages">
          {props.cursor ? <a href="/advisories">⇤ First page</a> : null}
          {props.rules.next ? (
            <a href={`/advisories?cursor=${encodeURIComponent(props.rules.next)}`} rel="next">
              Next page →
            </a>
          ) : null}
        </nav>
      </section>
    </Layout>
  );
}

export function LoginPage(props: { frame: Frame; name: string; next: string; error?: string }) {
  return (
    <Layout {...props.frame}>
      <h1>Sign in</h1>
      <p>
        Open the link <code>cairn ui</code> printed when it started, or paste its token here. Your name is recorded on every approval, edit and
        rejection as <code>human:&lt;name&gt;</code>.
      </p>
      {props.error ? (
        <p class="flash error" role="alert">
          {props.error}
        </p>
      ) : null}
      <form method="post" action="/login" class="edit login">
        <input type="hidden" name="next" value={props.next} />
        <div class="form-row">
          <label for="l-token">Token</label>
          <input id="l-token" name="token" type="password" autocomplete="current-password" required />
        </div>
        <div class="form-row">
          <label for="l-name">Your name</label>
          <input id="l-name" name="name" type="text" value={props.name} required maxlength={60} aria-describedby="l-name-rule" />
          <small id="l-name-rule">{NAME_RULE[0]!.toUpperCase() + NAME_RULE.slice(1)}.</small>
        </div>
        <div class="actions">
          <button type="submit" class="primary">
            Sign in
          </button>
        </div>
      </form>
    </Layout>
  );
}

export function ErrorPage(props: { frame: Frame; status: number; message: string }) {
  return (
    <Layout {...props.frame}>
      <h1>{props.status === 404 ? "Not found" : props.status === 403 ? "Not allowed" : "Something went wrong"}</h1>
      <p class="flash error" role="alert">
        {props.message}
      </p>
      <p>
        <a href="/review">Back to the review queue</a>
      </p>
    </Layout>
  );
}
