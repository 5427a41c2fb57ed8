// The frame of every page: head with the built assets, navigation, the signed-in person, flash messages. JSX escapes every value.
import type { Child } from "hono/jsx";
import type { PageAssets } from "../assets.js";

export interface Frame {
  title: string;
  /** Which nav item is current. */
  nav?: "review" | "lessons" | "dashboard" | "advisories";
  assets: PageAssets;
  /** Signed in: `human:<name>` and the CSRF token forms carry. */
  actor?: string;
  csrf?: string;
  project: string;
  /** One-line result of the last action (after a redirect). */
  flash?: { kind: "ok" | "error"; text: string };
  /** Why the page holds less than usual (the team hive unreachable): shown above it until that passes. */
  notice?: string;
  /** Why a tier is left out (its database file is damaged), with how to repair it: shown on every page while it lasts. */
  damage?: string[];
  /** Why saving will not work (a database file this user cannot write), with the way out: shown on every page while it lasts. */
  readOnly?: string[];
}

const NAV: Array<{ key: NonNullable<Frame["nav"]>; href: string; label: string; key_hint: string }> = [
  { key: "review", href: "/review", label: "Review", key_hint: "g r" },
  { key: "lessons", href: "/lessons", label: "Lessons", key_hint: "g l" },
  { key: "dashboard", href: "/dashboard", label: "Dashboard", key_hint: "g d" },
  { key: "advisories", href: "/advisories", label: "Advisories", key_hint: "g a" },
];

/**
 * A form that changes something: POST with the session's CSRF token. `maxBytes`: the server's request limit,
 * for the page to refuse a larger form before sending it (and losing the text).
 */
export function ActionForm(props: { action: string; csrf: string; class?: string; id?: string; maxBytes?: number; children?: Child }) {
  return (
    <form method="post" action={props.action} class={props.class} id={props.id} data-max-bytes={props.maxBytes}>
      <input type="hidden" name="_csrf" value={props.csrf} />
      {props.children}
    </form>
  );
}

export function Layout(props: Frame & { children?: Child }) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        {props.csrf ? <meta name="csrf-token" content={props.csrf} /> : null}
        <title>{`${props.title} · Cairn`}</title>
        {props.assets.styles.map((href) => (
          <link rel="stylesheet" href={href} />
        ))}
        {props.assets.preloads.map((href) => (
          <link rel="modulepreload" href={href} />
        ))}
        {props.assets.scripts.map((src) => (
          <script type="module" src={src}></script>
        ))}
      </head>
      <body>
        <a class="skip" href="#main">
          Skip to content
        </a>
        <header class="top">
          <span class="brand" aria-label="Cairn">
            ▲ Cairn
          </span>
          <span class="project" title="project">
            {props.project}
          </span>
          {props.actor ? (
            <nav aria-label="Main">
              <ul>
                {NAV.map((n) => (
                  <li>
                    <a href={n.href} aria-current={props.nav === n.key ? "page" : undefined} title={`${n.label} (${n.key_hint})`}>
                      {n.label}
                    </a>
                  </li>
                ))}
              </ul>
            </nav>
          ) : null}
          {props.actor && props.csrf ? (
            <div class="who">
              <span>{props.actor}</span>
              <ActionForm action="/logout" csrf={props.csrf} class="inline">
                <button type="submit" class="link">
                  Sign out
                </button>
              </ActionForm>
            </div>
          ) : null}
        </header>
        <main id="main" tabindex={-1}>
          {props.flash ? (
            <p class={`flash ${props.flash.kind}`} role={props.flash.kind === "error" ? "alert" : "status"}>
              {props.flash.text}
            </p>
          ) : null}
          {props.damage?.map((text) => (
            <p class="flash error" role="alert">
              {text}
            </p>
          ))}
          {props.readOnly?.map((text) => (
            <p class="flash error" role="status">
              {text}
            </p>
          ))}
          {props.notice ? (
            <p class="flash error" role="status">
              {props.notice}
            </p>
          ) : null}
          {props.children}
        </main>
      </body>
    </html>
  );
}
