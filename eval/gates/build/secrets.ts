// Builds eval/gates/secrets.jsonl: real-format secrets from third-party test data, embedded in lesson sentences.
//
// Run once by hand (not part of npm scripts), from checkouts of the two source repositories:
//   node --import tsx eval/gates/build/secrets.ts <gitleaks checkout> <secretlint checkout> > eval/gates/secrets.jsonl
// Sources and commits are recorded in eval/gates/README.md. Each row: family, source, secret (the exact
// value that must never reach the disk) and lesson (the sentence a user would paste).
import { readFileSync, readdirSync, existsSync } from "node:fs";
import path from "node:path";
import { makeRng } from "../../../bench/rng.js";
import { gitleaksSpans } from "../../../src/quality/secrets/gitleaks.js";

interface Row { family: string; source: string; origin: string; secret: string; lesson: string }

const [gitleaksDir, secretlintDir] = process.argv.slice(2);
if (!gitleaksDir || !secretlintDir) {
  console.error("usage: secrets.ts <gitleaks checkout> <secretlint checkout>");
  process.exit(2);
}

const TEMPLATES = [
  (l: string) => `The staging deploy only worked after we set ${l} in the runner env.`,
  (l: string) => `Deploy step for the billing service: ${l}`,
  (l: string) => `We hardcoded ${l} in config.ts to unblock the release; move it to the vault later.`,
  (l: string) => `For the integration tests use ${l} until the sandbox account is ready.`,
  (l: string) => `The nightly job failed with 401 until the key was rotated; the new one is ${l}`,
  (l: string) => `Remember the credentials for the reports worker: ${l}`,
];

/** A window of the source line around the secret, so the lesson stays within 280 characters. */
function around(line: string, start: number, end: number): string {
  const from = Math.max(0, start - 50);
  const to = Math.min(line.length, end + 20);
  return line.slice(from, to).trim();
}

function lessonFor(i: number, snippet: string): string {
  return TEMPLATES[i % TEMPLATES.length]!(snippet);
}

const rows: Row[] = [];
const family = (ruleId: string) => {
  const special: Record<string, string> = { "private-key": "private-key", "generic-api-key": "generic", "curl-auth-header": "curl", "curl-auth-user": "curl", "kubernetes-secret-yaml": "kubernetes", "jwt-base64": "jwt" };
  const first = ruleId.split("-")[0]!;
  return ({ vault: "hashicorp", flyio: "fly", pkcs12: "private-key", "secp256k1": "private-key" } as Record<string, string>)[first] ?? special[ruleId] ?? first;
};

// ---- secretlint: every "ng" snapshot's output.json gives the exact range of each secret in its input ----
const slRoot = path.join(secretlintDir, "packages/@secretlint");
for (const pkg of readdirSync(slRoot).sort()) {
  const snaps = path.join(slRoot, pkg, "test/snapshots");
  if (!pkg.startsWith("secretlint-rule-") || !existsSync(snaps)) continue;
  // Rules about files or comments, not secrets in text.
  if (/filter-comments|no-dotenv|no-homedir|pattern|example/.test(pkg)) continue;
  for (const snap of readdirSync(snaps).sort()) {
    if (snap.startsWith("ok.") || snap.startsWith("options.")) continue;
    const dir = path.join(snaps, snap);
    const input = readdirSync(dir).find((f) => f.startsWith("input") && !f.endsWith(".p12"));
    if (!input || !existsSync(path.join(dir, "output.json"))) continue;
    const text = readFileSync(path.join(dir, input), "utf8");
    const out = JSON.parse(readFileSync(path.join(dir, "output.json"), "utf8")) as { messages: Array<{ range: [number, number] }> };
    const seen = new Set<string>();
    for (const m of out.messages) {
      const [s, e] = m.range;
      const secret = text.slice(s, e);
      // Account, tenant and client ids identify; they grant nothing on their own.
      if (seen.has(secret) || secret.length < 8 || isStandIn(secret) || /Account ID|tenant_id|client_id/.test(snap)) continue;
      seen.add(secret);
      const lineStart = text.lastIndexOf("\n", s - 1) + 1;
      const lineEnd = text.indexOf("\n", e);
      const line = text.slice(lineStart, lineEnd < 0 ? text.length : lineEnd);
      // Multi-line secrets (a PEM block, a YAML Secret) are kept whole as the lesson's snippet.
      const snippet = secret.includes("\n") || secret.length > 200 ? secret : around(line, s - lineStart, e - lineStart);
      const lesson = lessonFor(rows.length, snippet);
      const fam = pkg.replace("secretlint-rule-", "").replace("basicauth", "basic-auth").replace("privatekey", "private-key").replace("database-connection-string", "database-url").replace("no-k8s-kind-secret", "kubernetes").replace("hashicorp-vault", "hashicorp").replace("secp256k1-private-key", "private-key");
      rows.push({ family: fam, source: "secretlint-fixtures", origin: `${pkg}/test/snapshots/${snap}`, secret, lesson });
    }
  }
}

