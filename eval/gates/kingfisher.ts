// The secrets gate against Kingfisher's rule examples (mongodb/kingfisher, Apache-2.0), read from a checkout: each example as it is and its secret put in lesson sentences.
import path from "node:path";
import { RE2JS } from "re2js";
import { parse as parseYaml } from "yaml";
import { findSecrets } from "../../src/quality/secrets.js";
import { files } from "./checkout.js";

interface Rate { caught: number; total: number }

interface KingfisherRule {
  id: string;
  name: string;
  pattern: string;
  visible?: boolean;
  examples?: string[];
  negative_examples?: string[];
}

/**
 * A Kingfisher pattern (Rust regex syntax, mostly free-spacing `(?x)`) as RE2 syntax for re2js: `(?# …)` comments and,
 * under `x`, whitespace and `#` line comments dropped (whitespace inside a class too, as Rust's verbose mode does), and
 * repeats over RE2's limit of 1000 cut to it. Only used to find which part of an example is the secret.
 */
export function fromVerbose(pattern: string): string {
  let p = pattern.replace(/\(\?#[^)]*\)/g, "").replace(/\{(\d+),(\d{4,})\}/g, (m, a: string, b: string) => (Number(b) > 1000 ? `{${a},1000}` : m));
  if (!/\(\?[a-z-]*x[a-z-]*\)/.test(p)) return p;
  p = p.replace(/\(\?([a-z-]*)\)/g, (_m, f: string) => (f.replace("x", "") ? `(?${f.replace("x", "")})` : ""));
  let out = "";
  let inClass = false;
  for (let i = 0; i < p.length; i++) {
    const c = p[i]!;
    if (c === "\\") {
      const n = p[i + 1] ?? "";
      out += n === " " ? "\\x20" : n === "#" ? "#" : c + n;
      i++;
    } else if (/\s/.test(c)) continue;
    else if (!inClass && c === "#") while (i + 1 < p.length && p[i + 1] !== "\n") i++;
    else if (!inClass && c === "[") {
      inClass = true;
      out += c;
      if (p[i + 1] === "^") out += p[++i];
      if (p[i + 1] === "]") out += p[++i];
    } else if (inClass && c === "[" && p[i + 1] === ":") {
      const end = p.indexOf(":]", i);
      out += p.slice(i, end + 2);
      i = end + 1;
    } else {
      if (inClass && c === "]") inClass = false;
      out += c;
    }
  }
  return out;
}

/**
 * The secret an example holds, by its rule's own pattern: the last group that matched (a rule reading user then password, or
 * an id then a key, captures the secret last), widened to the outermost group holding it (`(rdme_(…))`); the whole match if
 * the pattern has no group. Undefined when the pattern does not find it (a few of Kingfisher's rely on its engine's reading).
 */
function secretOf(re: RE2JS, example: string): string | undefined {
  const m = re.matcher(example);
  if (!m.find()) return undefined;
  let [start, end] = [m.start(), m.end()];
  let last = 0;
  for (let g = 1; g <= m.groupCount(); g++) if (m.start(g) >= 0 && m.end(g) > m.start(g)) last = g;
  if (last > 0) {
    [start, end] = [m.start(last), m.end(last)];
    for (let g = 1; g < last; g++) {
      if (m.start(g) >= 0 && m.start(g) <= start && m.end(g) >= end) {
        [start, end] = [m.start(g), m.end(g)];
        break;
      }
    }
  }
  return example.slice(start, end).trim() || undefined;
}

/** The provider's words of a rule's name: "LaunchDarkly API Key" → "LaunchDarkly", "Google OAuth Client Secret" → "Google". */
export function providerOf(name: string): string {
  return name.split(/\s+(?=(?:API|Api|Access|Secret|Private|Personal|Client|OAuth|Key|Token|Password|Credentials?|Webhook|Auth|Bot|App|Application|Service|Account|Admin|Management|Integration|User|Session|Refresh|Bearer|Server|Connection|Database|Signing|Deploy|Project|Org|Organization)\b)/)[0]!;
}

/**
 * The lesson sentences a value is put in, by family: `assignment` (an env name ending in _TOKEN), `named` (the rule's own
 * name before "is"), `provider` (only the provider's name near), `env` (no name at all: only a random value's shape says it).
 */
export const FORMS: Record<string, (provider: string, name: string, v: string) => string> = {
  assignment: (p, _n, v) => `Set ${p.toUpperCase().replace(/[^A-Z0-9]+/g, "_")}_TOKEN=${v} in CI before the release job runs.`,
  named: (_p, n, v) => `The ${n} we use for staging is ${v}, rotate it after the demo.`,
  provider: (p, _n, v) => `Calls to ${p} from the worker use ${v} from the ops account.`,
  env: (_p, _n, v) => `The deploy job reads ${v} from its env, so keep the runner private.`,
};

/**
 * A value written to show a shape rather than drawn (most of Kingfisher's examples are): a stand-in word, a piece of three or
 * more repeated three times running, or five letters or five digits in order either way once the other kind is taken out
 * (`abcde`, `98765`, `a1b2c3d4e5`, `ab12cd34ef56`). A drawn 40-character hex key looks made up by this about 1 % of the
 * time, a base62 one 0.04 %. The eval's own test, apart from the gate's, so its figures can leave these out.
 */
export function looksMadeUp(value: string): boolean {
  if (/example|sample|your|xxxx|dummy|fake|placeholder|test|0000|1111/i.test(value) || /(.{3,})\1\1/.test(value)) return true;
  const lower = value.toLowerCase();
  return inOrder(lower.replace(/[^a-z]/g, "")) || inOrder(lower.replace(/[^0-9]/g, ""));
}

/** Five characters in a row each one after (or each one before) the last. */
function inOrder(s: string): boolean {
  let [run, step] = [1, 0];
  for (let i = 1; i < s.length; i++) {
    const d = s.charCodeAt(i) - s.charCodeAt(i - 1);
    run = Math.abs(d) === 1 ? (run > 1 && d === step ? run + 1 : 2) : 1;
    step = d;
    if (run >= 5) return true;
  }
  return false;
}

/** Found, and the middle of the value is gone from the masked text. */
export function masks(text: string, value: string): boolean {
  const { issues, masked } = findSecrets(text);
  const from = Math.floor(value.length / 4);
  return issues.length > 0 && !masked.includes(value.slice(from, from + Math.max(6, Math.floor(value.length / 2))));
}

/**
 * Each rule's `examples`: `as-is` is the example itself as a lesson (the secret masked, or, when the rule's pattern does not find
 * one here, any finding); then the secret in each sentence of FORMS, once per distinct value of a rule. `negative_examples`
 * flagged are false positives; the examples of rules Kingfisher hides (`visible: false`: ids, hosts, user names that other
 * rules' validation needs) are counted apart and are not secrets. `misses` gets "provider\tfamily\trule id\tvalue or example".
 */
export function kingfisher(checkout: string, misses?: string[]): Record<string, Rate> {
  const rate = (): Rate => ({ caught: 0, total: 0 });
  const families = ["as-is", ...Object.keys(FORMS)];
  const rates: Record<string, Rate> = Object.fromEntries(families.map((f) => [f, rate()]));
  // The same, for values that do not look made up (looksMadeUp): the secrets a lesson would really hold.
  const drawnRates: Record<string, Rate> = Object.fromEntries(families.map((f) => [f, rate()]));
  const extra = { "negative_examples flagged": rate(), "ids (visible: false) flagged": rate(), "examples whose secret its pattern does not find": rate() };
  for (const { name: file, text } of files(checkout, "data/rules", ".yml")) {
    const provider = path.basename(file, ".yml");
    const doc = parseYaml(text) as { rules?: KingfisherRule[] };
    for (const rule of doc.rules ?? []) {
      if (rule.visible === false) {
        for (const e of rule.examples ?? []) {
          extra["ids (visible: false) flagged"].total++;
          if (findSecrets(e).issues.length > 0) extra["ids (visible: false) flagged"].caught++;
        }
        continue;
      }
      for (const e of rule.negative_examples ?? []) {
        extra["negative_examples flagged"].total++;
        if (findSecrets(e).issues.length > 0) {
          extra["negative_examples flagged"].caught++;
          misses?.push(`${provider}\tnegative flagged\t${rule.id}\t${JSON.stringify(e)}`);
        }
      }
      const re = RE2JS.compile(fromVerbose(rule.pattern));
      const seen = new Set<string>();
      for (const example of rule.examples ?? []) {
        const value = secretOf(re, example);
        extra["examples whose secret its pattern does not find"].total++;
        if (!value) extra["examples whose secret its pattern does not find"].caught++;
        const drawn = value !== undefined && !looksMadeUp(value);
        const count = (family: string, caught: boolean) => {
          for (const r of drawn ? [rates[family]!, drawnRates[family]!] : [rates[family]!]) {
            r.total++;
            if (caught) r.caught++;
          }
        };
        const asIs = value ? masks(example, value) : findSecrets(example).issues.length > 0;
        count("as-is", asIs);
        if (!asIs) misses?.push(`${provider}\tas-is${drawn ? "" : " (made up)"}\t${rule.id}\t${JSON.stringify(example)}`);
        if (!value || seen.has(value)) continue;
        seen.add(value);
        for (const [form, make] of Object.entries(FORMS)) {
          const caught = masks(make(providerOf(rule.name), rule.name, value), value);
          count(form, caught);
          if (!caught) misses?.push(`${provider}\t${form}${drawn ? "" : " (made up)"}\t${rule.id}\t${JSON.stringify(value)}`);
        }
      }
    }
  }
  return { ...rates, ...Object.fromEntries(families.map((f) => [`${f}, drawn values`, drawnRates[f]!])), ...extra };
}
