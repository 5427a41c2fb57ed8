// Content-safety gate: destructive or security-degrading advice, prompt-injection markers, hidden characters.
import { anyMatchTest } from "./any-match.js";
import type { QualityIssue } from "./types.js";
import { foldConfusables } from "./confusables.js";
import { findInjectionMarkers } from "./injection.js";
import {
  findInvisibleChars, firstInvisibleCodePoint, INVISIBLE_LABELS, stripInvisibleChars,
} from "./sanitize.js";

type Severity = QualityIssue["severity"];
type Stance = "negated" | "cautioned" | "recommended";

interface AdviceRule {
  code: "destructive_command" | "security_degrading";
  /** What the message names. Never the matched text: it may carry a secret (a URL with a password). */
  label: string;
  re: RegExp;
  /** Severity when the lesson recommends it; null means this match is harmless. Default reject. */
  judge?: (cmd: RegExpMatchArray, sentence: string, text: string) => Severity | null;
}

// Context that turns "do this" into "this is how tests or a laptop do it": a person decides, it is not refused.
const LOCAL_ONLY =
  /\b(?:local(?:host|ly)?|127\.0\.0\.1|self-signed|dev(?:elopment)?\s+(?:only|server|env(?:ironment)?|machine)|(?:unit|e2e|integration)\s+tests?|in\s+tests?|test\s+(?:env|environment|suite|server|db|database)|mocks?|fixtures?|sandbox|health(?:z|\s*checks?)?|readiness|liveness)\b/i;
const localIsReview = (_m: RegExpMatchArray, sentence: string): Severity => (LOCAL_ONLY.test(sentence) ? "review" : "reject");

const RM_DANGEROUS_TARGET =
  /^(?:\/|\/\*|~\/?\*?|\$HOME\/?\*?|\*|\.\/?\*?|\.\.\/?\*?|\$\{?\w+\}?\/?\*?|\/(?:bin|boot|dev|etc|home|lib|lib64|opt|proc|root|sbin|srv|sys|usr|var|mnt|media|Users|System|Library|Applications)\/?\*?|[A-Za-z]:[\\/]?\*?)$/;
const PROSE_WORD =
  /^(?:on|in|to|the|a|an|for|with|when|if|and|or|is|was|will|can|command|commands|here|there|it|this|that|everything|anything|blindly|recursively|before|after|inside|under|from|at|as|against|without|again|anywhere)$/i;

const WIDE_SCOPE = /\b(?:root|home|everything|entire|whole|system|disk|drive|all\s+files)\b/i;
const NARROW_SCOPE = /\b(?:node_modules|dist|build|cache|tmp|temp|coverage|target|out|afterEach|tests?)\b/i;

// Output a build or an install recreates: deleting it is routine advice (`rm -rf node_modules && npm install`).
const REGENERABLE =
  /^(?:\.\/)?(?:node_modules|dist|build|coverage|\.next|\.nuxt|\.turbo|\.cache|\.parcel-cache|target|__pycache__|\.pytest_cache|\.mypy_cache)\/?$/;

// A checkout named in words as what is deleted: "the worktree", "your local repository", "the whole project folder".
const WORKTREE_NAMED =
  /^(?:(?:the|your|my|this|that|whole|entire|local|git|old|broken|current)\s+){0,3}(?:work(?:ing)?[- ]?(?:tree|copy|dir(?:ectory)?)|worktree|repo(?:sitory)?|checkout|clone|project(?:\s+(?:dir(?:ectory)?|folder))?)\b/i;

/**
 * Deleting a directory a build recreates is fine; another named path is for a person to confirm;
 * deleting /, ~, * or an unset $VAR is refused.
 */