// ---- gitleaks: the literal true positives each rule is validated against (cmd/generate/config/rules/*.go) ----
const glRules = path.join(gitleaksDir, "cmd/generate/config/rules");
const GENERATORS = /(?:GenerateSampleSecrets?|NewSecret|AlphaNumeric\w*|Hex\w*|Numeric|newPlausibleSecret|MustCompile|GenerateUniqueTokenRegex|Sprintf)\($/;
for (const file of readdirSync(glRules).filter((f) => f.endsWith(".go") && !f.endsWith("_test.go")).sort()) {
  const src = readFileSync(path.join(glRules, file), "utf8");
  for (const fn of src.matchAll(/func (\w+)\(\) \*config\.Rule \{([\s\S]*?)\n\}\n/g)) {
    const body = fn[2]!;
    const ruleId = /RuleID:\s*"([^"]+)"/.exec(body)?.[1];
    const t = body.indexOf("tps");
    if (!ruleId || t < 0) continue;
    let stop = body.length;
    for (const s of ["fps :=", "fps = ", "return utils.Validate", "return &r"]) {
      const k = body.indexOf(s, t);
      if (k >= 0) stop = Math.min(stop, k);
    }
    const region = body.slice(t, stop);
    for (const m of region.matchAll(/`([^`]*)`|"((?:[^"\\\n]|\\.)*)"/g)) {
      if (GENERATORS.test(region.slice(Math.max(0, (m.index ?? 0) - 40), m.index))) continue;
      const literal = m[1] ?? JSON.parse(`"${m[2]}"`) as string;
      // Concatenated pieces ("prefix" + generated) and descriptions are not whole examples.
      const next = region.slice((m.index ?? 0) + m[0].length).trimStart();
      if (next.startsWith("+") || /^\s*\+/.test(region.slice(Math.max(0, (m.index ?? 0) - 3), m.index))) continue;
      // The secret is what the rule itself extracts from its own example: a literal it finds nothing in
      // (a description, a file name, half an example) is not a whole example and is left out.
      const found = gitleaksSpans(literal).find((f) => f.rule === ruleId);
      if (!found) continue;
      const secret = literal.slice(found.start, found.end);
      const snippet = literal.includes("\n") ? literal.trim() : around(literal, found.start, found.end);
      if (snippet.length > 220 || isStandIn(secret)) continue;
      rows.push({ family: family(ruleId), source: "gitleaks-tps", origin: `${file}:${ruleId}`, secret, lesson: lessonFor(rows.length, snippet) });
    }
  }
}

/**
 * Documentation stand-ins, left out of the corpus because a lesson about a key's format must stay
 * writable: a run of one repeated character (`sk_live_AAAA…`, `hf_xxxx…`), the alphabet in order, or a
 * dictionary word as the password (`user:pass`).
 */
function isStandIn(secret: string): boolean {
  return /(.)\1{7,}/.test(secret) || /abcdefghijklmnop/i.test(secret) || /^(?:[\w.-]+:)?(?:pass|password|secret|changeme)$/i.test(secret);
}

// ---- gitleaks: rules validated against generated samples — the same format, a body drawn here ----
// `utils.GenerateSampleSecret("id", "prefix" + secrets.NewSecret(utils.AlphaNumeric("20")))` becomes
// `id_api_token = "prefix<20 random [a-z0-9]>"`, as gitleaks' own tests build it. Only simple
// patterns (literals, one character class with a count) are expanded; anything else is skipped.
const genRand = makeRng(0x9e1ea45);
const CLASSES: Record<string, string> = {
  Numeric: "[0-9]", Hex: "[a-f0-9]", AlphaNumeric: "[a-z0-9]", AlphaNumericExtendedShort: "[a-z0-9_-]",
  AlphaNumericExtended: "[a-z0-9=_\\-]", AlphaNumericExtendedLong: "[a-z0-9\\/=_\\+\\-]",
};
function expandClass(cls: string): string {
  const body = cls.slice(1, -1);
  let out = "";
  for (let i = 0; i < body.length; i++) {
    let c = body[i]!;
    if (c === "\\") { out += body[++i]; continue; }
    if (body[i + 1] === "-" && i + 2 < body.length) {
      const to = body[i + 2]!;
      for (let x = c.charCodeAt(0); x <= to.charCodeAt(0); x++) out += String.fromCharCode(x);
      i += 2;
      continue;
    }
    out += c;
  }
  return out;
}
/** A random string for a pattern made of literals and `[class]{n}` / `{n,m}` / `{n,}` pieces; null if it has more. */
function sample(pattern: string): string | null {
  let out = "";
  const re = /\[((?:\\.|[^\]])+)\]\{(\d+)(?:,(\d*))?\}|\\(.)|([A-Za-z0-9_:"'= -])/gy;
  let m: RegExpExecArray | null;
  let at = 0;
  while (at < pattern.length && (re.lastIndex = at, (m = re.exec(pattern)))) {
    if (m[1]) {
      const alphabet = expandClass(`[${m[1]}]`);
      const min = Number(m[2]);
      const max = m[3] === undefined ? min : m[3] === "" ? min + 8 : Number(m[3]);
      const n = min + Math.floor(genRand() * (max - min + 1));
      for (let k = 0; k < n; k++) out += alphabet[Math.floor(genRand() * alphabet.length)];
    } else out += m[4] ?? m[5];
    at = re.lastIndex;
  }
  return at === pattern.length ? out : null;
}
function evalPiece(piece: string): string | null {
  const p = piece.trim();
  let m = /^"((?:[^"\\]|\\.)*)"$/.exec(p);
  if (m) return JSON.parse(`"${m[1]}"`) as string;
  m = /^secrets\.NewSecret\(utils\.(\w+)\("(\d+(?:,\d*)?)"\)\)$/.exec(p);
  if (m && CLASSES[m[1]!]) return sample(`${CLASSES[m[1]!]}{${m[2]}}`);
  m = /^secrets\.NewSecret\(utils\.Hex8_4_4_4_12\(\)\)$/.exec(p);
  if (m) return sample("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
  m = /^secrets\.NewSecret\(`([^`]*)`\)$|^secrets\.NewSecret\("((?:[^"\\]|\\.)*)"\)$/.exec(p);
  if (m) return sample(m[1] ?? (JSON.parse(`"${m[2]}"`) as string));
  return null;
}
const covered = new Set(rows.map((r) => r.origin.split(":")[1]));
for (const file of readdirSync(glRules).filter((f) => f.endsWith(".go") && !f.endsWith("_test.go")).sort()) {
  const src = readFileSync(path.join(glRules, file), "utf8");
  for (const fn of src.matchAll(/func (\w+)\(\) \*config\.Rule \{([\s\S]*?)\n\}\n/g)) {
    const body = fn[2]!;
    const ruleId = /RuleID:\s*"([^"]+)"/.exec(body)?.[1];
    if (!ruleId || covered.has(ruleId)) continue;
    const call = /GenerateSampleSecrets?\("([\w-]+)",\s*((?:"(?:[^"\\]|\\.)*"|secrets\.NewSecret\((?:[^()]|\([^()]*\))*\)|\s|\+)+)\)/.exec(body);
    if (!call) continue;
    const pieces = call[2]!.split(/\+(?![^(]*\))/).map(evalPiece);
    if (pieces.some((x) => x === null)) continue;
    const secret = pieces.join("");
    if (secret.length < 8) continue;
    const line = `${call[1]}_api_token = "${secret}"`;
    rows.push({ family: family(ruleId), source: "gitleaks-generated", origin: `${file}:${ruleId}`, secret, lesson: lessonFor(rows.length, line) });
  }
}

