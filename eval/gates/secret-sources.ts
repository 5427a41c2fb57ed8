// The secrets gate against four more held-apart sources, read from checkouts: Microsoft's identifiable key formats, detect-secrets' and EarlyBird's test cases, secrets-patterns-db's patterns.
import { parse as parseYaml } from "yaml";
import { findSecrets } from "../../src/quality/secrets.js";
import { files } from "./checkout.js";
import { FORMS, looksMadeUp, masks, providerOf } from "./kingfisher.js";
import { drawFrom, seeded } from "./sample-regex.js";

interface Rate { caught: number; total: number }
const rate = (): Rate => ({ caught: 0, total: 0 });
const count = (r: Rate, caught: boolean) => {
  r.total++;
  if (caught) r.caught++;
};

/** A text as a lesson quoting a config line (as held-apart.ts puts Nosey Parker's examples). */
const inLesson = (line: string) => `We fixed the deploy after this turned up in the config: ${line.trim()} — keep it out of the repo.`;

/**
 * A drawn value in each sentence of FORMS (kingfisher.ts): `assignment`, `named`, `provider`, `env`. `misses` gets
 * "source\tform\tname\tvalue".
 */
function inForms(rates: Record<string, Rate>, source: string, name: string, value: string, misses?: string[]): void {
  for (const [form, make] of Object.entries(FORMS)) {
    const caught = masks(make(providerOf(name), name, value), value);
    count((rates[form] ??= rate()), caught);
    if (!caught) misses?.push(`${source}\t${form}\t${name}\t${JSON.stringify(value)}`);
  }
}

/**
 * microsoft/security-utilities' identifiable key formats (`GeneratedRegexPatterns/PreciselyClassifiedSecurityKeys.json` and
 * `HighConfidenceSecurityModels.json`, each format once): Azure and Microsoft keys carrying a fixed signature (`JQQJ99`, `AzFu`,
 * `+ACR`, `8Q~`…). Its tests build their examples in C# at run time (and fill them with `dead`), so three values are drawn
 * from each pattern here (seeded by the rule's id), the `refine` group being the secret, and put in FORMS' sentences.
 */
export function msSecurityUtilities(checkout: string, misses?: string[]): Record<string, Rate> {
  const rates: Record<string, Rate> = {};
  const seen = new Set<string>();
  const undrawn = rate();
  for (const file of ["GeneratedRegexPatterns/PreciselyClassifiedSecurityKeys.json", "GeneratedRegexPatterns/HighConfidenceSecurityModels.json"]) {
    for (const p of JSON.parse(files(checkout, file, "")[0]!.text) as Array<{ Id: string; Name: string; Label: string; Pattern: string; Signatures?: string[] | null }>) {
      if (seen.has(p.Name)) continue;
      seen.add(p.Name);
      const name = p.Label.replace(/^(?:an?|the)\s+/, "");
      for (let i = 0; i < 3; i++) {
        undrawn.total++;
        let value: string | undefined;
        try {
          const d = drawFrom(p.Pattern.replace(/\(\?i\)/g, ""), seeded(`${p.Id}#${p.Name}#${i}`), 4);
          const g = d.groups.get("refine");
          value = g ? d.text.slice(...g) : undefined;
          // A `(?i)` pattern of the legacy formats draws letters in one case; a drawn key's are both: each flipped at random
          // (not a signature's: NuGet's oy2… is lower case).
          const random = seeded(`${p.Id}#case#${i}`);
          if (value && p.Pattern.startsWith("(?i)") && !(p.Signatures ?? []).some((s) => value!.startsWith(s))) {
            value = [...value].map((c) => (random() < 0.5 ? c.toUpperCase() : c)).join("");
          }
        } catch {
          value = undefined;
        }
        if (!value || value.length < 16) {
          undrawn.caught++;
          continue;
        }
        inForms(rates, `security-utilities ${p.Id}`, name, value, misses);
      }
    }
  }
  return { ...rates, "values not drawn (pattern not read)": undrawn };
}

