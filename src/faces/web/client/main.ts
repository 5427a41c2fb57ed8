// Light interactivity for every page: review keystrokes (j/k/a/r/e/s), "/" to search, "g" + letter to switch pages.
import "./styles.css";

/** Typing in a field must never trigger a shortcut. */
function typing(t: EventTarget | null): boolean {
  const el = t as HTMLElement | null;
  if (!el) return false;
  return el.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(el.tagName);
}

const GO: Record<string, string> = { r: "/review", l: "/lessons", d: "/dashboard", a: "/advisories" };

function reviewKey(key: string): boolean {
  const detail = document.querySelector<HTMLElement>("section.detail");
  if (!detail) return false;
  const go = (href: string | undefined) => {
    if (href) window.location.assign(href);
    return Boolean(href);
  };
  switch (key) {
    case "j":
      return go(detail.dataset.next);
    case "k":
      return go(detail.dataset.prev);
    case "a": {
      const form = document.querySelector<HTMLFormElement>("#approve-form");
      form?.requestSubmit();
      return Boolean(form);
    }
    case "r": {
      const input = document.querySelector<HTMLInputElement>("#reject-reason");
      // Focus the reason; Enter in it rejects.
      input?.focus();
      return Boolean(input);
    }
    case "e":
      return go(document.querySelector<HTMLAnchorElement>("#edit-link")?.href);
    case "s": {
      const button = document.querySelector<HTMLButtonElement>("form.supersede button");
      button?.focus();
      return Boolean(button);
    }
    default:
      return false;
  }
}

let pendingG = 0;

document.addEventListener("keydown", (ev) => {
  if (ev.defaultPrevented || ev.ctrlKey || ev.metaKey || ev.altKey || typing(ev.target)) {
    // Escape leaves a field so the shortcuts work again.
    if (ev.key === "Escape" && typing(ev.target)) (ev.target as HTMLElement).blur();
    return;
  }
  if (pendingG && Date.now() - pendingG < 1500) {
    pendingG = 0;
    const href = GO[ev.key];
    if (href) {
      ev.preventDefault();
      window.location.assign(href);
    }
    return;
  }
  if (ev.key === "g") {
    pendingG = Date.now();
    return;
  }
  if (ev.key === "/") {
    const search = document.querySelector<HTMLInputElement>("input[type=search]");
    if (search) {
      ev.preventDefault();
      search.focus();
      search.select();
    }
    return;
  }
  if (reviewKey(ev.key)) ev.preventDefault();
});

// Keep the selected queue item in view when the list is long.
document.querySelector<HTMLElement>('#queue-list a[aria-current="true"]')?.scrollIntoView({ block: "nearest" });