// ---- formats the issue names, written here in each provider's documented shape with random bodies ----
const rand = makeRng(0x5ec12e7);
const pick = (alphabet: string, n: number) => Array.from({ length: n }, () => alphabet[Math.floor(rand() * alphabet.length)]).join("");
const AN = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const LOWER_AN = "abcdefghijklmnopqrstuvwxyz0123456789";
const HEX = "0123456789abcdef";
const B64 = AN + "+/";
const issue: Array<[string, string, (s: string) => string]> = [
  ["stripe", "sk_test_" + pick(AN, 24), (s) => `Charge test cards in staging with ${s}`],
  ["stripe", "rk_live_" + pick(AN, 24), (s) => `The restricted key for refunds is ${s}`],
  ["gitlab", "gldt-" + pick(AN, 20), (s) => `Pull images in CI with the deploy token ${s}`],
  ["gitlab", "glrt-" + pick(AN, 20), (s) => `Register the runner with ${s}`],
  ["gitlab", "glptt-" + pick(HEX, 40), (s) => `Trigger the downstream pipeline with ${s}`],
  ["gitlab", "glcbt-" + pick(AN, 5) + "_" + pick(AN, 20), (s) => `The job token ${s} can read the package registry`],
  ["gitlab", "glft-" + pick(AN, 20), (s) => `Subscribe to the feed with ${s}`],
  ["gitlab", "GR1348941" + pick(AN, 20), (s) => `Old runners register with ${s}`],
  ["gitlab", pick(HEX, 32), (s) => `Reuse the browser cookie _gitlab_session=${s} for the API script`],
  ["slack", "hooks.slack.com/services/T" + pick(AN.toUpperCase(), 8) + "/B" + pick(AN.toUpperCase(), 8) + "/" + pick(AN, 24), (s) => `Post deploy notices to ${s}`],
  ["slack", "https://hooks.slack.com/workflows/T" + pick("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", 10) + "/A" + pick("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", 10) + "/" + pick("0123456789", 18) + "/" + pick(AN, 24), (s) => `The release workflow webhook is ${s}`],
  ["slack", "https://hooks.slack.com/triggers/T" + pick("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", 10) + "/" + pick("0123456789", 13) + "/" + pick(LOWER_AN, 32), (s) => `Trigger the on-call flow with ${s}`],
  ["huggingface", "api_org_" + pick("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz", 34), (s) => `Download the gated model with ${s}`],
  ["aws", "ABSKQmVkcm9ja0FQSUtleS1" + pick(AN + "+/", 110), (s) => `Call Bedrock from the summarizer with ${s}`],
  ["curl", "deploy:" + pick(AN, 14), (s) => `Upload the artifact with curl -u ${s} https://nexus.internal/repo`],
  ["basic-auth", Buffer.from("ci-bot:" + pick(AN, 16)).toString("base64"), (s) => `The registry wants the header Authorization: Basic ${s}`],
  ["kubernetes", Buffer.from(pick(AN, 18)).toString("base64"), (s) => `apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\ndata:\n  password: ${s}`],
  ["azure", pick(AN, 3) + "8Q~" + pick(AN + "_~.-", 34), (s) => `"client_secret":       acctest.Representation{RepType: acctest.Required, Create: '${s}'}`],
  ["hashicorp", "hvs." + pick(AN + "_-", 95), (s) => `Vault login for the deploy job: VAULT_TOKEN=${s}`],
  ["nuget", "oy2" + pick("abcdefghijklmnopqrstuvwxyz234567", 43), (s) => `Push packages with dotnet nuget push -k ${s}`],
  ["shopify", "shpat_" + pick(HEX, 32), (s) => `The admin API token for the store is ${s}`],
  ["digitalocean", "dop_v1_" + pick(HEX, 64), (s) => `Provision droplets with doctl auth init -t ${s}`],
  ["twilio", "SK" + pick(HEX, 32), (s) => `SMS alerts use the Twilio API key ${s}`],
  ["doppler", "dp.pt." + pick(AN, 43), (s) => `Fetch config with DOPPLER_TOKEN=${s}`],
  ["1password", "ops_eyJ" + pick(AN + "+/", 250), (s) => `OP_SERVICE_ACCOUNT_TOKEN=${s}`],
  ["grafana", "glsa_" + pick(AN, 32) + "_" + pick(HEX, 8), (s) => `Dashboards are provisioned with ${s}`],
  ["sourcegraph", "sgp_" + pick(HEX, 16) + "_" + pick(HEX, 40), (s) => `Batch changes run with SRC_ACCESS_TOKEN=${s}`],
  ["planetscale", "pscale_pw_" + pick(AN + "_.-", 43), (s) => `Connect the branch with password ${s}`],
  ["easypost", "EZAK" + pick(AN, 54), (s) => `Labels are bought with ${s}`],
  ["fly", "fo1_" + pick(AN + "_-", 43), (s) => `Deploy from CI with FLY_API_TOKEN=${s}`],
  ["sonar", "squ_" + pick(HEX, 40), (s) => `sonar.token=${s} in sonar-project.properties`],
  ["facebook", "EAAC" + pick(AN, 160), (s) => `The page access token is ${s}`],
  ["cloudflare", pick(AN + "_-", 40), (s) => `cloudflare_api_token = "${s}" in terraform.tfvars`],
  ["generic", pick(AN, 32), (s) => `var apiToken string = "${s}" in cmd/server/main.go`],
  ["private-key", "MIIEowIBAAKCAQEA7bq9xYz", (s) => `Sign releases with this key: -----BEGIN RSA PRIVATE KEY----- ${s} -----END RSA PRIVATE KEY-----`],
];
for (const [fam, secret, make] of issue) rows.push({ family: fam, source: "issue-12", origin: "formats listed in issue 12", secret, lesson: make(secret) });

// One row per distinct secret; the lesson must fit the gate's length limit so only the secret can be the reason.
const seen = new Set<string>();
for (const r of rows) {
  if (seen.has(r.secret) || [...r.lesson].length > 280 || r.secret.length < 8) continue;
  seen.add(r.secret);
  process.stdout.write(JSON.stringify(r) + "\n");
}
