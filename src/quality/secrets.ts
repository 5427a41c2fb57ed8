// Secret detection and masking: a key, token or password in a lesson must never be stored nor echoed.
import type { QualityIssue } from "./types.js";

export type SecretKind =
  | "aws_key" | "aws_secret" | "github_token" | "gitlab_token" | "slack_token" | "slack_webhook"
  | "stripe_key" | "anthropic_key" | "openai_key" | "google_api_key" | "npm_token"
  | "huggingface_token" | "sendgrid_key" | "jwt" | "private_key" | "url_password"
  | "bearer_token" | "credential";

const LABELS: Record<SecretKind, string> = {
  aws_key: "an AWS access key id",
  aws_secret: "an AWS secret access key",
  github_token: "a GitHub token",
  gitlab_token: "a GitLab token",
  slack_token: "a Slack token",
  slack_webhook: "a Slack webhook URL",
  stripe_key: "a Stripe live key",
  anthropic_key: "an Anthropic API key",
  openai_key: "an OpenAI API key",
  google_api_key: "a Google API key",
  npm_token: "an npm token",
  huggingface_token: "a Hugging Face token",
  sendgrid_key: "a SendGrid key",
  jwt: "a JSON Web Token",
  private_key: "a private key block",
  url_password: "a password inside a URL",
  bearer_token: "a bearer token",
  credential: "a credential assigned to a secret-looking name",
};

interface Detector {
  kind: SecretKind;
  /** Global regex; group `v`, when present, is the part to mask (the rest, e.g. a key name, stays). */
  re: RegExp;
  /** Second look at a match: `value` is what would be masked, `all` the whole match. */
  accept?: (value: string, all: string) => boolean;
}

// Every repeat is bounded so no detector goes quadratic on a 100 KB paste of token-shaped junk.
const KEY_NAME =
  "[A-Za-z0-9_.-]{0,40}?(?:secret|token|password|passwd|pwd|api[_-]?key|apikey|auth|credential|private[_-]?key|access[_-]?key)[A-Za-z0-9_.-]{0,40}";

/** Specific formats first: once masked, a later, looser detector sees only `[REDACTED:…]`. */
const DETECTORS: Detector[] = [
  { kind: "aws_key", re: /\b(?:AKIA|ASIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ABIA|ACCA)[A-Z0-9]{16}\b/g, accept: realistic },
  { kind: "aws_secret", re: /aws_?secret(?:_?access)?_?key["']?\s*[:=]\s*["']?(?<v>[A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])/gi, accept: realistic },
  { kind: "github_token", re: /\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})\b/g, accept: realistic },
  { kind: "gitlab_token", re: /\bglpat-[A-Za-z0-9_-]{20,255}/g, accept: realistic },
  { kind: "slack_webhook", re: /https:\/\/hooks\.slack\.com\/services\/[A-Za-z0-9/_-]{20,255}/g, accept: realistic },
  { kind: "slack_token", re: /\bxox[abprs]-[A-Za-z0-9-]{10,255}/g, accept: realistic },
  { kind: "stripe_key", re: /\b[rs]k_live_[A-Za-z0-9]{16,255}\b/g, accept: realistic },
  { kind: "anthropic_key", re: /\bsk-ant-[A-Za-z0-9_-]{20,512}/g, accept: realistic },
  { kind: "openai_key", re: /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,512}/g, accept: (v) => realistic(v) && mixesLettersAndDigits(v) },
  { kind: "google_api_key", re: /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g, accept: realistic },
  { kind: "npm_token", re: /\bnpm_[A-Za-z0-9]{36}\b/g, accept: realistic },
  { kind: "huggingface_token", re: /\bhf_[A-Za-z0-9]{34}\b/g, accept: realistic },
  { kind: "sendgrid_key", re: /\bSG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}\b/g, accept: realistic },
  { kind: "jwt", re: /\beyJ[A-Za-z0-9_-]{8,512}\.eyJ[A-Za-z0-9_-]{8,8192}\.[A-Za-z0-9_-]{0,1024}/g, accept: realistic },
  { kind: "url_password", re: /\b[a-z][a-z0-9+.-]{0,30}:\/\/[^\s:@/]{1,256}:(?<v>[^\s@/]{1,256})@/gi, accept: (v) => !isPlaceholder(v) },
  { kind: "bearer_token", re: /\bBearer\s+(?<v>[A-Za-z0-9._~+/-]{20,4096}=*)/g, accept: (v) => !isPlaceholder(v) && looksRandom(v) },
  {
    kind: "credential",
    re: new RegExp(`\\b${KEY_NAME}["'\`]?\\s*(?::=|=>|[:=])\\s*(?<q>["'\`]?)(?<v>[^\\s"'\`,;)}\\]]{1,512})\\k<q>`, "gi"),
    accept: isCredentialValue,
  },
];

export function findSecrets(text: string): { issues: QualityIssue[]; masked: string } {
  const found = new Map<SecretKind, number>();
  const note = (kind: SecretKind) => found.set(kind, (found.get(kind) ?? 0) + 1);
  let masked = maskPrivateKeys(text, note);
  for (const d of DETECTORS) {
    masked = masked.replace(d.re, (...args: unknown[]) => {
      const all = args[0] as string;
      const groups = args[args.length - 1] as Record<string, string | undefined> | undefined;
      const value = typeof groups === "object" && groups?.v !== undefined ? groups.v : all;
      if (value.startsWith("[REDACTED:") || (d.accept && !d.accept(value, all))) return all;
      note(d.kind);
      const mark = `[REDACTED:${d.kind}]`;
      const at = all.lastIndexOf(value);
      return value === all || at < 0 ? mark : all.slice(0, at) + mark + all.slice(at + value.length);
    });
  }
  const issues: QualityIssue[] = [...found].map(([kind, count]) => ({
    layer: "secret",
    severity: "reject",
    code: `secret_${kind}`,
    // Names the kind only: echoing even a prefix of the value would leak part of it.
    message: `The lesson contains ${LABELS[kind]}${count > 1 ? ` (${count} occurrences)` : ""}; remove it and refer to it by its environment variable or vault name instead.`,
  }));
  return { issues, masked };
}

