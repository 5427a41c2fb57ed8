// A form sent without a session or with a stale form token: why nothing was saved, and what the person typed, to copy before signing in again.
import { Layout, type Frame } from "./layout.js";

/** A field of the refused form, as typed. */
export interface KeptField {
  name: string;
  value: string;
}

/** Form fields that carry no one's words (tokens, return paths, fingerprints): never shown back. */
const PLUMBING = new Set(["_csrf", "back", "basis", "seen", "next", "token", "old"]);

/** The typed fields of a refused form, each as sent (escaped when rendered, like every value). */
export function keptFields(body: Record<string, unknown>): KeptField[] {
  return Object.entries(body).flatMap(([name, v]) => (typeof v === "string" && v.trim() && !PLUMBING.has(name) ? [{ name, value: v.slice(0, 300_000) }] : []));
}

export function NotSavedPage(props: { frame: Frame; message: string; kept: KeptField[]; signIn: string }) {
  return (
    <Layout {...props.frame}>
      <h1>Not saved</h1>
      <p class="flash error" role="alert">
        {props.message}
      </p>
      <p>
        <a href={props.signIn} target="_blank" rel="noopener">
          Sign in again (opens a new tab)
        </a>
        , then open the page again and paste what you typed.
      </p>
      {props.kept.length ? (
        <section aria-labelledby="kept-title">
          <h2 id="kept-title">What you typed</h2>
          {props.kept.map((f) => (
            <div class="form-row">
              <label for={`kept-${f.name}`}>{f.name}</label>
              <textarea id={`kept-${f.name}`} readonly rows={Math.min(12, Math.max(2, f.value.split("\n").length))}>
                {f.value}
              </textarea>
            </div>
          ))}
        </section>
      ) : null}
    </Layout>
  );
}