/** The value of a Python expression made of string literals, `+`, and `.format(…)` with module constants or literals; undefined if it is anything else. */
function pythonString(expr: string, constants: Map<string, string>): string | undefined {
  const literal = /^\s*[uUrRbB]?(?:'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)")/;
  let rest = expr;
  let out = "";
  let parts = 0;
  for (let m = literal.exec(rest); m; m = literal.exec(rest)) {
    const raw = m[1] ?? m[2] ?? "";
    out += raw.replace(/\\(.)/g, (_x, c: string) => ({ n: "\n", t: "\t", r: "\r", "\\": "\\", "'": "'", '"': '"' })[c] ?? `\\${c}`);
    rest = rest.slice(m[0].length).replace(/^\s*\+?\s*/, "");
    parts++;
  }
  if (!parts) return constants.get(rest.trim());
  rest = rest.trim();
  if (!rest) return out;
  const format = /^\.format\(([\s\S]*)\)$/.exec(rest);
  if (!format) return undefined;
  const args = format[1]!.split(",").map((a) => a.trim()).filter(Boolean);
  const positional: string[] = [];
  const named = new Map<string, string>();
  for (const a of args) {
    const kv = /^(\w+)\s*=\s*([\s\S]+)$/.exec(a);
    const v = pythonString(kv ? kv[2]! : a, constants);
    if (v === undefined) return undefined;
    if (kv) named.set(kv[1]!, v);
    else positional.push(v);
  }
  let next = 0;
  return out.replace(/\{\{|\}\}|\{(\w*)\}/g, (m, key: string | undefined) => (m === "{{" ? "{" : m === "}}" ? "}" : key ? (named.get(key) ?? positional[Number(key)] ?? m) : (positional[next++] ?? m)));
}

/**
 * Yelp/detect-secrets' plugin tests (`tests/plugins/*_test.py`): every `(payload, True|False)` case, and the keyword
 * plugin's `(line, expected secret)` cases, each line put in a lesson. `examples` a case that should flag and did (for the
 * keyword plugin: its expected secret masked); `negatives flagged` a case that should not: often another kind's real
 * secret, or a value the plugin leaves to another, so read before counting it a false positive.
 */
export function detectSecrets(checkout: string, misses?: string[]): Record<string, Rate> {
  // `drawn`: the examples whose line does not look made up (looksMadeUp: `xxxx`, `ZZZZ…`, `abcd1234abcd1234…`), the secrets a lesson would hold.
  const rates = { examples: rate(), "examples, drawn values": rate(), "negatives flagged": rate(), "keyword examples": rate(), "keyword negatives flagged": rate() };
  const seen = new Set<string>();
  for (const { name, text } of files(checkout, "tests/plugins", "_test.py")) {
    const constants = new Map<string, string>();
    for (const m of text.matchAll(/^([A-Z][A-Z0-9_]*)\s*=\s*(.+)$/gm)) {
      const v = pythonString(m[2]!, constants);
      if (v !== undefined) constants.set(m[1]!, v);
    }
    const plugin = name.replace(/^.*\/|_test\.py$/g, "");
    // `(expr, True)` and `(expr, expected)` tuples; an expression may span lines (a literal then `.format(…)`), comments dropped.
    const body = text.replace(/#[^\n'"]*$/gm, "");
    for (const m of body.matchAll(/\(\s*((?:[uUrRbB]?(?:'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")\s*)+(?:\.format\([^()]*\))?|[A-Z][A-Z0-9_]*)\s*,\s*(True|False|None|[A-Z][A-Z0-9_]*|[uUrR]?'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")\s*,?\s*\)/g)) {
      const line = pythonString(m[1]!, constants);
      if (line === undefined || !line.trim() || line.length > 2000) continue;
      const key = `${plugin}\t${line}\t${m[2]}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const lesson = inLesson(line);
      if (m[2] === "True" || m[2] === "False") {
        const flagged = findSecrets(lesson).issues.length > 0;
        count(m[2] === "True" ? rates.examples : rates["negatives flagged"], flagged);
        if (m[2] === "True" && !looksMadeUp(line)) count(rates["examples, drawn values"], flagged);
        if (flagged !== (m[2] === "True")) misses?.push(`detect-secrets\t${m[2] === "True" ? "missed" : "negative flagged"}\t${plugin}\t${JSON.stringify(line)}`);
      } else {
        const expected = m[2] === "None" ? undefined : pythonString(m[2]!, constants);
        if (expected === undefined && m[2] !== "None") continue;
        const caught = expected ? masks(lesson, expected) : findSecrets(lesson).issues.length > 0;
        count(expected ? rates["keyword examples"] : rates["keyword negatives flagged"], caught);
        if (caught !== Boolean(expected)) misses?.push(`detect-secrets\t${expected ? "missed" : "negative flagged"}\t${plugin}\t${JSON.stringify(line)}`);
      }
    }
  }
  return rates;
}

/**
 * americanexpress/earlybird: the `Example` of each rule of `config/rules/content.yaml` and `password-secret.yaml` whose category
 * is a secret (`password-secret`, `key`; not PII, hosts or crypto calls), put in a lesson; and its Go tests' lines with the
 * answer they expect (`LineValue` + `wantIsHit`, `MatchValue` + `wantIsFP`, `lineValue` + `wantIgnore`, and the Basic-auth and
 * JWT tables), as `test secrets` (should flag) and `test non-secrets flagged`.
 */
export function earlybird(checkout: string, misses?: string[]): Record<string, Rate> {
  const rates = { "rule examples": rate(), "test secrets": rate(), "test secrets, drawn values": rate(), "test non-secrets flagged": rate() };
  for (const file of ["config/rules/content.yaml", "config/rules/password-secret.yaml"]) {
    // content.yaml has a scalar the yaml package will not read (a line break inside a double-quoted pattern): each rule's fields are read alone.
    const rules = files(checkout, file, "")[0]!.text.split(/\n\s*- Code:/).slice(1).map((block) => {
      const field = (k: string) => {
        const line = new RegExp(`^\\s*${k}:(.*)$`, "m").exec(block)?.[1];
        try {
          return line === undefined ? undefined : (parseYaml(`v:${line}`) as { v: unknown }).v;
        } catch {
          return undefined; // a scalar over several lines: the crypto rules' code samples, not secrets
        }
      };
      return { Code: block.split("\n")[0]!.trim(), Category: field("Category") as string | undefined, Example: field("Example") as string | undefined, Caption: field("Caption") as string | undefined };
    });
    for (const r of rules) {
      if (!r.Example || (r.Category !== "password-secret" && r.Category !== "key")) continue;
      const flagged = findSecrets(inLesson(r.Example)).issues.length > 0;
      count(rates["rule examples"], flagged);
      if (!flagged) misses?.push(`earlybird\tmissed rule example\t${r.Code} ${r.Caption}\t${JSON.stringify(r.Example)}`);
    }
  }
  const goString = (s: string) => (s.startsWith("`") ? s.slice(1, -1) : (JSON.parse(s) as string));
  for (const { name, text } of files(checkout, "pkg", "_test.go")) {
    const cases: Array<{ line: string; secret: boolean }> = [];
    for (const m of text.matchAll(/\b(LineValue|MatchValue|lineValue)\s*:\s*("(?:[^"\\\n]|\\.)*"|`[^`]*`)[\s\S]{0,400}?\b(wantIsHit|wantIsFP|wantIgnore)\s*:\s*(true|false)/g)) {
      const hit = m[4] === "true";
      cases.push({ line: goString(m[2]!), secret: m[3] === "wantIsHit" ? hit : !hit });
    }
    if (/basicAuthHeader|jwt/.test(name)) {
      for (const m of text.matchAll(/"[^"\n]*",\s*("(?:[^"\\\n]|\\.)*"),\s*(true|false)/g)) cases.push({ line: goString(m[1]!), secret: m[2] === "true" });
    }
    for (const c of cases) {
      const flagged = findSecrets(inLesson(c.line)).issues.length > 0;
      count(c.secret ? rates["test secrets"] : rates["test non-secrets flagged"], flagged);
      if (c.secret && !looksMadeUp(c.line)) count(rates["test secrets, drawn values"], flagged);
      if (flagged !== c.secret) misses?.push(`earlybird\t${c.secret ? "missed" : "negative flagged"}\t${name}\t${JSON.stringify(c.line)}`);
    }
  }
  return rates;
}

/** Names of patterns that find a place or an identity, not a credential (unless the name also says key, token, secret or password). */
const NOT_A_CREDENTIAL = /\b(?:url|uri|domain|host|hostname|subdomain|email|e-mail|user(?:name)?|id|ids|arn|bucket|ip|endpoint|account|region|phone|org(?:anization)?|tenant|project|app)\b/i;
const CREDENTIAL_WORD = /key|token|secret|pass|webhook|auth|credential|private/i;

/**
 * mazen160/secrets-patterns-db's `db/rules-stable.yml`, high-confidence patterns only: one value drawn from each (seeded by its
 * name), the longest capture group of 8+ characters being the secret (else the whole match). Left out: patterns that find a
 * name or a keyword only (no drawn value of 16+ characters), and those named for a URL, a host, an id or an account. Each value
 * in FORMS' sentences; `as-is` the whole drawn match in a lesson, for patterns that stand alone (no `.{0,40}` gap to a keyword).
 */
export function secretsPatternsDb(checkout: string, misses?: string[]): Record<string, Rate> {
  const rates: Record<string, Rate> = { "as-is": rate() };
  const skipped = { "patterns not read (look-around, back-reference)": rate(), "patterns left out (a name, a host, an id, or under 16 characters)": rate() };
  const doc = parseYaml(files(checkout, "db/rules-stable.yml", "")[0]!.text) as { patterns: Array<{ pattern: { name: string; regex: string; confidence: string } }> };
  const seen = new Set<string>();
  for (const { pattern: p } of doc.patterns) {
    if (p.confidence !== "high" || seen.has(p.regex)) continue;
    seen.add(p.regex);
    skipped["patterns not read (look-around, back-reference)"].total++;
    skipped["patterns left out (a name, a host, an id, or under 16 characters)"].total++;
    const provider = p.name.replace(/\s+-\s+\d+$/, "").replace(/[_-]+/g, " ");
    let drawn;
    try {
      drawn = drawFrom(p.regex.replace(/\(\?[a-z]+\)/g, ""), seeded(p.name + p.regex), 6);
    } catch {
      skipped["patterns not read (look-around, back-reference)"].caught++;
      continue;
    }
    const groups = [...drawn.groups.entries()].filter(([k]) => typeof k === "number").map(([, g]) => g).filter(([a, b]) => b - a >= 8);
    const [from, to] = groups.sort((x, y) => y[1] - y[0] - (x[1] - x[0]))[0] ?? [0, drawn.text.length];
    const value = drawn.text.slice(from, to).trim();
    // A drawn secret holds digits or both cases: a pattern that draws only a name (`asana_access_token`, `mysql_root_password=`) finds a keyword.
    const drawnValue = /\d.*\d/.test(value) || (/[a-z]/.test(value) && /[A-Z]/.test(value));
    if (value.length < 16 || !drawnValue || /\s/.test(value) || (NOT_A_CREDENTIAL.test(p.name) && !CREDENTIAL_WORD.test(p.name)) || /:\/\/|\.com\b|\.io\b/.test(value) && !CREDENTIAL_WORD.test(p.name) || looksMadeUp(value)) {
      skipped["patterns left out (a name, a host, an id, or under 16 characters)"].caught++;
      continue;
    }
    const name = CREDENTIAL_WORD.test(provider) ? provider : `${provider} API key`;
    if (!/\.\{\d*,\d+\}|\.\*|\.\+/.test(p.regex)) {
      const caught = masks(inLesson(drawn.text), value);
      count(rates["as-is"]!, caught);
      if (!caught) misses?.push(`secrets-patterns-db\tas-is\t${p.name}\t${JSON.stringify(drawn.text)}`);
    }
    inForms(rates, "secrets-patterns-db", name, value, misses);
  }
  return { ...rates, ...skipped };
}
