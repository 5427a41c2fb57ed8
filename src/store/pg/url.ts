// PostgreSQL connection strings: recognised, and shown only with the password masked (logs, errors, config output, doctor).
import type { CairnConfig } from "../../config.js";
import { CairnError } from "../../errors.js";

const URL_RE = /^postgres(ql)?:\/\//i;

export function isPostgresUrl(value: string | undefined): value is string {
  return typeof value === "string" && URL_RE.test(value.trim());
}

// Any URL: a scheme of two or more characters, then "://" (one letter before ":" is a Windows drive).
const ANY_URL_RE = /^([a-z][a-z0-9+.-]+):\/\//i;

/** The scheme of anything written as a URL (`mysql`, `https`, `postgres`); undefined for a file path. */
export function urlScheme(value: string): string | undefined {
  return ANY_URL_RE.exec(value.trim())?.[1];
}

/**
 * A hive file setting that holds a URL would become a folder named `mysql:` (or `postgres:`) in the
 * working directory, holding a local hive nobody meant: refused, saying where a team hive URL goes.
 */
export function assertHiveFileNotUrl(value: string, setting: string): void {
  const url = value.trim();
  const scheme = urlScheme(url);
  if (!scheme) return;
  const urlGoes = setting === "--hive" ? "--hive" : "CAIRN_HIVE_URL (or hive_url in the config)";
  if (isPostgresUrl(url)) {
    throw new CairnError("INVALID_CONFIG", `${setting} names a hive file, but it holds a team hive URL (${maskUrl(url)}): put the URL in ${urlGoes} instead.`);
  }
  throw new CairnError(
    "INVALID_CONFIG",
    `${setting} ${maskUrl(url)} is a ${scheme}:// URL, but a team hive is PostgreSQL only: give a hive file path, or a postgres://user@host:5432/db URL in ${urlGoes}.`,
  );
}

/** `postgres://alice:***@db.internal:5432/team` — the password (and any `password=` parameter) replaced. */
export function maskUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    for (const key of [...u.searchParams.keys()]) if (/pass|secret|key/i.test(key)) u.searchParams.set(key, "***");
    return u.toString();
  } catch {
    // Not parseable as a URL: keep only the scheme and the host-ish tail after the last "@".
    const at = url.lastIndexOf("@");
    return at >= 0 ? `postgres://***@${url.slice(at + 1)}` : url.replace(/:[^:@/]*@/, ":***@");
  }
}

/** The parts of a team database URL a message names (host:port, database, user); undefined when it does not parse. */
export function teamUrlParts(url: string): { hostPort: string; database: string; user: string } | undefined {
  try {
    const u = new URL(url);
    return { hostPort: `${u.hostname}:${u.port || "5432"}`, database: decodeURIComponent(u.pathname.replace(/^\//, "")), user: decodeURIComponent(u.username) };
  } catch {
    return undefined;
  }
}

/** Every secret a URL carries (the password, raw and decoded), to scrub from any text that might echo it. */
export function secretsOf(url: string): string[] {
  const out = new Set<string>();
  try {
    const u = new URL(url);
    if (u.password) {
      out.add(u.password);
      out.add(decodeURIComponent(u.password));
    }
    for (const [k, v] of u.searchParams) if (/pass|secret|key/i.test(k) && v) out.add(v);
  } catch {
    const m = /:\/\/[^:@/]*:([^@]*)@/.exec(url);
    if (m?.[1]) out.add(m[1]);
  }
  // One- and two-character passwords would mangle every message; the masked URL still hides them.
  return [...out].filter((s) => s.length >= 3);
}

/** `text` with the URL masked and every secret of it replaced by ***. */
export function scrub(text: string, url: string): string {
  let out = text.split(url).join(maskUrl(url));
  for (const secret of secretsOf(url)) out = out.split(secret).join("***");
  return out;
}

/** The team database URL in effect: an explicit `--hive postgres://…`, else `hive_url` (env CAIRN_HIVE_URL). An explicit file wins over both. */
export function resolveHiveUrl(explicit: string | undefined, config: Pick<CairnConfig, "hive_url">): string | undefined {
  if (explicit !== undefined) return isPostgresUrl(explicit) ? explicit.trim() : undefined;
  return config.hive_url;
}