const PEM_HEADER = /-----BEGIN[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----/g;
const PEM_END = /-----END[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----/y;
const PEM_BODY = /[A-Za-z0-9+/=\s]*/y;

/**
 * PEM blocks by hand rather than one regex: a lazy scan to `-----END` from every header would be
 * quadratic on a paste of repeated headers. A block without an END is masked through its base64 body.
 */
function maskPrivateKeys(text: string, note: (kind: SecretKind) => void): string {
  let out = "";
  let cursor = 0;
  let noEndAfter = Infinity;
  for (const m of text.matchAll(PEM_HEADER)) {
    const at = m.index ?? 0;
    if (at < cursor) continue;
    const bodyStart = at + m[0].length;
    const e = bodyStart < noEndAfter ? text.indexOf("-----END", bodyStart) : -1;
    if (e < 0) noEndAfter = Math.min(noEndAfter, bodyStart);
    let end: number;
    if (e >= 0) {
      PEM_END.lastIndex = e;
      end = PEM_END.test(text) ? PEM_END.lastIndex : e + 8;
    } else {
      PEM_BODY.lastIndex = bodyStart;
      PEM_BODY.test(text);
      end = PEM_BODY.lastIndex;
    }
    if (hasKeyBody(text.slice(bodyStart, end))) {
      note("private_key");
      out += text.slice(cursor, at) + "[REDACTED:private_key]";
      cursor = end;
    } else if (e >= 0) {
      // Headers before this END span a subset of this text, so none of them holds key material either.
      out += text.slice(cursor, end);
      cursor = end;
    }
  }
  return out + text.slice(cursor);
}

/** Documentation stand-ins in a token's own format: `AKIAIOSFODNN7EXAMPLE`, `ghp_xxxxxxxx…`. */
function realistic(value: string): boolean {
  return !/example|x{6,}|0{8,}|your|placeholder|redacted/i.test(value);
}

/** Obvious stand-ins: `<your-token>`, `xxx`, `${TOKEN}`, `$TOKEN`, `process.env.X`, `changeme`… */
export function isPlaceholder(value: string): boolean {
  const v = value.replace(/^["'`]|["'`]$/g, "");
  if (v.length === 0) return true;
  if (/^[<{[(%$*.]|^\*+$|^\$\{|\{\{|\}\}$|>$/.test(v)) return true;
  if (/^(?:process\.env|os\.environ|import\.meta\.env|env\.|secrets\.|vars\.|config\.|settings\.|ENV\[|System\.getenv)/i.test(v)) return true;
  if (/(?:your|example|placeholder|redacted|changeme|change_me|dummy|sample|replace_?me|insert|todo|xxxx|\.\.\.)/i.test(v)) return true;
  if (/^(?:x+|0+|1234\d*|password\d*|pass|secret|token|null|none|undefined|true|false|string|required|optional|hunter2)$/i.test(v)) return true;
  // One character repeated is a mask, not a key.
  return new Set(v).size <= 2;
}

function isCredentialValue(value: string, all: string): boolean {
  if (isPlaceholder(value)) return false;
  // Code references rather than literals: a.b.c, getToken(), KEY_NAME, a URL or a path.
  if (/^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$|\(|^[A-Z][A-Z0-9_]*$|:\/\/|^\.{0,2}\//.test(value)) return false;
  // Words joined by separators (`jwt_with_refresh`, `cl100k_base`) name things; keys do not read like that.
  if (/^[a-z]+(?:[_-][a-z0-9]+)*$/.test(value) || /^[a-z]+\d+[a-z]?(?:_[a-z]+)*$/.test(value)) return false;
  if (value.length >= 16 && /\d/.test(value) && looksRandom(value)) return true;
  if (value.length >= 20 && charClasses(value) >= 3 && shannonEntropy(value) >= 3.5) return true;
  // A password is short and still a secret: any literal of 8+ characters mixing letters and digits.
  const key = all.slice(0, all.length - value.length);
  return /pass(?:word|wd)?|pwd/i.test(key) && value.length >= 8 && /\d/.test(value) && /[A-Za-z]/.test(value);
}

function looksRandom(value: string): boolean {
  return shannonEntropy(value) >= 3.5 || charClasses(value) >= 3;
}

function mixesLettersAndDigits(value: string): boolean {
  const body = value.replace(/^sk-(?:proj-|svcacct-|admin-)?/, "");
  return /[a-z]/.test(body) && /[A-Z]/.test(body) && /\d/.test(body) && looksRandom(body);
}

function hasKeyBody(block: string): boolean {
  const body = block.replace(/-----(?:BEGIN|END)[A-Z0-9 ]*-----/g, "");
  return /[A-Za-z0-9+/=]{40,}/.test(body.replace(/\s+/g, "")) && /[A-Za-z0-9+/]{16,}/.test(body);
}

function charClasses(v: string): number {
  return [/[a-z]/, /[A-Z]/, /\d/, /[^A-Za-z0-9]/].filter((re) => re.test(v)).length;
}

export function shannonEntropy(v: string): number {
  const counts = new Map<string, number>();
  for (const ch of v) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let h = 0;
  for (const n of counts.values()) {
    const p = n / v.length;
    h -= p * Math.log2(p);
  }
  return h;
}
