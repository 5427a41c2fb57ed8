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

/**
 * A form over the server's request limit is refused here: sent, the server could only answer "too large"
 * and what the person typed would be gone. They keep the text and read what the limit is.
 */
document.addEventListener("submit", (ev) => {
  const form = ev.target as HTMLFormElement | null;
  const max = Number(form?.dataset.maxBytes);
  if (!form || !max) return;
  const fields = new URLSearchParams();
  // As the browser sends it: newlines go as CRLF.
  for (const [k, v] of new FormData(form)) if (typeof v === "string") fields.append(k, v.replace(/\r?\n/g, "\r\n"));
  const size = new Blob([fields.toString()]).size;
  if (size <= max) return;
  ev.preventDefault();
  let alert = form.querySelector<HTMLElement>(".too-large");
  if (!alert) {
    alert = document.createElement("div");
    alert.className = "flash error too-large";
    alert.setAttribute("role", "alert");
    form.prepend(alert);
  }
  alert.textContent = `Not saved: this edit is too large (${Math.ceil(size / 1024)} KB as sent); the limit is ${Math.floor(max / 1024)} KB. Your text is still here: shorten it and save again.`;
  alert.scrollIntoView({ block: "nearest" });
});

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