function judgeRm(m: RegExpMatchArray, sentence: string, text: string): Severity | null {
  if (/--no-preserve-root/.test(m[0])) return "reject";
  // "rm -rf the worktree and clone again": the object said in words is where the uncommitted work is.
  if (WORKTREE_NAMED.test((m.groups?.target ?? "") + text.slice((m.index ?? 0) + m[0].length, (m.index ?? 0) + m[0].length + 60))) return "reject";
  let target = (m.groups?.target ?? "").replace(/^["'`]+|["'`,;:)\]]+$/g, "");
  if (target.length > 1) target = target.replace(/\.$/, "");
  if (target === "" || PROSE_WORD.test(target)) {
    // No path given: judge by what the sentence says it deletes; unknown stays a refusal.
    return WIDE_SCOPE.test(sentence) || !NARROW_SCOPE.test(sentence) ? "reject" : "review";
  }
  if (RM_DANGEROUS_TARGET.test(target)) return "reject";
  return REGENERABLE.test(target) ? null : "review";
}

// One character of a sentence's clause that has not yet said "not", "only" or "instead" ("Grant the CI account only roles/x,
// never Owner"); a dot inside a name (ci@proj.iam, ~/.zshrc) or an ellipsis ("KEY=... to") is not a sentence's end.
const UNNEGATED = String.raw`(?:(?!\b(?:never|not|no|only|instead)\b|(?<!\.)\.(?:\s|$))[^\n;])`;
// The roles that can do everything in a cloud project or cluster.
const TOP_ROLE = String.raw`(?:\bowner\b|\broles\/(?:owner|editor)\b|\badmin(?:istrator)?(?:access)?\b|\bcluster-admin\b|\bsuperuser\b|\bfull\s+(?:admin\s+)?(?:access|permissions|rights)\b|\ball\s+permissions\b)`;
// What a pipeline or a program signs in as, not a person.
const MACHINE_IDENTITY = String.raw`\b(?:service[- ]?accounts?|ci(?:\/cd)?|pipelines?|runners?|build\s+(?:agents?|servers?)|bots?|github\s+actions|workflows?|GITHUB_TOKEN|deploy(?:ment)?\s+(?:keys?|users?|roles?|accounts?)|machine\s+users?|workload\s+identit(?:y|ies))\b`;

// A key, token or password, as a variable's name (AWS_SECRET_ACCESS_KEY, GITHUB_TOKEN) or in words.
const CREDENTIAL = String.raw`(?:\b\w*_(?:SECRET|TOKEN|PASSWORD|PASSWD|KEY)\w*|\b(?:SECRET|TOKEN|PASSWORD|API_KEY)_\w*|\b(?:access|secret|api|private)\s+keys?\b|\b(?:passwords?|credentials|tokens?|secrets?)\b)`;
// The files every interactive shell reads at start.
const SHELL_STARTUP = String.raw`(?:(?:~\/|\$HOME\/|(?<![\w.\/]))\.(?:bashrc|zshrc|bash_profile|bash_login|zprofile|zshenv|profile)\b|\bconfig\.fish\b|\bshell\s+(?:profile|rc|startup\s+files?|config(?:uration)?)\b)`;

const PROTECTED_BRANCH = /\b(?:main|master|trunk|production|prod|release|develop)\b/i;

// Plain-English verbs that switch a safeguard off, in every inflection ("disabling", "turned off", "skips").
const SWITCH_OFF =
  "(?:disabl(?:e|es|ed|ing)|deactivat(?:e|es|ed|ing)|turn(?:s|ed|ing)?\\s+off|switch(?:es|ed|ing)?\\s+off|skip(?:s|ped|ping)?|bypass(?:es|ed|ing)?|ignor(?:e|es|ed|ing)|comment(?:s|ed|ing)?\\s+out|remov(?:e|es|ed|ing)|drop(?:s|ped|ping)?|kill(?:s|ed|ing)?|get(?:ting)?\\s+rid\\s+of)";
const verbs = (source: string, flags = "gi") => new RegExp(source.replace(/SWITCH_OFF/g, SWITCH_OFF), flags);

/**
 * What each rule does with a lesson that recommends the practice (issue 11, item 10). A lesson that
 * warns against it ("never …", "avoid …", "… is dangerous") passes every rule. `draft` means stored
 * for a person to approve and never shown to an agent before; once approved it keeps its flag and is
 * injected and recalled with "⚠ caution: …", never as plain advice (retrieval/render.ts cautionOf).
 * Imports (trusted data) are neither refused nor held: they are stored with the same caution flag.
 *
 * | rule                                             | recommended     | hedged ("only", "unless") / in tests, local, self-signed |
 * | ------------------------------------------------ | --------------- | -------------------------------------------------------- |
 * | rm -r of /, ~, *, $VAR, a system dir             | reject          | draft (hedged); --no-preserve-root always rejects        |
 * | rm -r of node_modules, dist, build, coverage, …  | fine            | fine: a build recreates them                             |
 * | rm -r of another named path                      | draft           | draft                                                    |
 * | chmod 777, mkfs, dd to a disk, fork bomb,        | reject          | draft (hedged)                                           |
 * |   curl | sh, eval of request/user input,         |                 |                                                          |
 * |   format c:, del /s, firewall off, --no-verify,  |                 |                                                          |
 * |   plain-text secrets, SELinux permissive,        |                 |                                                          |
 * |   --disable-web-security, PermitRootLogin,       |                 |                                                          |
 * |   debug mode in production, SSH/RDP/database     |                 |                                                          |
 * |   ports open to 0.0.0.0/0, MD5/SHA-1 passwords   |                 |                                                          |
 * | DROP DATABASE/TABLE                              | reject          | fine in migrations, rollback, teardown, IF EXISTS        |
 * | force push                                       | draft           | reject when it names main/master/production/release      |
 * | git reset --hard of a shared branch              | reject          | fine when it resets to origin/… (local work only)        |
 * | TLS verification off, curl -k, CSRF off,         | reject          | draft in tests, local, dev server, mocks, self-signed    |
 * |   auth off, world-writable permissions, CSP,     |                 |                                                          |
 * |   rate limiting, password rules, lockout off     |                 |                                                          |
 * | CORS origin *                                    | draft           | reject with credentials                                  |
 * | a production database changed without a backup  | reject          | draft when no production is named; fine in tests         |
 * | Owner or admin granted to a service account/CI   | reject          | draft (hedged); --role=roles/owner with no account named |
 * | keys, tokens, passwords in ~/.bashrc, ~/.zshrc   | reject          | draft (hedged), local                                    |
 * | git clean -x of untracked work; rm -r "the repo" | reject          | draft in CI; git clean -fd draft; -X, -n fine            |
 * | a database without a password (trust auth,       | reject          | draft in tests, local, CI, throwaway containers          |
 * |   empty POSTGRES_PASSWORD, ALLOW_EMPTY_PASSWORD) |                 |                                                          |
 * | sending ~/.ssh, id_rsa, .env, cloud credentials, | reject          | draft (hedged)                                           |
 * |   every env var or any password, key or token to |                 |                                                          |
 * |   a URL, webhook, IP or e-mail address           |                 |                                                          |
 * | eval of a non-literal, sudo rm, kill -9,         | draft           | draft: routine for some, harmful copied blindly          |
 * |   $(curl …) command substitution, a bucket or    |                 |                                                          |
 * |   database made public, failing tests silenced   |                 |                                                          |
 * |   so CI passes, sudo NOPASSWD, sudo or root for  |                 |                                                          |
 * |   everything, sudo npm install, --privileged     |                 |                                                          |
 */
const ADVICE: AdviceRule[] = [
  {
    code: "destructive_command", label: "a recursive delete (rm -r)",
    re: /\b(?:sudo\s+)?rm\s+(?:-{1,2}[\w-]+\s+)*?(?:-[a-zA-Z]*[rR][a-zA-Z]*|--recursive)(?:\s+-{1,2}[\w-]+)*(?:\s+(?<target>[^\s]+))?/g,
    judge: judgeRm,
  },
  { code: "destructive_command", label: "world-writable permissions (chmod 777)", re: /\bchmod\s+(?:-{1,2}[\w-]+\s+)*(?:0?777|0?666|a\+rwx|ugo\+rwx|a=rwx|o\+w)(?![\w+])/g },
  { code: "destructive_command", label: "formatting a filesystem (mkfs)", re: /\b(?:mkfs(?:\.\w+)?|mke2fs|wipefs)\b|\bdiskutil\s+erase\w*/g },
  { code: "destructive_command", label: "writing raw data to a disk device", re: /\bdd\b[^\n;|&]{0,200}?\bof=\/dev\/(?!null\b|zero\b|stdout\b|stderr\b)\w+|>\s*\/dev\/(?:sd[a-z]|nvme\d|hd[a-z]|xvd[a-z]|vd[a-z]|disk\d|mmcblk\d)|\bshred\b[^\n;]{0,40}\/dev\//g },
  { code: "destructive_command", label: "a fork bomb", re: /:\s*\(\s*\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;?\s*:|\b(\w+)\(\)\s*\{\s*\1\s*\|\s*\1\s*&\s*\}/g },
  {
    code: "destructive_command", label: "dropping a database or table",
    // Also in words: "Truncate the users table", "Drop the production database".
    re: /\b(?:drop\s+(?:database|schema|table)|truncate\s+table)\b|\btruncat(?:e|es|ed|ing)\s+(?:the\s+)?[\w.]+\s+table\b|\bdrop(?:s|ped|ping)?\s+(?:the\s+)?(?:prod(?:uction)?|live)\s+(?:database|db|schema)\b/gi,
    // Down-migrations and test teardown drop tables on purpose.
    judge: (_m, s) => (/\bif\s+exists\b|\bmigrations?\b|\brollback\b|\bteardown\b|\btest\s+(?:db|database)\b|\bfixtures?\b/i.test(s) ? null : "reject"),
  },
  {
    // The backup is the only way back from a migration that goes wrong; skipping it "because it is faster" bets the data.
    code: "destructive_command", label: "changing a production database without a backup",
    re: /\b(?:skip(?:s|ped|ping)?|omit(?:s|ted|ting)?|forgo(?:es|ing)?|without|no\s+need\s+(?:for|to\s+(?:take|make|run))|(?:don'?t|do\s+not|never)\s+bother(?:\s+(?:with|taking|making|running))?)\s+(?:(?:the|a|an|any|your|its|fresh|verified|recent|full|database|db|prod(?:uction)?)\s+){0,3}(?:backups?|snapshots?|pg_dump|mysqldump|dumps?)\b(?!\s+(?:tests?|testing|files?|serializ\w*))/gi,
    judge: (_m, s) => {
      if (!/\b(?:migrat\w*|alter\s+table|schemas?|databases?|db|prod(?:uction)?|live)\b/i.test(s)) return null;
      // "Without a backup, a failed migration cannot be undone" is the warning; test databases are recreated anyway.
      if (/\b(?:can(?:not|'t)\s+be\s+(?:undone|recovered|restored)|irreversibl[ey]|unrecoverable|data\s+loss|los(?:e|es|t|ing)\s+(?:the\s+|all\s+)?(?:data|everything|rows))\b/i.test(s)) return null;
      if (LOCAL_ONLY.test(s)) return null;
      return /\b(?:prod(?:uction)?|live)\b/i.test(s) ? "reject" : "review";
    },
  },
  {
    // The quick fix for a 403 in a pipeline: a CI key that can do everything turns one leaked token into the whole account.
    code: "security_degrading", label: "granting Owner or admin to a service account or CI",
    re: new RegExp(
      String.raw`\b(?:grant|give|assign|add|attach|bind|make)(?:s|ed|ing|n)?\b${UNNEGATED}{0,80}?(?:${TOP_ROLE}${UNNEGATED}{0,80}?${MACHINE_IDENTITY}|${MACHINE_IDENTITY}${UNNEGATED}{0,80}?${TOP_ROLE})` +
        String.raw`|--(?:cluster)?role[= ]["']?(?:roles\/(?:owner|editor)|cluster-admin)\b`,
      "gi",
    ),
    // The flag alone grants it to anyone: a machine identity in the sentence makes it this rule's case.
    judge: (_m, s) => (new RegExp(MACHINE_IDENTITY, "i").test(s) ? "reject" : "review"),
  },
  {
    // Every process the user starts reads a shell startup file, it is copied between machines and into dotfile repos:
    // a long-lived key there is the usual leak. Profiles, SSO or a keychain hand out credentials instead.
    code: "security_degrading", label: "credentials in a shell startup file (~/.bashrc, ~/.zshrc)",
    re: new RegExp(
      String.raw`\b(?:add|append|put|export|save|store|keep|set|write|echo|paste|place|hard-?code)(?:s|ed|ing)?\b${UNNEGATED}{0,80}?` +
        `(?:${CREDENTIAL}${UNNEGATED}{0,80}?${SHELL_STARTUP}|${SHELL_STARTUP}${UNNEGATED}{0,80}?${CREDENTIAL})`,
      "gi",
    ),
    // "… so a token exported there leaks into every process" explains the harm.
    judge: (m, s) => (/\b(?:leak\w*|expos(?:e|es|ed|ing)|stolen|compromis\w*)\b/i.test(s) ? null : localIsReview(m, s)),
  },
  {
    // Untracked files are work not yet added: -x also takes .env and local config. As the routine fix it deletes what no
    // commit can bring back; -X (ignored files only) is a build's clean, -n only lists.
    code: "destructive_command", label: "deleting untracked work (git clean -f)",
    re: /\bgit\s+clean\b(?:\s+-{1,2}[\w-]+)*/g,
    judge: (m, s) => {
      const flags = m[0].replace(/^git\s+clean/, "");
      if (/\s-[a-zA-Z]*n|--dry-run/.test(flags) || !/\s-[a-zA-Z]*f|--force/.test(flags)) return null;
      if (!/\s-[a-zA-Z]*x/.test(flags)) return /\s-[a-zA-Z]*X/.test(flags) ? null : "review";
      // A CI runner's fresh checkout holds no one's work; a laptop or dev server is where the work is.
      return /\b(?:ci|runners?|pipelines?|fresh\s+clone)\b/i.test(s) ? "review" : "reject";
    },
  },
  {
    // A database that takes any connection as any user: the quick fix for "password authentication failed". Fine for a
    // throwaway container in tests (held for a person there), never where real data is.
    code: "security_degrading", label: "a database without a password (empty password, trust auth)",
    re: new RegExp([
      String.raw`\bPOSTGRES_HOST_AUTH_METHOD\s*[:=]\s*["']?trust\b`,
      String.raw`\b(?:MYSQL|MARIADB)_ALLOW_EMPTY(?:_ROOT)?_PASSWORD\s*[:=]\s*["']?(?:yes|1|true)\b`,
      String.raw`\b(?:POSTGRES|PG|MYSQL(?:_ROOT)?|MARIADB(?:_ROOT)?|DB|DATABASE)_PASSWORD\s*[:=]\s*(?:""|'')`,
      String.raw`\bhost(?:ssl|nossl)?\s+\S+\s+\S+\s+\S+\s+trust\b`,
      String.raw`\b(?:set|sets|setting|leav(?:e|es|ing)|make|makes|making|keep|keeps|keeping|use|uses|using)\b[^.\n;]{0,40}?\b(?:(?:POSTGRES|PG|MYSQL(?:_ROOT)?|DB|DATABASE)_PASSWORD|(?:database|db|postgres(?:ql)?|mysql|mariadb|root|admin|redis)\s+password)\b[^.\n;]{0,20}?\b(?:empty|blank|unset)\b`,
      String.raw`\b(?:use|uses|using|set|sets|setting|switch(?:es|ed|ing)?|chang(?:e|es|ed|ing)|enabl(?:e|es|ed|ing))\b[^.\n;]{0,30}?\btrust\s+(?:auth(?:entication)?|method|mode)\b`,
      String.raw`\b(?:use|uses|using|set|sets|setting)\s+(?:an?\s+)?(?:empty|blank)\s+(?:database|db|postgres(?:ql)?|mysql|root|admin)\s+password\b`,
    ].join("|"), "gi"),
    judge: (m, s) => (/\b(?:ci|pipelines?|throwaway|ephemeral)\b/i.test(s) ? "review" : localIsReview(m, s)),
  },
  {
    code: "destructive_command", label: "a force push",
    re: /\bgit\s+push\b[^\n;|&]{0,120}/g,
    judge: (m, s) => {
      const forced = /\s(?:--force(?!-with-lease)\b|-[a-zA-Z]*f[a-zA-Z]*\b)|\s\+[\w/.-]+/.test(m[0]);
      if (!forced) return null;
      return PROTECTED_BRANCH.test(s) ? "reject" : "review";
    },
  },
  {
    code: "destructive_command", label: "a hard reset of a shared branch",
    re: /\bgit\s+reset\s+--hard\b[^\n;|&]{0,80}/g,
    // Resetting to origin/main only discards local work; resetting main itself rewrites shared history.
    judge: (_m, s) =>
      /\b(?:main|master|trunk|develop|production|release|shared|public|pushed)\b/i.test(s.replace(/\b(?:origin|upstream)\/[\w.-]+/gi, ""))
        ? "reject" : null,
  },
  {
    code: "destructive_command", label: "piping a download into a shell",
    re: /\b(?:curl|wget)\b[^\n|;]{0,300}\|\s*(?:sudo\s+)?(?:-\s*)?(?:(?:ba|z|k|fi|da|a)?sh|python3?|node|perl|ruby)\b|\b(?:ba|z)?sh\s+(?:-c\s+)?["']?\$\(\s*(?:curl|wget)\b|\b(?:ba|z)?sh\s+<\(\s*(?:curl|wget)\b|\b(?:iwr|irm|invoke-webrequest|invoke-restmethod)\b[^\n|;]{0,300}\|\s*iex\b|\biex\s*\(\s*(?:iwr|irm|new-object)\b/gi,
  },
  {
    code: "destructive_command", label: "evaluating untrusted input",
    // The input named in code (req.body) or in words ("the request body", "the request's query", "the JSON
    // body", "webhook payloads"): seed 001 lists eval among what the content gate refuses.
    re: /\b(?:eval|new\s+Function|exec(?:Sync)?|vm\.runIn\w+)\b\s*\(?[^\n;]{0,60}?(?:\breq(?:uest)?(?:\.|'s\s+|\s+)(?:query|body|params|headers|cookies)\b|\b(?:json|post|http|form|incoming)\s+(?:body|bodies)\b|\buser[-_ ]?(?:input|data|supplied|provided)\b|\buntrusted\b|\bargv\b|\$_(?:GET|POST|REQUEST|COOKIE)\b|\bstdin\b|\bpayloads?\b|\bexternal\s+input\b)/gi,
  },
  { code: "destructive_command", label: "formatting a drive (format c:)", re: /\bformat\s+[a-z]:(?=[\s\\/]|$)/gi },
  { code: "destructive_command", label: "a recursive Windows delete (del /s)", re: /\b(?:del|erase)\s+(?:\/[a-z]\s+)*\/s\b|\b(?:rd|rmdir)\s+(?:\/[a-z]\s+)*\/s\s+(?:\/[a-z]\s+)*(?:[a-z]:\\?|\\)(?=\s|$)/gi },

  {
    code: "security_degrading", label: "disabling TLS certificate verification",
    re: /\bNODE_TLS_REJECT_UNAUTHORIZED\s*=\s*["']?0|\brejectUnauthorized\s*:\s*false|\bverify\s*=\s*False\b|\bInsecureSkipVerify\s*:\s*true|\bCURLOPT_SSL_VERIFY(?:PEER|HOST)\s*,\s*(?:false|0)|\bstrict-ssl\s*(?:=|\s)\s*false|\bGIT_SSL_NO_VERIFY\s*=\s*(?:1|true)|\bhttp\.sslVerify\s*(?:=|\s)\s*false|\bPYTHONHTTPSVERIFY\s*=\s*0|--no-check-certificate\b|--ignore-certificate-errors\b|\bssl[_-]?verify\s*[:=]\s*(?:false|0|no)\b/gi,
    judge: localIsReview,
  },
  {
    code: "security_degrading", label: "disabling TLS certificate verification",
    re: verbs("\\bSWITCH_OFF\\b[^.\\n;]{0,40}?\\b(?:tls|ssl|https|certificate|cert)s?\\b[^.\\n;]{0,25}?\\b(?:verification|validation|verify|verifying|checks?|checking|errors?|pinning)\\b|\\b(?:tls|ssl|certificate|cert)\\s+(?:verification|validation|checks?)\\s+(?:off|disabled|false)\\b|\\b(?:trust|accept|allow)(?:s|ed|ing)?\\s+(?:all|any|every|invalid|untrusted)\\s+(?:ssl\\s+|tls\\s+|https\\s+)?cert(?:ificate)?s?\\b|\\boverrid(?:e|es|ing)\\b[^.\\n;]{0,20}?\\bcertificate\\s+validation\\b"),
    judge: localIsReview,
  },
  { code: "security_degrading", label: "an insecure TLS flag (curl -k / --insecure)", re: /\bcurl\b[^\n|;]{0,200}?\s-[a-zA-Z]*k[a-zA-Z]*\b|--insecure(?:-skip-tls-verify)?(?![\w-])/g, judge: localIsReview },
  {
    code: "security_degrading", label: "disabling CSRF protection",
    re: verbs("\\bSWITCH_OFF\\b[^.\\n;]{0,25}?\\bcsrf\\b"),
    judge: localIsReview,
  },
  {
    code: "security_degrading", label: "disabling CSRF protection",
    re: /\bcsrf\w*\s*[:=]\s*(?:false|off|0|disabled|none)\b|\bcsrf_exempt\b|\.csrf\(\)\s*\.disable\(\)|\bcsrf\s*\(\s*\w+\s*->\s*\w+\.disable\(\)|\bWTF_CSRF_ENABLED\s*=\s*False\b/gi,
    judge: localIsReview,
  },
  {
    code: "security_degrading", label: "disabling authentication or authorisation",
    re: verbs("\\bSWITCH_OFF\\b[^.\\n;]{0,20}?\\b(?:auth|authentication|authorization|authorisation|authz|authn|login|access\\s+control|permission\\s+checks?|rbac|2fa|mfa)\\b(?!\\s+(?:header|token|cookie)s?\\b)"),
    judge: localIsReview,
  },
  {
    code: "security_degrading", label: "disabling authentication or authorisation",
    re: /\bremove\s+(?:the\s+)?(?:auth|authentication|authorization)\s+(?:check|middleware|guard|requirement)s?\b|\b(?:auth|authentication|authorization)(?:_?enabled|_?required)?\s*[:=]\s*(?:false|off|disabled|0)\b|--no-auth\b|\bAUTH_DISABLED\s*=\s*(?:1|true)\b/gi,
    judge: localIsReview,
  },
  {
    // A web application's own protections, switched off because they get in the way: "Disable Content Security Policy when
    // scripts are blocked", "Turn off rate limiting on the login endpoint".
    code: "security_degrading", label: "switching off a web application's protections (CSP, rate limiting, password rules, lockout, security headers)",
    // Not "ignore": a client ignoring another service's rate limits is a different fault (the verbs of SWITCH_OFF less that one).
    re: verbs("\\b(?:disabl(?:e|es|ed|ing)|deactivat(?:e|es|ed|ing)|turn(?:s|ed|ing)?\\s+off|switch(?:es|ed|ing)?\\s+off|skip(?:s|ped|ping)?|bypass(?:es|ed|ing)?|comment(?:s|ed|ing)?\\s+out|remov(?:e|es|ed|ing)|drop(?:s|ped|ping)?|strip(?:s|ped|ping)?|get(?:ting)?\\s+rid\\s+of)\\b[^.\\n;]{0,25}?\\b(?:content[- ]security[- ]polic(?:y|ies)|csp|rate[- ]limit(?:s|ing|er)?|password\\s+(?:requirements?|polic(?:y|ies)|rules|complexity)|(?:account\\s+)?lockouts?|security\\s+headers|brute[- ]force\\s+protection)\\b"),
    judge: localIsReview,
  },
  {
    code: "security_degrading", label: "debug mode in production",
    // A "never" or "not" between the setting and production is its own warning: "app.run(debug=True)  # never in production".
    re: /\bdebug\s*[:=]\s*(?:true|1|on)\b(?:(?!\b(?:never|not|no)\b)[^.\n;]){0,40}?\bprod(?:uction)?\b|\b(?:enabl(?:e|es|ed|ing)|turn(?:s|ed|ing)?\s+on|switch(?:es|ed|ing)?\s+on|run(?:s|ning)?|leav(?:e|es|ing)|keep(?:s|ing)?)\s+(?:the\s+)?debug(?:ging)?\s+mode\s+(?:on\s+)?(?:in|on)\s+(?:the\s+)?prod(?:uction)?\b/gi,
  },
  {
    // A remote shell or a database reachable by anyone: "Open port 22 to 0.0.0.0/0 so you can SSH in". 443 to the world is a web server.
    code: "security_degrading", label: "an SSH, RDP or database port open to the whole internet",
    re: /(?:(?:\bports?\s+|:)(?:22|23|3389|3306|5432|6379|27017|9200|11211)\b|\b(?:ssh|rdp|telnet)\b)[^.\n;]{0,40}?(?:0\.0\.0\.0\/0|::\/0)|(?:0\.0\.0\.0\/0|::\/0)[^.\n;]{0,40}?(?:(?:\bports?\s+|:)(?:22|23|3389|3306|5432|6379|27017|9200|11211)\b|\b(?:ssh|rdp|telnet)\b)/gi,
  },
  {
    code: "security_degrading", label: "hashing passwords with MD5 or SHA-1",
    re: /\b(?:md5|sha-?1)\b(?:(?!\b(?:never|not|no)\b)[^.\n;]){0,30}?\bpasswords?\b|\bpasswords?\b[^.\n;]{0,30}?\b(?:with|using|via|through)\s+(?:plain\s+|unsalted\s+)?(?:md5|sha-?1)\b/gi,
  },
  {
    code: "security_degrading", label: "turning off the firewall",
    re: /\b(?:disable|turn\s+off|stop|shut\s*down|switch\s+off|flush)\b[^.\n;]{0,20}?\b(?:firewall|ufw|firewalld|iptables|windows\s+defender|antivirus)\b|\bufw\s+disable\b|\bsystemctl\s+(?:stop|disable|mask)\s+(?:firewalld|ufw|iptables)\b|\biptables\s+-F\b|\bSet-NetFirewallProfile\b[^\n]{0,60}-Enabled\s+False|\bnetsh\s+advfirewall\s+set\s+\w+\s+state\s+off\b/gi,
  },
  {
    code: "security_degrading", label: "skipping git hooks (--no-verify)",
    re: /--no-verify\b|\bHUSKY\s*=\s*0\b|\b(?:skip|bypass|disable)\b[^.\n;]{0,15}?\b(?:pre-commit|pre-push|commit-msg|git|husky|lint-staged)\s+hooks?\b|\bgit\s+commit\b[^\n;|&]{0,60}\s-n\b/gi,
  },
  {
    code: "security_degrading", label: "allowing every CORS origin",
    re: /\bAccess-Control-Allow-Origin\s*:\s*\*|\b(?:origins?|allow_?origins?|allowedOrigins|cors_?origins?)\s*[:=]\s*\[?\s*["'`]\*["'`]|\ballow(?:ing)?\s+(?:all|any|every)\s+(?:cors\s+)?origins?\b|\borigin\s*:\s*true\b/gi,
    // A wildcard is fine for a public read-only API; with credentials it hands sessions to any site.
    judge: (_m, _s, text) => (/\bcredentials\b|\bwithCredentials\b|Allow-Credentials/i.test(text) ? "reject" : "review"),
  },
  {
    code: "security_degrading", label: "storing passwords or secrets in plain text",
    re: /\b(?:store|save|keep|persist|log|write|put|commit)\w*\b[^.\n;]{0,30}?\b(?:passwords?|credentials|secrets?|api\s+keys?|tokens?)\b[^.\n;]{0,25}?\b(?:plain\s*-?\s*text|cleartext|clear\s+text|unhashed|unencrypted|without\s+(?:hashing|encryption))|\bhard-?cod(?:e|es|ed|ing)\s+(?:the\s+|your\s+)?(?:passwords?|credentials|secrets?|api\s+keys?|tokens?)\b|\bcommit(?:s|ted|ting)?\s+(?:the\s+|your\s+)?(?:\.env|secrets?|credentials|api\s+keys?|private\s+keys?)\s+(?:files?\s+)?(?:to|into|in)\s+(?:git|the\s+repo(?:sitory)?)\b/gi,
  },
  {
    code: "security_degrading", label: "world-writable or universal permissions",
    re: /\b(?:make|makes|made|making|set|sets|setting)\b[^.\n;]{0,30}?\bworld[- ]writable\b|\b(?:grant|give)(?:s|ing|n)?\s+(?:everyone|all\s+users|anyone|every\s+user|all\s+roles)\s+(?:write|full|admin|root|owner)\s+(?:access|permissions?|rights)\b/gi,
    judge: localIsReview,
  },
  {
    code: "destructive_command", label: "a force push",
    // Also said with the verb and the flag apart ("Use --force to push", "push with --force", "force the push"); `git push -f`
    // is the rule above's, so "git" right before "push" is left to it.
    re: /\bforce[- ]push(?:es|ed|ing)?\b[^.\n;]{0,40}|(?<!\bgit\s+)\bpush(?:es|ed|ing)?\b[^.\n;]{0,30}?\s(?:--force|-f)(?![\w-])[^.\n;]{0,40}|--force(?![\w-])[^.\n;]{0,20}?\b(?:re-?)?push(?:es|ed|ing)?\b[^.\n;]{0,40}|\bforc(?:e|es|ed|ing)\s+(?:the\s+|a\s+|your\s+)?push\b[^.\n;]{0,40}/gi,
    judge: (_m, s) => (PROTECTED_BRANCH.test(s) ? "reject" : "review"),
  },
  // Held for a person rather than refused: routine for some, harmful when copied blindly (issue 11, item 10).
  { code: "destructive_command", label: "evaluating code read at run time (eval of a non-literal)", re: /\beval\s*\(\s*(?!["'`\d)\s])/g, judge: () => "review" },
  { code: "destructive_command", label: "deleting a system file with sudo", re: /\bsudo\s+rm\b/g, judge: () => "review" },
  { code: "destructive_command", label: "force-killing a process (kill -9)", re: /\b(?:kill|pkill|killall)\s+(?:-9|-KILL|-s\s+KILL|-SIGKILL)\b/gi, judge: () => "review" },
  { code: "destructive_command", label: "running a downloaded script through command substitution", re: /\$\(\s*(?:curl|wget)\b/g, judge: () => "review" },
  // The quick fixes for an access-denied error or a red pipeline: a public bucket serves a static site, a skipped test can be
  // a quarantine, sudo without a password suits a throwaway CI box; as a fix to copy they open the data or hide the failure.
  {
    code: "security_degrading", label: "making a storage bucket, container or database public",
    re: /\b(?:make|makes|made|making|set|sets|setting|turn(?:s|ed|ing)?|switch(?:es|ed|ing)?|change(?:s|d)?|changing|open(?:s|ed|ing)?)\b[^.\n;]{0,30}?\b(?:buckets?|containers?|blobs?|databases?|db|storage\s+accounts?)\b[^.\n;]{0,25}?\bpublic(?:ly)?\b(?!\s+(?:api|apis|interfaces?|methods?|keys?|ip|subnets?|urls?|fields?|members?)\b)/gi,
    judge: () => "review",
  },
  {
    code: "security_degrading", label: "silencing failing tests to make CI pass",
    re: /\b(?:comment(?:s|ed|ing)?\s+out|delet(?:e|es|ed|ing)|remov(?:e|es|ed|ing)|skip(?:s|ped|ping)?|disabl(?:e|es|ed|ing)|mark(?:s|ed|ing)?)\b[^.\n;]{0,40}?\b(?:failing|broken|red)\s+(?:tests?|specs?|checks?|assertions?)\b[^.\n;]{0,40}?\b(?:so|to|until)\b[^.\n;]{0,30}?\b(?:ci|pipeline|build|checks?|suite)\b[^.\n;]{0,20}?\b(?:pass(?:es|ed|ing)?|green|succeed(?:s|ed)?)\b/gi,
    judge: () => "review",
  },
  { code: "security_degrading", label: "sudo without a password (NOPASSWD)", re: /\bNOPASSWD\b/g, judge: () => "review" },
  // More privilege than the task needs, as the fix for EACCES or a failed mount; a plain `sudo apt-get install` is routine.
  {
    code: "security_degrading", label: "running with more privilege than needed (sudo or root for everything, sudo npm install, --privileged)",
    re: /--privileged\b|\b(?:sudo|root)\b[^.\n;]{0,20}?\b(?:for|with)\s+(?:everything|all\s+commands)\b|\bruns?(?:ning)?\s+(?:everything|all\s+commands|every\s+command)\s+as\s+root\b|\bsudo\s+(?:npm|yarn|pnpm|pip3?|gem)\s+install\b/gi,
    judge: () => "review",
  },
  {
    code: "security_degrading", label: "setting SELinux or AppArmor permissive",
    re: /\bsetenforce\s+0\b|\bSELINUX\s*=\s*(?:permissive|disabled)\b|\b(?:set|put|switch|change)\b[^.\n;]{0,20}?\bselinux\b[^.\n;]{0,20}?\b(?:permissive|disabled|off)\b|\b(?:disable|turn\s+off)\s+(?:the\s+)?(?:selinux|apparmor)\b/gi,
  },
  { code: "security_degrading", label: "disabling browser or SSH safeguards", re: /--disable-web-security\b|\bPermitRootLogin\s+yes\b|\bPermitEmptyPasswords\s+yes\b/gi },
  // Files and dumps that are secrets whatever they hold (a token sent to its own API is how APIs work; ~/.ssh sent anywhere is a leak).
  {
    code: "security_degrading", label: "sending credentials or secret files to a remote address",
    re: new RegExp([
      String.raw`\b(?:send|sends|sent|sending|upload\w*|post|posts|posted|posting|paste[sd]?|pasting|exfiltrat\w*|forward\w*|transmit\w*|e-?mail\w*|shar(?:e|es|ed|ing)|pip(?:e|es|ed|ing))\b[^.\n;]{0,60}?` +
        String.raw`(?:~\/\.ssh\b|\bid_(?:rsa|dsa|ecdsa|ed25519)\b|(?:^|[\s"'${"`"}@])\.env\b(?!\.example|\.sample|\.template)|\/etc\/(?:passwd|shadow)\b|\.aws\/credentials\b|\.kube\/config\b|\.netrc\b|\.git-credentials\b|\bcredentials\s+file\b|\b(?:all\s+(?:the\s+|your\s+)?|every\s+|any\s+)(?:environment\s+variables|env\s+vars|secrets?|passwords?|credentials?|api\s+keys?|tokens?)\b|\bprivate\s+keys?\b)` +
        String.raw`[^.\n;]{0,80}?(?:https?:\/\/|\bwebhook\b|\bpastebin\b|\bgists?\b|\b(?:external|remote|third-party|attacker'?s?)\s+(?:server|host|url|endpoint|machine)\b|\b\d{1,3}(?:\.\d{1,3}){3}\b|[\w.+-]+@[\w-]+\.[\w.-]+)`,
      String.raw`\bcurl\b[^\n|;]{0,120}?(?:-d|--data(?:-binary|-raw|-urlencode)?|-F|--form|-T|--upload-file)[\s=]+["']?(?:\w+=)?@?(?:~\/\.ssh|~?\/?\.aws\/credentials|\.env\b|\/etc\/(?:passwd|shadow)|\S*id_(?:rsa|ed25519|ecdsa|dsa)\b|~?\/?\.kube\/config)`,
      String.raw`\b(?:env|printenv)\s*\|\s*(?:curl|nc|netcat|ncat|wget)\b`,
    ].join("|"), "gi"),
  },
];

/** True wherever any rule could match (any-match.ts): the rules run only then. */
const ADVICE_MAY_MATCH = anyMatchTest(ADVICE.map((rule) => rule.re));

// ---- stance: does the sentence recommend the command, or warn against it? ----

// Also a verb that guards against what follows it, right before it ("a hook that prevents hard-coded secrets", "scan for
// hardcoded tokens"): further back it guards something else ("Prevent slow builds and hardcode the keys").
const IMMEDIATE_NEGATION =
  /(?:\b(?:no|not|never|without|instead\s+of|rather\s+than|in\s+place\s+of|replace|replacing|remove|removing|ditch|prefer\b[^.\n]{0,60}\bover|(?:prevent|detect|flag|block|forbid|reject|catch|spot)(?:s|es|ed|ing|ging|ged)?|(?:scan(?:s|ning)?|check(?:s|ing)?|look(?:s|ing)?)\s+for|(?:guard|protect)(?:s|ing)?\s+against)|\bvs\.?|\bversus)(?:\s+\w+ing)?[\s"'`(\[]*$/i;
const NEGATION =
  /\b(?:never|don't|dont|do\s+not|does\s+not|doesn't|should\s+not|shouldn't|must\s+not|mustn't|cannot|can't|can\s+not|won't|will\s+not|shall\s+not|not|avoid(?:s|ed|ing)?|forbid(?:s|den)?|prohibit(?:s|ed)?|disallow(?:s|ed)?|ban(?:s|ned)?|refuse\s+to|warn(?:s|ed|ing)?\s+against|beware(?:\s+of)?|no\s+longer|stop\s+(?:using|running|doing|calling|piping|relying\s+on|recommending|suggesting))\b/gi;
// "To avoid stale caches, rm -rf ~" states a purpose; the command itself is still the advice.
const PURPOSE_BEFORE = /(?:^|\bin\s+order\s+|\bso\s+as\s+)\s*to\s+$/i;
// Double negatives: "don't forget to", "never hesitate to", "it is not dangerous to".
const FLIP_VERB = /^\s+(?:[\w']+\s+){0,2}?(?:forget|hesitate|fail|skip|neglect|omit|miss|worry|wait|delay|be\s+afraid|be\s+scared|hold\s+back|think\s+twice|be\s+shy|bother)\b/i;
// The means after "with", "by"…, or in parentheses ("Never skip hooks (--no-verify)"), "(no --no-verify)" too.
const SKIP_BY_MEANS = /^\s+(?:skip|omit|neglect|miss|bypass)\b[^.;()]{0,60}?(?:\b(?:with|by|using|via|through|passing)\s+|\(\s*(?:no\s+)?)\S*$/i;
const FLIP_ADJECTIVE = /^\s+(?:be\s+|is\s+)?(?:dangerous|harmful|risky|unsafe|bad|wrong|a\s+problem|an\s+issue|needed\s+to\s+avoid)\b/i;
const CAUTION =
  /\b(?:careful(?:ly)?|caution(?:ed)?|dangerous(?:ly)?|destructive|risky|irreversibl[ey]|warning|wary|only|unless|with\s+care|if\s+you\s+must|last\s+resort|double-check|malicious|attackers?|exploits?|injection)\b/gi;
const IMPERATIVE =
  /(?<!\b(?:only|when|before|if|while|to|you|we|after|until|not|never)\s+)\b(?:run|use|execute|exec|type|call|try|just|always|do|pipe|apply)\b/i;
const CONNECTOR_ONLY =
  /^[\s"'`(\[:*_-]*(?:(?:or|nor|and|also|even|plus|e\.g\.?|i\.e\.?|such\s+as|like|including|especially|particularly|as\s+well\s+as|let\s+alone)\b[\s"'`(\[:*_,-]*)*$/i;
const HAS_CONNECTOR = /\b(?:or|nor|and|e\.g|i\.e|such\s+as|like|including|especially|particularly|plus|as\s+well\s+as|let\s+alone)\b/i;

function lastMatch(re: RegExp, s: string, keep: (m: RegExpMatchArray) => boolean = () => true): RegExpMatchArray | undefined {
  let found: RegExpMatchArray | undefined;
  for (const m of s.matchAll(re)) if (keep(m)) found = m;
  return found;
}

function stanceOf(prefix: string): Stance {
  if (IMMEDIATE_NEGATION.test(prefix)) return "negated";
  const neg = lastMatch(NEGATION, prefix, (m) => !(/^(?:avoid|stop)/i.test(m[0]) && PURPOSE_BEFORE.test(prefix.slice(0, m.index))));
  if (neg) {
    const after = prefix.slice((neg.index ?? 0) + neg[0].length);
    // "Never skip the hooks with --no-verify": the flag is how one skips, so it is what the lesson forbids.
    if (SKIP_BY_MEANS.test(after)) return "negated";
    return FLIP_VERB.test(after) || FLIP_ADJECTIVE.test(after) ? "recommended" : "negated";
  }
  const caution = lastMatch(CAUTION, prefix);
  if (caution) {
    const after = prefix.slice((caution.index ?? 0) + caution[0].length);
    return IMPERATIVE.test(after) ? "recommended" : "cautioned";
  }
  return "recommended";
}

interface Segment { start: number; end: number; sep: string }

const CLAUSE_BREAK =
  /(?<!\b(?:e\.g|i\.e|etc|vs|cf|approx|incl))[.!?](?=\s|$)|[;\n,]|\s(?:but|however|though|although|yet|then|whereas|otherwise)\b|\s[—–]\s/gi;
const SENTENCE_BREAK = /(?<!\b(?:e\.g|i\.e|etc|vs|cf|approx|incl))[.!?](?=\s|$)|[;\n]/g;

/** Inline code is opaque: `find . -exec rm -rf {} +` has no sentence end inside it. */
function blankCode(v: string): string {
  return v.replace(/`[^`\n]*`/g, (c) => "`" + "x".repeat(c.length - 2) + "`");
}

function split(v: string, re: RegExp): Segment[] {
  const segs: Segment[] = [];
  let start = 0;
  let sep = "";
  for (const m of blankCode(v).matchAll(re)) {
    const at = m.index ?? 0;
    segs.push({ start, end: at, sep });
    start = at + m[0].length;
    sep = m[0];
  }
  segs.push({ start, end: v.length, sep });
  return segs;
}

function findSeg(segs: Segment[], at: number): number {
  let lo = 0;
  let hi = segs.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((segs[mid] as Segment).start <= at) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

// A cue further back than this is not about the command; the bound also keeps a 100 KB paste linear.
const WINDOW = 240;

const CHAIN_SEP = /^(?:,|\s[—–]\s)$/;

/**
 * The stance of a match at `at`. A bare list item ("never run A, B, or C") takes the stance of
 * the clause that opened the list; a bare command after an unrelated clause ("Don't panic, rm -rf /")
 * is judged on its own.
 */
function stanceAt(v: string, segs: Segment[], starts: number[], at: number): Stance {
  const k = findSeg(segs, at);
  const seg = segs[k] as Segment;
  const prefix = v.slice(Math.max(seg.start, at - WINDOW), at);
  if (k > 0 && CONNECTOR_ONLY.test(prefix) && CHAIN_SEP.test(seg.sep)) {
    let head = k;
    while (head > 0 && CHAIN_SEP.test((segs[head] as Segment).sep) && k - head < 8) head--;
    const first = segs[head] as Segment;
    const next = segs[k + 1];
    const inList = HAS_CONNECTOR.test(prefix) ||
      starts.some((s) => s >= first.start && s < seg.start) ||
      (next !== undefined && CHAIN_SEP.test(next.sep) && /^\s*(?:or|nor|and)\b/i.test(v.slice(next.start, next.end)));
    if (inList) return stanceOf(v.slice(first.start, Math.min(first.end, first.start + WINDOW)));
  }
  return stanceOf(prefix);
}

/** The text the patterns read: hidden characters gone, look-alikes folded (`ｒｍ` and `rм` are `rm`). */
function detectionView(text: string): string {
  return foldConfusables(stripInvisibleChars(text).normalize("NFKC"));
}

/**
 * Destructive and security-degrading advice, judged by whether the lesson recommends or warns.
 * `imported`: data a person chose to load is neither refused nor held; each finding is a warning,
 * stored as a `caution:` flag that every rendering of the lesson shows.
 */
export function findHarmfulAdvice(text: string, opts: { imported?: boolean } = {}): QualityIssue[] {
  const v = detectionView(text);
  // One scan clears almost every lesson: running the ~25 rules one by one was half of a bulk import's gate time.
  if (!ADVICE_MAY_MATCH(v)) return [];
  const hits = ADVICE.flatMap((rule) => [...v.matchAll(rule.re)].map((m) => ({ rule, m, at: m.index ?? 0 })));
  if (hits.length === 0) return [];
  const clauses = split(v, CLAUSE_BREAK);
  const sentences = split(v, SENTENCE_BREAK);
  const starts = hits.map((h) => h.at);
  const worst = new Map<AdviceRule, Severity>();
  for (const { rule, m, at } of hits) {
    if (worst.get(rule) === "reject") continue;
    const stance = stanceAt(v, clauses, starts, at);
    if (stance === "negated" || warnsAfter(v, at)) continue;
    const s = sentences[findSeg(sentences, at)] as Segment;
    const sentence = v.slice(Math.max(s.start, at - WINDOW), Math.min(s.end, at + WINDOW));
    const base = rule.judge ? rule.judge(m, sentence, v) : "reject";
    if (base === null) continue;
    // "Only …", "unless …", "in tests": conditional advice to do it is for a person to judge, not for an agent to read.
    const severity: Severity = stance === "cautioned" && base === "reject" ? "review" : base;
    if (worst.get(rule) !== "reject") worst.set(rule, severity);
  }
  if (opts.imported) {
    return [...worst.keys()].map((rule) => ({
      layer: "safety" as const,
      severity: "warn" as const,
      code: rule.code,
      // Unchecked text comes by a trusted import or with knowledge.validation_enabled off: the message fits both.
      message: `The lesson recommends ${rule.label}; stored unrefused (a trusted import, or knowledge.validation_enabled = false) with a caution shown wherever it is injected or recalled.`,
    }));
  }
  return [...worst].map(([rule, severity]) => ({
    layer: "safety",
    severity,
    code: rule.code,
    message: severity === "reject"
      ? `The lesson recommends ${rule.label}; reword it as a warning ("never …", "avoid …") or remove it.`
      : `The lesson recommends ${rule.label} without clearly warning against it; it is kept as a draft for a person to approve and is not shown to agents until then.`,
  }));
}

// "eval() enables code execution from untrusted input", "curl -k is dangerous": the sentence is about the risk.
const DANGER_AFTER =
  /^[\s`'"()]*(?:[\w.()`'"-]+\s+){0,2}?(?:is|are|was|can\s+be|would\s+be)\s+(?:very\s+|extremely\s+|highly\s+)?(?:dangerous|unsafe|insecure|risky|harmful|a\s+(?:security\s+)?risk|deprecated|forbidden|not\s+(?:safe|allowed|recommended))\b|^[\s`'"()]*(?:[\w.()`'"-]+\s+){0,2}?(?:enables?|allows?|permits?|lets|leads?\s+to|can\s+lead\s+to|opens?(?:\s+up)?|exposes?|invites?)\s+(?:\w+\s+){0,3}?(?:code\s+execution|attackers?|injection|remote|arbitrary|xss|mitm|man-in-the-middle|exploits?|vulnerabilit)/i;

/** Whether what follows the command's own token (`eval()`, `curl -k`) says it is dangerous. */
function warnsAfter(v: string, at: number): boolean {
  const head = /^[^\s(`]+(?:\([^)\n]{0,40}\))?`?/.exec(v.slice(at, at + 80));
  const end = at + (head ? head[0].length : 0);
  return DANGER_AFTER.test(v.slice(end, end + 120));
}

/** Control, zero-width, BiDi and tag characters: each class found is one rejection naming it. */
export function findHiddenChars(text: string): QualityIssue[] {
  return findInvisibleChars(text).map((cls) => ({
    layer: "safety",
    severity: "reject",
    code: `${cls}_chars`,
    message: `The lesson contains ${INVISIBLE_LABELS[cls]} (first: ${firstInvisibleCodePoint(text, cls) ?? "?"}); they can hide or reorder text, remove them.`,
  }));
}

export { findInjectionMarkers };

export function checkContentSafety(text: string): QualityIssue[] {
  return [...findHiddenChars(text), ...findInjectionMarkers(text), ...findHarmfulAdvice(text)];
}
