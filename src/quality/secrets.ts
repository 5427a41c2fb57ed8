// Secret detection and masking: a key, token or password in a lesson must never be stored nor echoed.
import { shortcuts } from "../core/shortcuts.js";
import type { QualityIssue } from "./types.js";
import { shannonEntropy } from "./secrets/entropy.js";
import { gitleaksSpans, type SecretSpan } from "./secrets/gitleaks.js";
import { isDrawnMixedCase } from "./secrets/mixed-case.js";

export { shannonEntropy } from "./secrets/entropy.js";
export type { SecretSpan } from "./secrets/gitleaks.js";

/**
 * Provider formats come from gitleaks' published rules (src/quality/secrets/gitleaks.ts). What
 * they lack for text written as a lesson is kept here: private-key blocks of any length, passwords
 * in URLs, `Authorization: Basic|Bearer` values, names that say "secret" assigned a literal,
 * passwords given on a command line, written out in a sentence or quoted in config and code,
 * webhook URLs and signed links, password hashes, base64-wrapped private keys and Discord bot tokens.
 */
type OwnKind = "private_key" | "url_password" | "basic_auth" | "bearer_token" | "credential" | "cli_password" | "stated_secret" | "discord_bot_token" | "url_secret" | "password_hash" | "session_cookie" | "stored_secret" | "lone_secret" | "account_key";

const OWN_LABELS: Record<OwnKind, string> = {
  private_key: "a private key block",
  url_password: "a password inside a URL",
  basic_auth: "HTTP Basic credentials",
  bearer_token: "a bearer token",
  credential: "a credential assigned to a secret-looking name",
  cli_password: "a password given on a command line",
  stated_secret: "a password or token written out after its name",
  discord_bot_token: "a Discord bot token",
  url_secret: "a secret inside a URL (a webhook or a signed link)",
  password_hash: "a password hash (it can be cracked offline)",
  session_cookie: "a session cookie (whoever holds it is logged in)",
  stored_secret: "a secret handed to a secret store on a command line",
  lone_secret: "a key or token standing alone (a random value no name, id or format explains)",
  account_key: "a storage or database account key (88 base64 characters, as Azure Storage and Cosmos DB issue them)",
};

interface OwnDetector {
  kind: OwnKind;
  /** Global regex; group `v` (or, in another alternative, `v2`, `v3`), when present, is exactly what is masked. Every repeat is bounded. */
  re: RegExp;
  /**
   * Text every match contains (`lower`: in the lowercased text): a scan for it is far cheaper than the
   * pattern's, and most lessons hold none. Each is a literal of the pattern or one every alternative carries.
   */
  needs: RegExp;
  lower?: true;
  /** A family whose `needs` all fall within one scan of the lowercased text (TOOLS): most lessons pass it once, not each detector's. */
  group?: "tools";
  /** `before`/`after`: up to 160 characters of the text before and after the match, for a sentence's words that say what the value is. */
  accept?: (value: string, all: string, before: string, after: string) => boolean;
}

/**
 * Every `needs` of the "tools" detectors (commands, connection calls, key files, cookies), lowercased: a lesson
 * with none of these words skips the whole family in one scan.
 */
const TOOLS =
  /private-lines:|credentials|passwordauthentication|bind_s|getconnection|pdo|mysql|login|ldap|htpasswd|%|storepass|keypass|pass:|sqlcmd|bcp|osql|isql|convertto-securestring|net\s+use|cmdkey|schtasks|sudo|password-stdin|identified|sqlplus|sqlldr|expdp|impdp|\brman\b|jdbc:oracle|requirepass|masterauth|mongo|rabbitmqctl|freerdp|rdesktop|zip|7z|openssl|mosquitto_passwd|wpa_passphrase|chpasswd|gh\s+secret|put-parameter|secretsmanager|keyvault|env\s+add|secret\s+put|secrets|cookie:/;

const KEY_NAME =
  "[A-Za-z0-9_.-]{0,40}?(?:secret|token|password|passwd|pwd|api[_-]?key|apikey|auth(?!or)|credential|private[_-]?key|access[_-]?key|(?<![a-z])pat(?![a-z]))[A-Za-z0-9_.-]{0,40}";
/** A name that says its value is a password or a secret, ending there: `password`, `DB_PASS`, `jwtsecret`, `SECRET_KEY`. */
const SECRET_FIELD = "[A-Za-z0-9_.-]{0,40}?(?:pass(?:word|wd|phrase)?|pwd|secret(?:[_-]?key)?)";
/**
 * An `&` inside an unquoted value is the value's (`DB_PASS=Gr33n&Tea#42`), unless a parameter's name and `=` follow it, as in a
 * query string (`client_secret=…&grant_type=…`): there the value ends.
 */
const AMPERSAND_IN_VALUE = "&(?![A-Za-z_][\\w.-]{0,40}=)";
// Between a name and its value: a declared type (`var apiToken string =`, `token: string =`, `String token =`).
const TYPE_GAP = "(?:\\s+(?:string|str|String|const|final|secret)|\\s*:\\s*[A-Za-z_][\\w<>|]{0,20}(?=\\s*=))?";

/** What comes before "pass" in English words that end so (`bypass`, `compass`, `surpass`, `trespass`): such a field is no password's. */
const ENGLISH_PASS = /(?:^|[_.-])(?:by|com|encom|sur|tres|over|under|out|mis|im|re)$/i;

const OWN: OwnDetector[] = [
  // The user may be empty: redis://:password@host is how Redis URLs carry a password.
  { kind: "url_password", re: /\b[a-z][a-z0-9+.-]{0,30}:\/\/[^\s:@/]{0,256}:(?<v>[^\s@/]{1,256})@/dgi, needs: /:\/\//, accept: (v) => !isPlaceholder(v) },
  { kind: "basic_auth", re: /\bBasic\s+(?<v>[A-Za-z0-9+/]{8,4096}={0,2})(?![A-Za-z0-9+/=])/dg, needs: /Basic/, accept: (v) => !isPlaceholder(v) && isBasicPair(v) },
  { kind: "bearer_token", re: /\bBearer\s+(?<v>[A-Za-z0-9._~+/-]{20,4096}=*)/dg, needs: /Bearer/, accept: (v) => !isPlaceholder(v) && looksRandom(v) },
  // In an Authorization header a bearer token is one however short (RFC 6750's example, `mF_9.B5f-4.1JqM`, is 15 characters),
  // unless it is a stand-in, a variable, a name or a run typed by hand.
  {
    kind: "bearer_token",
    re: /\bAuthorization["'`]?\s*[:=]\s*["'`]?Bearer\s+(?<v>[A-Za-z0-9._~+/-]{8,19}=*)(?![A-Za-z0-9._~+/=-])/dgi,
    needs: /authorization["'`]?\s*[:=]\s*["'`]?bearer/,
    lower: true,
    accept: isShortBearerToken,
  },
  // `curl -u user:pass` — gitleaks' curl rule wants the whole command; a lesson often quotes just the flag.
  // `C:\Users\…` after `-u` is a drive and a path (cygpath -u), not user and password.
  // Its proxy's the same way (`--proxy-user`, `-U`).
  { kind: "credential", re: /(?:^|\s)(?:-u|-U|--user|--proxy-user)[ =]["']?[\w.@+-]{1,64}:(?<v>[^\s"']{4,256})/dg, needs: /-u|-U|--proxy-user/, accept: (v) => !isPlaceholder(v) && !/^[$\\/]/.test(v) },
  // curl's flags that take a password itself: TLS-SRP's `--tlspassword` (and its proxy's), and `--pass`, the client key's passphrase.
  {
    kind: "cli_password",
    re: /\bcurl\b[^\n|;]{0,300}?\s--(?:proxy-)?(?:tlspassword|pass)[ =](?<q>["']?)(?<v>[^\s"']{1,256})\k<q>/dg,
    needs: /curl/,
    // A URL right after the flag is the address, the password left out (curl asks for it).
    accept: (v) => isCliPasswordInProse(v) && !/:\/\//.test(v),
  },
  // Webhook URLs whose path is the credential (Slack's and Teams' new ones are gitleaks rules), and signed or keyed links.
  {
    kind: "url_secret",
    re: /\bhttps:\/\/(?:ptb\.|canary\.)?discord(?:app)?\.com\/api\/webhooks\/\d{17,20}\/(?<v>[\w-]{60,80})|\bhttps:\/\/hooks\.zapier\.com\/hooks\/catch\/\d{4,12}\/(?<v2>[a-z0-9]{5,12})|\bhttps:\/\/outlook\.office(?:365)?\.com\/webhook\/(?<v3>[\w@-]{20,200}\/IncomingWebhook\/[\w\/-]{20,100})/dg,
    needs: /webhook|hooks\.zapier/,
    accept: () => true,
  },
  {
    kind: "url_secret",
    re: /[?&](?:sig|signature|x-amz-signature|x-goog-signature|x-amz-security-token|access_token|client_secret|api_?key|apikey|token|secret)=(?<v>[^&\s#"'<>]{16,1024})/dgi,
    needs: /[?&](?:sig|signature|x-amz|x-goog|access_token|client_secret|api_?key|apikey|token|secret)=/i,
    accept: (v) => !isPlaceholder(decodeURIComponentSafe(v)) && looksRandomOrHex(v) && /\d/.test(v),
  },
  { kind: "bearer_token", re: /\bSSWS\s+(?<v>[\w-]{30,60})/dg, needs: /SSWS/, accept: (v) => !isPlaceholder(v) && looksRandom(v) },
  // .netrc: `machine host login user password value`.
  { kind: "credential", re: /\bmachine\s+\S{1,256}\s+(?:login\s+\S{1,256}\s+)?password\s+(?<v>\S{1,256})/dg, needs: /machine/, accept: (v) => !isPlaceholder(v) },
  // Credentials handed to a constructor: .NET's NetworkCredential("user", "pass"), requests' HTTPBasicAuth / auth=("user", "pass").
  {
    kind: "credential",
    re: /\b(?:NetworkCredential|HTTPBasicAuth|HTTPDigestAuth|auth\s*=\s*)\(\s*["'][^"'\n]{0,100}["']\s*,\s*["'](?<v>[^"'\n]{4,128})["']/dg,
    needs: /NetworkCredential|HTTP(?:Basic|Digest)Auth|auth\s*=\s*\(/,
    accept: (v) => !isPlaceholder(v),
  },
  // A PuTTY key file's private half (PPK v2 and v3): the base64 lines after `Private-Lines: N`, encrypted or not.
  {
    kind: "private_key",
    re: /\bPrivate-Lines:[ \t]{0,4}\d{1,3}\s{1,4}(?<v>[A-Za-z0-9+/]{16,4096}={0,2}(?:\s{1,4}[A-Za-z0-9+/]{4,4096}={0,2}(?=\s|$)){0,200})/dg,
    needs: /Private-Lines:/, group: "tools",
    accept: () => true,
  },
  // A password passed by position: second to a login or a credentials constructor (smtplib/ftplib/imaplib's login(user, pw),
  // an LDAP bind with a DN, RabbitMQ's PlainCredentials, Apache's UsernamePasswordCredentials, Java's PasswordAuthentication,
  // AWS' BasicAWSCredentials), third to a database connection (JDBC's getConnection, PHP's PDO, mysqli, mysql_connect).
  {
    kind: "credential",
    re: /(?:\b(?:PlainCredentials|UsernamePasswordCredentials|PasswordAuthentication|BasicAWSCredentials|AwsBasicCredentials\.create)|\.login|\.(?:simple_)?bind_s)\(\s*(?<q0>["'])[^"'\n]{1,200}\k<q0>\s*,\s*(?<q>["'])(?<v>[^"'\n]{1,128})\k<q>/dg,
    needs: /Credentials|PasswordAuthentication|\.login\(|bind_s/, group: "tools",
    accept: (v) => isQuotedPassword(v),
  },
  {
    kind: "credential",
    re: /\b(?:DriverManager\.getConnection|new\s+PDO|new\s+mysqli|mysqli_connect|mysql_p?connect)\(\s*[^,\n]{1,300},\s*(?<q0>["'])[^"'\n]{0,100}\k<q0>\s*,\s*(?<q>["'])(?<v>[^"'\n]{1,128})\k<q>/dg,
    needs: /getConnection|PDO|mysql/, group: "tools",
    accept: (v) => isQuotedPassword(v),
  },
  // crypt(3) hashes (MD5, bcrypt, SHA-256/512, yescrypt, Cisco type 8) and Kerberos AS-REP/TGS hashes: material to crack offline.
  {
    kind: "password_hash",
    re: /(?<![\w$])(?<v>\$(?:2[abxy]?\$\d{2}\$[./A-Za-z0-9]{53}|1\$[./A-Za-z0-9]{1,8}\$[./A-Za-z0-9]{22}|[56]\$(?:rounds=\d{1,9}\$)?[./A-Za-z0-9]{1,16}\$[./A-Za-z0-9]{43,86}|y\$[./A-Za-z0-9]{1,20}\$[./A-Za-z0-9]{1,40}\$[./A-Za-z0-9]{43}|8\$[./A-Za-z0-9]{14}\$[./A-Za-z0-9]{43}|krb5(?:asrep|tgs)\$\d{1,3}\$\S{32,2048}))/dg,
    needs: /\$(?:2[abxy]?|1|5|6|y|8|krb5asrep|krb5tgs)\$/,
    accept: () => true,
  },
  // More password hashes: Apache's $apr1$, PHC strings ($argon2id$…, passlib's $pbkdf2-sha256$ and $scrypt$), Django's
  // pbkdf2_sha256$…, LDAP's {SSHA}/{SHA}/{SMD5}, MySQL's *<40 hex>, Windows' LM:NT pairs as pwdump and secretsdump print them
  // (user:rid:LM:NT:::), and NetNTLMv2 responses (user::DOMAIN:challenge:proof:blob). Each can be cracked offline.
  {
    kind: "password_hash",
    re: /(?<![\w$])(?<v>\$apr1\$[./A-Za-z0-9]{1,8}\$[./A-Za-z0-9]{22}|\$argon2(?:id|i|d)\$v=\d{1,3}\$m=\d{1,9},t=\d{1,4},p=\d{1,3}\$[A-Za-z0-9+/]{11,64}\$[A-Za-z0-9+/]{16,128}|\$pbkdf2(?:-sha(?:1|256|512))?\$\d{1,7}\$[./A-Za-z0-9+]{4,64}\$[./A-Za-z0-9+]{16,128}|\$scrypt\$ln=\d{1,2},r=\d{1,3},p=\d{1,3}\$[./A-Za-z0-9+]{4,64}\$[./A-Za-z0-9+]{16,128})|\b(?:pbkdf2_sha(?:256|1)|bcrypt_sha256)\$(?<v2>\d{4,7}\$[A-Za-z0-9]{4,64}\$[A-Za-z0-9+/]{32,64}={0,2})|\{(?:SSHA(?:256|512)?|SHA(?:256|512)?|SMD5|MD5)\}(?<v3>[A-Za-z0-9+/]{20,128}={0,2})/dgi,
    needs: /\$apr1\$|\$argon2|\$pbkdf2|\$scrypt\$|pbkdf2_sha|bcrypt_sha256|\{s?sha|\{s?md5\}/,
    lower: true,
    accept: () => true,
  },
  {
    kind: "password_hash",
    re: /(?<![\w*])\*(?<v>[0-9A-F]{40})(?![\w])|\b[\w.$-]{1,64}:\d{1,10}:(?<v2>[a-fA-F0-9]{32}:[a-fA-F0-9]{32}):::|\b[\w.$-]{1,64}::[\w.-]{0,64}:(?<v3>[a-fA-F0-9]{16}:[a-fA-F0-9]{32}:[a-fA-F0-9]{64,2048})/dg,
    needs: /\*[0-9A-F]{40}|:::|::/,
    accept: (v) => !/^(?:0+|f+|([0-9a-f])\1+)$/i.test(v.replace(/:/g, "")) && v !== "AAD3B435B51404EEAAD3B435B51404EE:31D6CFE0D16AE931B73C59D7E0C089C0".toLowerCase(),
  },
  // A password compared in code: `password == "team10"`, `creds.Secret != "open-sesame"`.
  {
    kind: "credential",
    // The name must end in the word: `secretName === "db-credentials"` compares a name, not a secret.
    // The literal may come first (`"…" == password`, `"…".equals(password)`), or be handed to the name's `.equals(…)`.
    re: /\b[\w.]{0,40}?(?:pass(?:word|wd)?|pwd|secret)\s*[!=]==?\s*(?<q>["'])(?<v>[^"'\n]{4,128})\k<q>|(?<q2>["'])(?<v2>[^"'\n]{4,128})\k<q2>\s*(?:[!=]==?\s*|\.equals(?:IgnoreCase)?\(\s*)[\w.]{0,40}?(?:pass(?:word|wd)?|pwd|secret)\b(?![(.])|\b[\w.]{0,40}?(?:pass(?:word|wd)?|pwd|secret)\.equals(?:IgnoreCase)?\(\s*(?<q3>["'])(?<v3>[^"'\n]{4,128})\k<q3>\s*\)/dgi,
    needs: /pass|pwd|secret/,
    lower: true,
    accept: (v) => isQuotedPassword(v),
  },
  // The same handed to a comparing call beside the name: C's `strcmp(passwd, "…")`, Python's `hmac.compare_digest(password, "…")`.
  {
    kind: "credential",
    re: /\b(?:strn?cmp|strcasecmp|compare_digest|secure_compare|timingSafeEqual|Equals?)\(\s*[\w.]{0,40}?(?:pass(?:word|wd)?|pwd|secret)\s*,\s*(?<q>["'])(?<v>[^"'\n]{4,128})\k<q>/dgi,
    needs: /cmp|compare|equal/,
    lower: true,
    accept: (v) => isQuotedPassword(v),
  },
  // Two names bound at once, the password's by position (Go's `user, pass := "admin", "…"`, Python's `user, password = "admin", "…"`).
  {
    kind: "credential",
    re: /\b[A-Za-z_]\w{0,40}\s*,\s*\w{0,40}?(?:pass(?:word|wd)?|pwd|secret)\s*:?=\s*(?<q0>["'`])[^"'`\n]{0,128}\k<q0>\s*,\s*(?<q>["'`])(?<v>[^"'`\n]{1,128})\k<q>|\b\w{0,40}?(?:pass(?:word|wd)?|pwd|secret)\s*,\s*[A-Za-z_]\w{0,40}\s*:?=\s*(?<q2>["'`])(?<v2>[^"'`\n]{1,128})\k<q2>\s*,/dgi,
    needs: /pass|pwd|secret/,
    lower: true,
    accept: (v, all) => !ENGLISH_PASS.test(/\b(\w*?)pass\w*\s*(?:,|:?=)/i.exec(all)?.[1] ?? "") && isQuotedPassword(v),
  },
  // .NET appSettings: <add key="SmtpPassword" value="…"/>.
  {
    kind: "credential",
    re: /<add\s+key\s*=\s*"[^"]{0,60}?(?:pass(?:word|wd)?|pwd|secret|token|api_?key|connectionstring)[^"]{0,60}"\s+value\s*=\s*"(?<v>[^"]{1,512})"/dgi,
    needs: /<add/,
    lower: true,
    // A key that ends in a password word holds a password ("SmtpPassword"); "PasswordPolicy" holds a setting.
    accept: (v, all) => (/(?:pass(?:word|wd)?|pwd)"\s+value\s*=/i.test(all) ? isQuotedPassword(v) : isCredentialValue(v, v)),
  },
  // An XML element named for a password or a secret, its text the value: Maven's settings.xml `<password>…</password>`, NuGet's
  // `<Password>`, `<ConsumerSecret>`, `<clientSecret>`, `<apiKey>`. The text is a literal, as a quoted value is: a password element's
  // holds a password however plain; another's only a value no name or label looks like.
  {
    kind: "credential",
    // Any other name ending in "key" after a word (`<licenseKey>`, `<signing_key>`; not plist's bare `<key>` nor a namespace's `<a:Key>`) too, unless the word says
    // the key opens nothing (`<sortKey>`, `<cacheKey>`, `<publicKey>`).
    re: /<(?<tag>(?:[A-Za-z][\w.:-]{0,40}?)?(?:pass(?:word|wd|phrase)?|pwd|secret|token|api[_-]?key|access[_-]?key|private[_-]?key|(?<=[A-Za-z0-9_.-])key))>(?<v>[^<>\n]{1,256})<\/\k<tag>>/dgi,
    needs: /<\/[\w.:-]{0,40}(?:pass|pwd|secret|token|key)/,
    lower: true,
    // The element's own name as its text (`<passphrase>passphrase</passphrase>`) is a stand-in.
    accept: (v, all) =>
      !all.toLowerCase().startsWith(`<${v.toLowerCase()}>`) &&
      !OPENS_NOTHING_KEY.test(camelWords(/^<([\w.:-]*?)[_.:-]?key>/i.exec(all)?.[1] ?? "").replace(/[_.:-]/g, " ")) &&
      (/^<[^>]*(?:pass(?:word|wd|phrase)?|pwd)>/i.test(all) ? !/\s/.test(v) && isQuotedPassword(v) : isCredentialValue(v, v)),
  },
  // YAML's `secret:` given a password unquoted (`secret: VeryStrong857#`): only a value shaped like one (letters, a digit and a symbol),
  // since `secret: true` and `secret: my-app-secret` are settings and names.
  {
    kind: "credential",
    // The value may stand on the next, indented line: YAML continues a plain scalar there (`secret:\n  …`); a key there (`name:`) opens a map.
    re: /\b[A-Za-z0-9_.-]{0,40}?secret(?:[_-]?key)?\s*:(?:[ \t]+|[ \t]*\r?\n[ \t]+)(?<v>[^\s"'`,;(){}[\]<>]{8,256})/dgi,
    needs: /secret/,
    lower: true,
    accept: (v) => !v.endsWith(":") && isStatedPassword(v, false),
  },
  // .NET's DirectoryEntry(path, user, password).
  {
    kind: "credential",
    re: /\bDirectoryEntry\(\s*"[^"\n]{0,200}"\s*,\s*"[^"\n]{0,100}"\s*,\s*"(?<v>[^"\n]{4,128})"/dg,
    needs: /DirectoryEntry/,
    accept: (v) => !isPlaceholder(v),
  },
  // A Vault unseal key share on the command line.
  { kind: "cli_password", re: /\bvault\s+operator\s+unseal\s+(?:-\S+\s+)*(?<v>[A-Za-z0-9+/]{40,}={0,2})/dg, needs: /unseal/, accept: (v) => looksRandom(v) },
  // PsExec's `-p` takes the password itself.
  { kind: "cli_password", re: /\bpsexec(?:\.exe)?\b[^\n|;&]{0,200}?\s-p\s+(?<q>["']?)(?<v>[^\s"']{1,256})\k<q>/dgi, needs: /psexec/, lower: true, accept: (v) => !isPlaceholder(v) },
  // Tools whose password flag takes the value itself: `sshpass -p`, `mysql -pVALUE` (attached; `-p value` prompts), `redis-cli -a`.
  { kind: "cli_password", re: /\bsshpass\s+(?:-[a-oq-zA-Z]\w*\s+)*-p\s*(?<q>["']?)(?<v>[^\s"']{1,256})\k<q>/dg, needs: /sshpass/, accept: (v) => !isPlaceholder(v) },
  { kind: "cli_password", re: /\b(?:mysql|mysqldump|mysqladmin|mysqlimport|mysqlsh|mariadb|mariadb-dump)\b[^\n|;&]{0,200}?\s-p(?<q>["']?)(?<v>[^\s"']{1,256})\k<q>/dg, needs: /mysql|mariadb/, accept: (v) => !isPlaceholder(v) },
  { kind: "cli_password", re: /\bredis-cli\b[^\n|;&]{0,200}?\s(?:-a|--pass)\s+(?<q>["']?)(?<v>[^\s"']{1,256})\k<q>/dg, needs: /redis-cli/, accept: (v) => !isPlaceholder(v) },
  // More tools whose flag takes the password itself: registry logins' `-p`, LDAP's bind `-w`, `htpasswd -b`, Samba's `-U user%pass`,
  // keytool's `-storepass`, OpenSSL's `pass:`, sqlcmd's `-P`, PowerShell's ConvertTo-SecureString, Windows' net use, cmdkey and schtasks,
  // and a password echoed into `sudo -S` or `--password-stdin`. A variable, a stand-in or a prompt (`*`) is not one.
  { kind: "cli_password", re: /\b(?:docker|podman|buildah|nerdctl|oras|skopeo|helm\s+registry|az(?:\s+acr)?)\s+login\b[^\n|;&]{0,200}?\s(?:-p|--password)[ =](?<q>["']?)(?<v>[^\s"']{1,256})\k<q>/dg, needs: /login/, group: "tools", accept: isCliPassword },
  { kind: "cli_password", re: /\bldap(?:search|modify|add|delete|passwd|compare|whoami|modrdn|exop)\b[^\n|;&]{0,200}?\s-w\s+(?<q>["']?)(?<v>[^\s"']{1,256})\k<q>/dg, needs: /ldap/, group: "tools", accept: isCliPassword },
  { kind: "cli_password", re: /\bhtpasswd\s+(?:-[A-Za-z]{1,6}\s+){0,3}-[A-Za-z]{0,5}b[A-Za-z]{0,5}\s+(?:-[A-Za-z]{1,6}\s+){0,3}[^\s-]\S{0,255}\s+\S{1,128}\s+(?<q>["']?)(?<v>[^\s"']{1,256})\k<q>/dg, needs: /htpasswd/, group: "tools", accept: isCliPassword },
  { kind: "cli_password", re: /(?:^|\s)(?:-U|--user(?:name)?=?)\s?["']?[\w.\\@-]{1,128}%(?<v>[^\s"'%]{1,256})(?![^\s"'])/dg, needs: /%/, group: "tools", accept: isCliPassword },
  { kind: "cli_password", re: /(?:^|\s)-(?:src|dest|new)?(?:store|key)pass(?<m>:(?:env|file))?\s+(?<q>["']?)(?<v>[^\s"']{1,256})\k<q>/dg, needs: /storepass|keypass/, group: "tools", accept: (v, all) => !/pass:(?:env|file)\s/.test(all) && isCliPassword(v) },
  { kind: "cli_password", re: /(?:^|\s)(?:-pass(?:in|out)?|-passphrase|--ks-pass|--key-pass|-password)\s+["']?pass:(?<v>[^\s"']{1,256})/dg, needs: /pass:/, group: "tools", accept: isCliPassword },
  { kind: "cli_password", re: /\b(?:sqlcmd|SQLCMD|bcp|osql|isql)\b[^\n|;&]{0,200}?\s-P\s*(?<q>["']?)(?<v>[^\s"']{1,256})\k<q>/dg, needs: /sqlcmd|bcp|osql|isql/, group: "tools", lower: true, accept: isCliPassword },
  { kind: "cli_password", re: /\bConvertTo-SecureString\s+(?:-String\s+)?(?<q>["'])(?<v>[^"'\n]{1,256})\k<q>\s+-AsPlainText/dgi, needs: /convertto-securestring/, group: "tools", lower: true, accept: isCliPassword },
  { kind: "cli_password", re: /\bnet\s+use\b[^\n|;&]{0,200}?\s\/user:\S{1,128}\s+(?<q>["']?)(?<v>[^\s"'/*][^\s"']{0,255})\k<q>/dgi, needs: /net\s+use/, group: "tools", lower: true, accept: isCliPassword },
  { kind: "cli_password", re: /\b(?:cmdkey|schtasks)\b[^\n|;&]{0,300}?\s\/(?:pass:|rp\s+)(?<q>["']?)(?<v>[^\s"'*][^\s"']{0,255})\k<q>/dgi, needs: /cmdkey|schtasks/, group: "tools", lower: true, accept: isCliPassword },
  {
    kind: "cli_password",
    re: /\b(?:echo|printf)\s+(?:-[neE]{1,2}\s+)?(?<q>["']?)(?<v>[^\s"'|$`]{1,256})\k<q>\s*\|\s*(?:sudo\s+(?:-[A-Za-z]{1,6}\s+){0,3}-[A-Za-z]{0,5}S\b|[^\n|;&]{0,200}?--password-stdin)/dg,
    needs: /sudo|password-stdin/, group: "tools",
    accept: isCliPassword,
  },
  // Passwords set up in a database or a cache: SQL's `IDENTIFIED BY` (Oracle, MySQL), Oracle's `user/password@db` logins
  // (sqlplus, Data Pump, jdbc:oracle:thin:), Redis' `requirepass` and `masterauth`. A bind variable (:pw, @pw, ?) is not one;
  // neither are the docs' own examples (scott/tiger, foobared).
  {
    kind: "credential",
    re: /\b(?:USER|ROLE|LOGIN|TO)\s+[^\s;]{1,128}\s+IDENTIFIED\s+(?:WITH\s+\w{1,40}\s+)?BY\s+(?:PASSWORD\s+)?(?<q>["'`]?)(?<v>[^\s"'`;,)]{1,128})\k<q>/dgi,
    needs: /identified/, group: "tools",
    lower: true,
    // Unquoted, only a value shaped like a password: "the user is identified by their email" is prose.
    accept: (v, all) => isCliPassword(v) && !/^[:?@]|^values$/i.test(v) && (/["'`]$/.test(all) ? isQuotedPassword(v) : isStatedPassword(v, false) || isPlainPassword(v)),
  },
  {
    kind: "credential",
    re: /(?:\b(?:sqlplus|sqlldr|expdp|impdp|rman)(?:\s+-[A-Za-z]{1,2})*\s+["']?|\bjdbc:oracle:(?:thin|oci):)[\w$#]{1,30}\/(?<v>[^\s@/"']{1,128})@/dgi,
    needs: /sqlplus|sqlldr|expdp|impdp|\brman\b|jdbc:oracle/, group: "tools",
    lower: true,
    accept: (v) => isCliPassword(v) && !/^tiger$/i.test(v),
  },
  {
    kind: "credential",
    re: /\b(?:requirepass|masterauth)\s+(?<q>["']?)(?<v>[^\s"']{1,256})\k<q>/dgi,
    needs: /requirepass|masterauth/, group: "tools",
    lower: true,
    accept: (v, all) => isCliPassword(v) && !/^foobared$/i.test(v) && (/["']$/.test(all) ? isQuotedPassword(v) : v.length >= 6 && /[\d\W]/.test(v)),
  },
  // And more: MongoDB shells' `-p`, `rabbitmqctl add_user|change_password`, Windows' `net user name pw`, FreeRDP's `/p:`,
  // rdesktop's `-p`, zip's `-P`, 7-Zip's `-p…`, `openssl enc -k`, `mosquitto_passwd -b`, `wpa_passphrase`, `user:pw` echoed into chpasswd.
  { kind: "cli_password", re: /\b(?:mongosh|mongo|mongodump|mongorestore|mongoexport|mongoimport)\b[^\n|;&]{0,200}?\s-p\s+(?<q>["']?)(?<v>[^\s"'-][^\s"']{0,255})\k<q>/dg, needs: /mongo/, group: "tools", accept: isCliPasswordInProse },
  { kind: "cli_password", re: /\brabbitmqctl\s+(?:add_user|change_password)\s+\S{1,128}\s+(?<q>["']?)(?<v>[^\s"']{1,256})\k<q>/dg, needs: /rabbitmqctl/, group: "tools", accept: isCliPasswordInProse },
  { kind: "cli_password", re: /\bnet\s+user\s+[^\s/]\S{0,127}\s+(?<q>["']?)(?<v>[^\s"'/*][^\s"']{0,255})\k<q>/dgi, needs: /net\s+user/, group: "tools", lower: true, accept: isCliPasswordInProse },
  {
    kind: "cli_password",
    re: /\b(?:[xw]l?freerdp|sdl-freerdp)\b[^\n|;&]{0,300}?\s\/p:(?<q>["']?)(?<v>[^\s"']{1,256})\k<q>|\brdesktop\b[^\n|;&]{0,200}?\s-p\s+(?<q2>["']?)(?<v2>[^\s"'-][^\s"']{0,255})\k<q2>/dg,
    needs: /freerdp|rdesktop/, group: "tools",
    accept: isCliPasswordInProse,
  },
  {
    kind: "cli_password",
    re: /\b(?:zip|unzip|zipcloak)\b[^\n|;&]{0,200}?\s-P\s+(?<q>["']?)(?<v>[^\s"']{1,256})\k<q>|\b7z[az]?\b[^\n|;&]{0,200}?\s-p(?<q2>["']?)(?<v2>[^\s"']{1,256})\k<q2>|\bopenssl\s+(?:enc\b|aes-|des)[^\n|;&]{0,200}?\s-k\s+(?<q3>["']?)(?<v3>[^\s"']{1,256})\k<q3>/dg,
    needs: /zip|7z|openssl/, group: "tools",
    accept: isCliPasswordInProse,
  },
  {
    kind: "cli_password",
    re: /\bmosquitto_passwd\s+(?:-c\s+)?-b\s+(?:-c\s+)?\S{1,256}\s+\S{1,128}\s+(?<q>["']?)(?<v>[^\s"']{1,256})\k<q>|\bwpa_passphrase\s+(?:"[^"\n]{1,64}"|'[^'\n]{1,64}'|\S{1,64})\s+(?<q2>["']?)(?<v2>[^\s"']{8,63})\k<q2>/dg,
    needs: /mosquitto_passwd|wpa_passphrase/, group: "tools",
    accept: isCliPasswordInProse,
  },
  { kind: "cli_password", re: /\b(?:echo|printf)\s+(?:-[neE]{1,2}\s+)?(?<q>["']?)[\w.-]{1,64}:(?<v>[^\s"':|]{1,256})\k<q>\s*\|\s*(?:sudo\s+)?chpasswd\b/dg, needs: /chpasswd/, group: "tools", accept: isCliPasswordInProse },
  // A secret handed to a secret store on its command line, where shell history and CI logs keep it: `gh secret set -b`,
  // `aws ssm put-parameter --value`, `aws secretsmanager … --secret-string`, `az keyvault secret set --value`, or echoed into
  // `vercel env add`, `wrangler secret put`, `gh secret set`, `gcloud secrets`, `supabase secrets set`, `firebase functions:secrets:set`.
  { kind: "stored_secret", re: /\bgh\s+secret\s+set\b[^\n|;&]{0,200}?\s(?:-b|--body)[ =](?<q>["']?)(?<v>[^\s"']{1,1024})\k<q>/dg, needs: /gh\s+secret\s+set/, group: "tools", accept: isStoredSecret },
  {
    kind: "stored_secret",
    re: /\b(?:aws\s+ssm\s+put-parameter|aws\s+secretsmanager\s+(?:create-secret|put-secret-value|update-secret)|az\s+keyvault\s+secret\s+set)\b[^\n|;&]{0,300}?\s--(?:value|secret-string)[ =](?<q>["']?)(?<v>[^\s"']{1,4096})\k<q>/dg,
    needs: /put-parameter|secretsmanager|keyvault/, group: "tools",
    accept: isStoredSecret,
  },
  {
    kind: "stored_secret",
    re: /\b(?:echo|printf)\s+(?:-[neE]{1,2}\s+)?(?<q>["']?)(?<v>[^\s"'|$`]{1,1024})\k<q>\s*\|\s*(?:npx\s+)?(?:vercel\s+env\s+add|wrangler\s+(?:pages\s+)?secret\s+put|gh\s+secret\s+set|gcloud\s+secrets\s+(?:create|versions\s+add)|supabase\s+secrets\s+set|firebase\s+functions:secrets:set)\b/dg,
    needs: /env\s+add|secret\s+put|gh\s+secret\s+set|gcloud\s+secrets|secrets\s+set|secrets:set/, group: "tools",
    accept: isStoredSecret,
  },
  // `--password value` with a space (the `=` form is an assignment, below), PowerShell's `-Password value`; "--password to the CLI" is prose.
  { kind: "cli_password", re: /(?:^|\s)--?pass(?:word|wd)?\s+(?<q>["']?)(?<v>[^\s"']{1,256})\k<q>/dgi, needs: /-pass/, lower: true, accept: (v) => isStatedPassword(v, false) },
  // A secret written out in a sentence: "the root password is Gr33n&Tea#42", "the auth token 9f8e…", "set the redis password to Xk9m…".
  {
    kind: "stated_secret",
    // A key named for what it opens or signs ("our secret key is …", "the signing key is …"), and credentials ("the OAuth credentials are …"), too;
    // an API's key with its name run into the word ("the NewsAPI key is …", "our RapidAPI key …").
    // The word may end a variable's name said in a sentence (`set DEPLOY_SECRET to …`, `MY_API_KEY is …`): after `_` there is no
    // word boundary, so the `_` starts the match. Given with `=` or `:` such a name is code, read by the assignment rules.
    re: /(?:\b|(?<=[A-Za-z0-9])_)(?:password|passwd|passphrase|secret|token|credentials?|(?:[a-z0-9]{0,20}?api|access|secret|private|deploy|signing|encryption|master)[ _-]?key)\s+(?:(?:is|was|are|were|of|to|=|:)\s+)?(?<q>["'`]?)(?<v>[^\s"'`,;(){}[\]]{8,512})\k<q>/dgi,
    needs: /passw|passphrase|secret|token|key|credential/,
    lower: true,
    accept: (v, all) => (all.startsWith("_") ? /\s(?:is|was|to)\s/i.test(all) && isStatedSecret(v, all.slice(1)) : isStatedSecret(v, all)),
  },
  // The word ending a camelCase name said in a sentence (`set deploySecret to …`, "the apiToken is …", "`stripeApiKey` was …"): no word
  // boundary before its capital, which only a reading that tells case apart finds. Given with `=` or `:` it is code, read by the
  // assignment rules; a page's, a cursor's or a cancellation's token (`nextPageToken`) opens nothing.
  {
    kind: "stated_secret",
    re: /(?<=[a-z0-9])(?:Password|Passwd|Passphrase|Pwd|Secret|Token|Credentials?|(?:Api|API|Access|Secret|Private|Deploy|Signing|Encryption|Master)Key)s?[`"']?\s+(?:is|was|to)\s+(?<q>["'`]?)(?<v>[^\s"'`,;(){}[\]]{8,512})\k<q>/dg,
    needs: /Pass|Pwd|Secret|Token|Credential|Key/,
    accept: (v, all, before) => !NOT_A_SECRET_QUALIFIER.test(camelWords(/[A-Za-z0-9]*$/.exec(before)![0])) && isStatedSecret(v, all),
  },
  // The same camelCase name with words between it and its value: "the deploySecret we rotated is …", "our stripeApiKey for staging
  // is …". As for a name in words (below), the words between may not say the value is something else, and the value must be one
  // no name looks like: random, a password as people pick them, or after a password's name a plain one (Summer2024).
  {
    kind: "stated_secret",
    re: /(?<=[a-z0-9])(?:Password|Passwd|Passphrase|Pwd|Secret|Token|Credentials?|(?:Api|API|Access|Secret|Private|Deploy|Signing|Encryption|Master)Key)s?[`"']?(?<gap>\s[^.!?\n:=`"']{0,60}?)(?:\s(?:is|was)|\s?[:=])\s{1,4}(?<q>["'`]?)(?<v>[^\s"'`,;(){}[\]]{8,512})\k<q>/dg,
    needs: /Pass|Pwd|Secret|Token|Credential|Key/,
    accept: (v, all, before) => {
      const value = withoutTrailingPunctuation(v);
      if (NOT_A_SECRET_QUALIFIER.test(camelWords(/[A-Za-z0-9]*$/.exec(before)![0])) || saysAnotherThing(all.slice(0, all.lastIndexOf(v)))) return false;
      if (/^(?:Pass|Pwd)/.test(all) && (isStatedPassword(value) || isPlainPassword(value))) return true;
      return isSymbolPassword(value) || (/^[A-Za-z0-9+/_~.-]{16,512}={0,2}$/.test(value) && isBareSecret(value));
    },
  },
  // What the secret is for, between its name and the value: "the password for user 'postgres' is 'admin'", "the API key for
  // staging is …", "the client secret for the app is …". Quoted after a password's name, four characters are a password.
  {
    kind: "stated_secret",
    re: /\b(?:password|passwd|passphrase|secret|token|api[ _-]?key|access[ _-]?key|client[ _-]?secret|access[ _-]?token)\s+(?:for|of|on)\s+(?:(?:the|our|my|this|that|user|account|login|role)\s+){0,2}(?<q0>["'`]?)[\w.@\\-]{1,64}\k<q0>(?:\s+(?:user|account|login|role|server|box|host|machine|database|db|app|api|instance|environment|env|service|cluster|bot|site|portal|console|vm))?\s+(?:is|was|=|:)\s+(?<q>["'`]?)(?<v>[^\s"'`,;(){}[\]]{4,512})\k<q>/dgi,
    needs: /(?:passw\w{0,4}|passphrase|secret|token|key)\s+(?:for|of|on)\s/,
    lower: true,
    accept: (v, all) =>
      /^pass/i.test(all) && /["'`]$/.test(all) ? v.length >= 4 && !isPlaceholder(v) && !TYPE_NAMES.test(v) && !namesAThing(v) : isStatedSecret(v, all),
  },
  // The secret named earlier in its clause, then `is`, `was`, `:` or `=` and the value: "use this token for the staging deploy:
  // 7Hq2…", "the deploy key we rotated yesterday is 4f9c…", from 16 characters ("the token we use for staging is Qm7Z…", 17, as
  // a provider's short keys are). Only a value no name or digest looks like, and not when the words
  // between say it is something else ("the key rotation commit is 4f9c…", "the API key's request id: …").
  {
    kind: "stated_secret",
    re: /\b(?:password|passwd|passphrase|secret|token|credential|(?:[a-z0-9]{0,20}?api|access|secret|private|deploy|signing|encryption|master|licen[cs]e)[ _-]?key)s?\b(?<gap>[^.!?\n:=]{0,60}?)(?:\s(?:is|was)|\s?[:=])\s{1,4}(?<q>["'`]?)(?<v>[A-Za-z0-9+/_~.-]{16,512}={0,2})\k<q>(?![A-Za-z0-9+/_~=-])/dgi,
    needs: /passw|passphrase|secret|token|credential|key/,
    lower: true,
    accept: (v, all) => !saysAnotherThing(all.slice(0, all.length - v.length)) && isBareSecret(withoutTrailingPunctuation(v)),
  },
  // The same with a password as people pick them (isSymbolPassword: letters, a digit and a symbol), which the value above cannot hold:
  // "the deploy secret we rotated is Gr33n&Tea#42", "the deploy secret is now …", "the signing key: …". The same words excuse it. A name
  // the assignment rules read (KEY_NAME) given its value by `:` or `=` right after it is code, theirs to name (`password: …`).
  {
    kind: "stated_secret",
    re: /\b(?:password|passwd|passphrase|secret|token|credential|(?:[a-z0-9]{0,20}?api|access|secret|private|deploy|signing|encryption|master|licen[cs]e)[ _-]?key)s?\b(?<gap>[^.!?\n:=]{0,60}?)(?:\s(?:is|was)(?:\s{1,4}(?:now|still|currently))?|\s?[:=])\s{1,4}(?<q>["'`]?)(?<v>[^\s"'`,;(){}[\]]{8,64})\k<q>(?=$|[\s,;)]|[.!?](?:\s|$))/dgi,
    needs: /passw|passphrase|secret|token|credential|key/,
    lower: true,
    accept: (v, all) =>
      !/^(?:password|passwd|secret|token|credential|[a-z0-9]{0,20}?api[ _-]?key|access[ _-]?key|private[ _-]?key|secret[ _-]?key)s?\s?[:=]/i.test(all) &&
      !saysAnotherThing(all.slice(0, all.lastIndexOf(v))) && isSymbolPassword(withoutTrailingPunctuation(v)),
  },
  // The value first, then what it is for: "use 34ce…73ec as the Facebook secret key", "paste fnhq…oy0 as the Google OAuth client
  // secret", "use Summer2024 as the admin password". The name must end the phrase (`as the token's checksum`, `as the password
  // hash` name another thing), and the words between may not say the value is something else (`as the idempotency key`).
  {
    kind: "stated_secret",
    re: /(?<![^\s(])(?<q>["'`]?)(?<v>[^\s"'`,;(){}[\]]{8,512})\k<q>\s{1,4}as\s{1,4}(?:(?:the|our|a|an|your|my|their|its|this)\s{1,4})?(?<gap>(?:[\w.’-]{1,30}\s{1,4}){0,4}?)(?<name>password|passwd|passphrase|secret|token|credential|(?:api|access|secret|private|deploy|signing|encryption|master|licen[cs]e|pre-?shared|unseal)[ _-]?key)s?(?=\s{0,4}$|\s{0,4}[.,;:!?)]|\s{1,4}(?:in|for|on|to|of|and|or|when|until|from|at|with|so|because|while|if|before|after|instead)\b)/dgi,
    // " as " is in most prose: a lesson must also hold a secret's word before this pattern runs.
    needs: /^(?=[^]*\sas\s)(?=[^]*(?:passw|passphrase|secret|token|credential|key))/,
    lower: true,
    accept: (v, all) => {
      const between = /\sas\s(.*)$/is.exec(all)?.[1] ?? "";
      if (NOT_THE_SECRET.test(between) || WHAT_OF_THE_SECRET.test(between) || NOT_A_SECRET_QUALIFIER.test(between)) return false;
      // A password's name lets a short one through (Summer2024), as after "password is".
      return isStatedSecret(v, /pass(?:word|wd|phrase)s?$/i.test(between.trim()) ? "password " : "") || isSymbolPassword(withoutTrailingPunctuation(v));
    },
  },
  // A token as a URL's whole user part (`https://4f9c…@git.internal/…`): git and many APIs take one there.
  {
    kind: "url_secret",
    re: /\b[a-z][a-z0-9+.-]{0,30}:\/\/(?<v>[A-Za-z0-9_~.-]{20,256})@[A-Za-z0-9.-]/dgi,
    needs: /:\/\//,
    accept: (v) => isBareSecret(v),
  },
  // A session cookie in a pasted request or response (`Cookie: sessionid=…`, `Set-Cookie: connect.sid=…`): it logs whoever holds it in.
  {
    kind: "session_cookie",
    re: /\b(?:Set-)?Cookie:[ \t]{0,8}(?:[^\n]{0,400}?[;\s])?[\w.-]{0,40}?(?:sess|sid|auth|token|jwt|remember|login)[\w.-]{0,40}=(?<v>[^;\s"',]{16,4096})/dgi,
    needs: /cookie:/, group: "tools",
    lower: true,
    accept: (v) => !isPlaceholder(v) && /\d/.test(v) && /[A-Za-z]/.test(v) && looksRandom(v),
  },
  // After a bare "key" only a value no name or digest looks like: 24+ characters mixing upper case, lower case and digits; or, unless
  // the word before says the key opens nothing (a cache's, a row's, an idempotency key), 24+ letters of both cases drawn at random
  // (few digits or none) or letters and digits mixed all through in one case (base36): "the release key is …" names a secret.
  // Not hex: after a bare "key" that is a digest or a public key's fingerprint (a release key's, published to check signatures).
  {
    kind: "stated_secret",
    re: /\bkey\s+(?:(?:is|was|=|:)\s+)?(?<q>["'`]?)(?<v>[A-Za-z0-9+/_=-]{24,512})\k<q>(?![A-Za-z0-9+/_=-])/dgi,
    needs: /key/,
    lower: true,
    accept: (v, _all, before) =>
      !isPlaceholder(v) &&
      !WORDS_JOINED.test(v) &&
      (/[a-z]/.test(v) && /[A-Z]/.test(v) && (v.match(/\d/g)?.length ?? 0) >= 3
        ? hasRandomPart(v)
        : !NOT_A_KEY_QUALIFIER.test(before) && !looksTypedByHand(v) && (isDrawnMixedCase(v) || (/^(?:[a-z0-9]+|[A-Z0-9]+)$/.test(v) && !/^[a-f0-9]+$/i.test(v) && isMixedThrough(v)))),
  },
  // A random key standing alone in a sentence, no name beside it: "I pasted fLcg…4j5w into the dashboard". Only a value set off
  // by spaces, a bracket or backticks (a piece of a path, a URL, a dotted name or a string quoted in code is left to the rules
  // that read its name), and only one no id, address, hash or name looks like (isLoneSecret).
  {
    kind: "lone_secret",
    // A value the sentence calls an id ("the sheet id 1Bxi…") is explained, unless it is a session's or a secret's id.
    re: /(?<![^\s(`])(?<!(?<!\b(?:session|secret|access|private|api)[ _-]?)\b(?:id|ids|ID|IDs|Id)[:=]?\s{1,3}`?)(?<v>[A-Za-z0-9][A-Za-z0-9_-]{23,255})(?=$|[\s)`]|[.,;:!?](?:\s|$))/dg,
    needs: /[A-Za-z0-9_-]{24}/,
    accept: (v) => isLoneSecret(v),
  },
  // The same, quoted in a sentence ("then paste "Zx8f…" into the box"), base64's `+` `/` `=` allowed; not a value assigned in code
  // (`requestId = "…"`, `"id": "…"`: the rules that read its name decide) nor one the sentence calls an id.
  {
    kind: "lone_secret",
    re: /(?:^|(?<=[\s(]))(?<q>["'])(?<v>[A-Za-z0-9][A-Za-z0-9_+/-]{23,255}={0,2})\k<q>/dg,
    needs: /["'][A-Za-z0-9][A-Za-z0-9_+/-]{23}/,
    // `sha512-…` is a lockfile's or a page's integrity digest.
    accept: (v, _all, before) => !/[=:]\s*$/.test(before) && !CALLED_AN_ID.test(before) && !/^(?:sha\d{1,3}|md5)-/i.test(v) && !isPathOfWords(v) && isLoneSecret(v),
  },
  // A legacy Azure Storage or Cosmos DB account key, 64 random bytes in base64 (88 characters ending "=="), read by its shape wherever
  // it stands: alone, or in a connection string that does not name it AccountKey= (`…;SharedKey=…`, `mongodb://acct:…@…cosmos…`).
  // A SHA-512 digest has that shape too: not when its sentence names it a digest (namedADigest).
  {
    kind: "account_key",
    re: /(?<![A-Za-z0-9+/_-])(?<v>[A-Za-z0-9+/]{86}==)(?![A-Za-z0-9+/=_-])/dg,
    needs: /==/,
    accept: (v, _all, before, after) =>
      !namedADigest(v, before, after) && charClasses(v) >= 3 && shannonEntropy(v) >= 5 && !isEncodedSentence(v) && !isPlaceholder(v) && !looksTypedByHand(v),
  },
  // Discord: the bot's id in base64 (a snowflake: digits only), a timestamp, an HMAC.
  { kind: "discord_bot_token", re: /\b(?<v>[MNO][A-Za-z\d_-]{23,27}\.[A-Za-z\d_-]{6}\.[A-Za-z\d_-]{27,40})(?![A-Za-z\d_-])/dg, needs: /\.[A-Za-z\d_-]{6}\./, accept: isDiscordToken },
  // A value given to a field named for a password or a secret: quoted, whatever characters it holds (`'\`123QWERasdf'`,
  // a JWT secret full of symbols, Django's SECRET_KEY), behind escaped quotes (`\\"goodspec\\"` in a PHP string);
  // unquoted after `=` or `=>`, as an .ini or .env file gives it (`Password=thisismypassword`).
  {
    kind: "credential",
    re: new RegExp(
      `\\b${SECRET_FIELD}["'\`]?\\s*(?:(?::=|=>|[:=])\\s*(?<q>\\\\?["'\`])(?<v>(?:(?!\\k<q>)[^\\n]){1,256})\\k<q>|(?:=>|:?=)\\s*(?<v2>(?:[^\\s"'\`,;(){}\\[\\]<>&]|${AMPERSAND_IN_VALUE}){1,256}))`,
      "dgi",
    ),
    needs: /pass|pwd|secret/,
    lower: true,
    accept: isSecretFieldValue,
  },
  // YAML and .properties give a `*pass` field its value after a colon, unquoted (`ansible_become_pass: …`, `DB_PASS: …`, `mail.pass: …`,
  // `dbpass: …`, `pass: …`), on its line or the next, indented (a continued plain scalar; a key there, `required:`, opens a map). English
  // words ending in "pass" (`bypass:`, `compass:`, `surpass:`) are not read, and a plain word (`first_pass: complete`) is no password.
  {
    kind: "credential",
    // `&` (an anchor) and `#` (a comment, after a space) are YAML's only where the value starts: inside it they are its characters.
    re: /\b(?<name>[A-Za-z0-9_.-]{0,40}?)pass(?:wd)?\s*:(?:[ \t]+|[ \t]*\r?\n[ \t]+)(?<v>[^\s"'`,;(){}[\]<>&#][^\s"'`,;(){}[\]<>]{0,255})/dgi,
    needs: /pass(?:wd)?\s*:/,
    lower: true,
    // A date, a number or a version (`first_pass: 2024-01-01`, `v1.2.3`) is a setting.
    // Bare or glued to a word (`Pass: Least-privilege scopes`, `dbpass:`), "pass" is as often a verdict or a step as a password's
    // name: its value must look like a password (letters and digits, or with a symbol).
    accept: (v, all) => {
      const name = /^[A-Za-z0-9_.-]*?(?=pass)/i.exec(all)![0];
      if (ENGLISH_PASS.test(name) || v.endsWith(":")) return false;
      if (!/[_.-]$/.test(name) && !isPlainPassword(v) && !isStatedPassword(v, false)) return false;
      return isSecretFieldValue(v, all) && isCliPasswordInProse(v) && /[A-Za-z]/.test(v) && !/^v?\d+(?:\.\d+)+(?:-[\w.]+)?$/i.test(v);
    },
  },
  // A secret written as the fallback of an environment lookup, where it ships whenever the variable is unset: Python's
  // os.environ.get / os.getenv (default=), Ruby's ENV.fetch, Laravel's env(), decouple's config(), JavaScript's
  // process.env.X || "…" / ?? "…", and the shell's ${X:-…}. The variable must be named for a secret; the value is read as one
  // assigned to that name (an empty, stand-in or plain default is not one).
  {
    kind: "credential",
    re: new RegExp(
      `\\b(?:(?:os\\.)?environ\\.get|(?:os\\.)?getenv|ENV\\.fetch|env|config)\\(\\s*(?<q0>["'])${KEY_NAME}\\k<q0>\\s*,\\s*(?:default\\s*=\\s*)?(?<q>["'])(?<v>[^"'\\n]{1,512})\\k<q>` +
        `|\\bprocess\\.env(?:\\.${KEY_NAME}|\\[\\s*["']${KEY_NAME}["']\\s*\\])\\s*(?:\\|\\||\\?\\?)\\s*(?<q2>["'\`])(?<v2>[^"'\`\\n]{1,512})\\k<q2>` +
        `|\\$\\{${KEY_NAME}:?-(?<v3>[^\\s{}"'\`$]{1,512})\\}`,
      "dgi",
    ),
    needs: /environ|getenv|env\.fetch|env\(|config\(|process\.env|\$\{/,
    lower: true,
    accept: isCredentialValue,
  },
  {
    kind: "credential",
    // A "(" right after the value is kept in the match: a class or a function called (`auth_scheme = OAuth2PasswordBearer(`).
    re: new RegExp(`\\b${KEY_NAME}["'\`]?${TYPE_GAP}\\s*(?::=|=>|[:=])\\s*(?<q>["'\`]?)(?<v>(?:[^\\s"'\`,;(){}\\[\\]&]|${AMPERSAND_IN_VALUE}){1,512})\\k<q>\\(?`, "dgi"),
    // Without the `u` flag, `i` folds ASCII letters only: every name KEY_NAME accepts holds one of these, lowercased.
    needs: /secret|token|passw|pwd|api|auth|credential|private|access|pat/,
    lower: true,
    accept: isCredentialValue,
  },
  // A secret's name bound to a quoted value other than by `name = value`: a subscript (`$config['db_password'] = '…'`,
  // `os.environ["API_TOKEN"] = "…"`, `ENV['SECRET_KEY'] = '…'`), a call that sets a name (PHP's `define('DB_PASSWORD', '…')` as
  // wp-config.php has it, `os.Setenv`, `os.environ.setdefault`, `putenv`, a map's `set`/`put`), or a name/value pair
  // (`{"name": "DB_PASSWORD", "value": "…"}`, as a pod's env or a job's parameters list it). The name's quote and bracket stood
  // between it and its value, where the assignment rules want `=` or `:`.
  {
    kind: "credential",
    re: new RegExp(
      `\\[\\s*(?<q0>["'])${KEY_NAME}\\k<q0>\\s*\\]\\s*(?:\\?\\?=|\\|\\|=|:?=)\\s*(?<q>["'\`])(?<v>[^"'\`\\n]{1,512})\\k<q>` +
        `|\\b(?:define|setdefault|setenv|putenv|SetEnvironmentVariable|set|put|setProperty|setItem)\\(\\s*(?<q1>["'])${KEY_NAME}\\k<q1>\\s*,\\s*(?<q2>["'\`])(?<v2>[^"'\`\\n]{1,512})\\k<q2>` +
        `|["']?\\b(?:name|key)["']?\\s*:\\s*(?<q3>["'])${KEY_NAME}\\k<q3>\\s*,\\s*["']?value["']?\\s*:\\s*(?<q4>["'])(?<v3>[^"'\\n]{1,512})\\k<q4>`,
      "dgi",
    ),
    needs: /\[\s*["']|\(\s*["']|value/,
    accept: isBoundSecret,
  },
  // Dockerfile's ENV in its older form, the name and the value apart by a space (`ENV DRONE_TOKEN …`), read as an assignment.
  {
    kind: "credential",
    re: /\bENV[ \t]+(?<name>[A-Z0-9_]{0,40}?(?:SECRET|TOKEN|PASSWORD|PASSWD|PWD|PASS|API_?KEY|AUTH|CREDENTIALS?|PRIVATE_?KEY|ACCESS_?KEY)[A-Z0-9_]{0,40})[ \t]+(?<q>["']?)(?<v>[^\s"'=]{1,512})\k<q>(?=$|[\s,;)]|[.!?](?:\s|$))/dg,
    needs: /ENV/,
    accept: isBoundSecret,
  },
  // A name ending in "key" given a password as people pick them, in code or config (`LICENSE_KEY=Xk9#mP2$…`, `APP_KEY: …`,
  // `licenseKey="…"`, `--license-key=…`): gitleaks' generic rule reads only [\w.=-] after a key's name, so a value with #, $, @ or !
  // passed whole (detect-secrets' keyword plugin takes any quoted value after such a name). Keys that open nothing (a sort, partition,
  // cache or translation key) and key bindings (`Ctrl+Alt+F5`: names joined by operators) are not.
  {
    kind: "credential",
    re: new RegExp(
      `\\b(?<name>[A-Za-z][A-Za-z0-9_.-]{0,40}?(?:[_.-](?:key|KEY|Key)|(?<=[a-z0-9])Key))["'\`]?\\s*(?::=|=>|[:=])\\s*(?<q>["'\`]?)(?<v>(?:[^\\s"'\`,;(){}\\[\\]<>&]|${AMPERSAND_IN_VALUE}){8,64})\\k<q>(?=$|[\\s,;)"'\`]|[.!?](?:\\s|$))`,
      "dg",
    ),
    needs: /key/,
    lower: true,
    accept: (v, all) => !OPENS_NOTHING_KEY.test(camelWords(/^[A-Za-z0-9_.-]*/.exec(all)![0].replace(/[_.-]?key$/i, "")).replace(/[_.-]/g, " ")) && isSymbolPassword(withoutTrailingPunctuation(v)),
  },
];

export interface SecretFinding {
  issues: QualityIssue[];
  /** The text with every secret's characters (and only those) replaced by `[REDACTED:<rule>]`. */
  masked: string;
  /** Where each secret was, after merging overlaps, in the input's offsets. */
  spans: SecretSpan[];
}

export function findSecrets(text: string): SecretFinding {
  const raw = spansIn(text);
  if (text.includes("\n")) raw.push(...splitKeySpans(text, raw));
  const spans = mergeSpans(raw);
  let masked = "";
  let at = 0;
  for (const s of spans) {
    masked += text.slice(at, s.start) + `[REDACTED:${s.rule}]`;
    at = s.end;
  }
  masked += text.slice(at);
  const counts = new Map<string, number>();
  for (const s of spans) counts.set(s.rule, (counts.get(s.rule) ?? 0) + 1);
  const issues: QualityIssue[] = [...counts].map(([rule, count]) => ({
    layer: "secret",
    severity: "reject",
    code: `secret_${rule.replace(/-/g, "_")}`,
    // Names the kind only: echoing even a prefix of the value would leak part of it.
    message: `The lesson contains ${labelOf(rule)}${count > 1 ? ` (${count} occurrences)` : ""}; remove it and refer to it by its environment variable or vault name instead.`,
  }));
  return { issues, masked, spans };
}

/** Every finding of every detector, before overlaps are merged. */
function spansIn(text: string): SecretSpan[] {
  const lower = text.toLowerCase();
  return [...privateKeySpans(text), ...encodedPrivateKeySpans(text), ...gitleaksSpans(text, lower), ...ownSpans(text, lower)].filter((s) => !isStandIn(s, text));
}

/**
 * A line that ends in a key-like run holding a digit, and a next line that starts with one (a digit in it, or both cases): where an
 * editor or a chat window wrapped a key. Indentation after the break is skipped; the next piece must end at a space or punctuation
 * (not a colon: `Private-Lines:` is a header).
 */
// Tried only where a run starts (the look-behind), so a long run is walked once, not from each of its characters.
const SPLIT_KEY = /(?<![A-Za-z0-9_+/=.~-])(?<head>[A-Za-z0-9_+/=.~-]{12,})[ \t]{0,4}\r?\n[ \t]{0,8}(?<tail>[A-Za-z0-9_+/=~-]{4,200})(?=$|[\s.,;!?)'"`])/g;

/**
 * A key broken across two lines is found in each line's own reading only in part, or not at all (`ghp_` and 20 characters is no
 * GitHub token), and the piece on the other line is kept. The two lines are read again joined at the break (the line before, up
 * to 300 characters, and the line after): a finding that spans the join covers both pieces. Each break is read once, so the cost
 * stays linear; a break inside a finding already made (a PEM body's lines) is not read again.
 */
function splitKeySpans(text: string, found: readonly SecretSpan[]): SecretSpan[] {
  const out: SecretSpan[] = [];
  // Breaks come in text order: the findings that start before one are swept once, keeping the furthest end among them
  // (asking every finding at every break was quadratic on a paste of one key-like line after another).
  const byStart = [...found].sort((a, b) => a.start - b.start);
  let swept = 0;
  let furthestEnd = -1;
  for (const m of text.matchAll(SPLIT_KEY)) {
    const tail = m.groups!.tail!;
    if (!/\d/.test(m.groups!.head!)) continue;
    // A capitalised word, or words joined (`Private-Lines`), starts a line of prose or a header, not a key's rest.
    if (!/\d/.test(tail) && !(/[a-z]/.test(tail) && /[A-Z]/.test(tail) && !/^[A-Z][a-z]+(?:[-_]?[A-Z][a-z]+)*$/.test(tail))) continue;
    const tailStart = (m.index ?? 0) + m[0].length - tail.length;
    const breakAt = text.lastIndexOf("\n", tailStart);
    const headEnd = text[breakAt - 1] === "\r" ? breakAt - 1 : breakAt;
    while (swept < byStart.length && byStart[swept]!.start < headEnd) furthestEnd = Math.max(furthestEnd, byStart[swept++]!.end);
    if (furthestEnd > tailStart) continue;
    const lineStart = Math.max(text.lastIndexOf("\n", headEnd - 1) + 1, headEnd - 300);
    let lineEnd = text.indexOf("\n", tailStart);
    if (lineEnd < 0) lineEnd = text.length;
    // The head's trailing spaces go too: the pieces meet as one run.
    let cut = headEnd;
    while (cut > lineStart && (text[cut - 1] === " " || text[cut - 1] === "\t")) cut--;
    const joined = text.slice(lineStart, cut) + text.slice(tailStart, lineEnd);
    const joinAt = cut - lineStart;
    for (const s of spansIn(joined)) {
      if (s.start < joinAt && s.end > joinAt) out.push({ start: lineStart + s.start, end: tailStart + (s.end - joinAt), rule: s.rule });
    }
  }
  return out;
}

/**
 * gitleaks' password rule takes any quoted 8–20 characters after a password's name, so the word itself
 * (`String password = "password";`) and other stand-ins would be refused; its value must be one. And no
 * rule takes a value typed by hand to show a key's shape.
 */
function isStandIn(span: SecretSpan, text: string): boolean {
  const value = text.slice(span.start, span.end);
  if ((span.rule === "hashicorp-tf-password" || span.rule === "generic-api-key") && isPlaceholder(value)) return true;
  if ((NAMED_ONLY.has(span.rule) || span.rule === "account_key") && isDigestNamedSo(value, text.slice(Math.max(0, span.start - 80), span.start))) return true;
  if (!NAMED_ONLY.has(span.rule)) return false;
  if (isDigestOfNamedThing(value, text.slice(Math.max(0, span.start - 160), span.start))) return true;
  return (value.length >= 16 && looksTypedByHand(value)) || (span.rule === "generic-api-key" && NOT_A_CREDENTIAL_NAME.test(text.slice(Math.max(0, span.start - 60), span.start)));
}

/**
 * A digest word, then within five words the secret's name: "the checksum for the token module is", "the SHA-1 of the secret
 * loader:", "the commit that moved the api key loader is". The name says what was hashed; the value is the digest. The words
 * between may not start another clause (`is`, `and`, a comma), so "the checksum is …, and the token is …" stays read.
 */
const DIGEST_THEN_NAME =
  /\b(?:checksum|sha-?(?:1|2|3|224|256|384|512)?|md5|crc-?(?:32|64)?|hash|digest|fingerprint|commit)(?:\s+(?!(?:is|was|are|were|and|or|but|then)\b)[\w'’-]{1,30}){0,5}?\s+[\w-]{0,30}?(?:password|passwd|passphrase|secret|token|credential|key)s?\b[^.!?\n,;]{0,80}$/i;
/** The secret's name right before the value, only `is`, `was`, `:` or `=` between: "… api key is <value>", "… token: <value>". */
const NAME_RIGHT_BEFORE = /(?:password|passwd|passphrase|secret|token|credential|key)s?["'`]?\s*(?:\s(?:is|was)|:=|=>|[:=])\s*["'`]?$/i;
/**
 * A digest word (or two: "sha256 checksum", "commit hash") joined to what follows by "of", "for", "that"…: the digest is of the
 * thing named next ("the SHA-256 of the api key is", "the commit that rotated the token is"). Followed by a noun instead
 * ("the checksum job's api key", "the commit hook's token"), the digest word names another thing, whose secret it is.
 */
const DIGEST_OF =
  /\b(?:checksum|sha-?(?:1|2|3|224|256|384|512)?|md5|crc-?(?:32|64)?|hash|digest|fingerprint|commit)(?:\s+(?:checksum|sha-?(?:1|2|3|224|256|384|512)?|md5|crc-?(?:32|64)?|hash|digest|fingerprint|commit))?\s+(?:of|for|that|which|from|in|on|over|behind|to|by)\b/i;
/** Hex of a digest's or a commit's length, or a padded base64 digest (MD5 24, SHA-1 28, SHA-256 44, SHA-384 64, SHA-512 88). */
const DIGEST_SHAPED = /^(?:[a-f0-9]{7,128}|(?=[A-Za-z0-9+/]*={1,2}$)[A-Za-z0-9+/=]{24,88})$/i;

/**
 * The name right before a value (then `is`, `was`, `:` or `=`) says it is a digest or a key that opens nothing: a cache's, an
 * idempotency…, a row's key, or a checksum, a digest, a hash (`cache key: <base64 SHA-512>`, `build cache key = <hex>`, `cacheKey:`,
 * `the token checksum:`, `secret_hash =`). The words may end a name run together, so no word boundary is asked for.
 */
const NAMED_A_DIGEST_OR_LOOKUP_KEY =
  /(?:(?:cache|idempotency|dedupe?|lookup|page|cursor|continuation|sort|row|partition|primary|foreign|object|document|composite|unique|index|content)[ _.-]?key|checksum|digest|hash|sha-?(?:1|224|256|384|512)|md5|integrity|fingerprint|etag)s?["'`]?\s*(?:\s(?:is|was)|:=|=>|[:=])\s*["'`]?$/i;

/** Base64 or base64url of a digest's length, padding left off: MD5 22, SHA-1 27, SHA-256 43, SHA-384 64 (never padded), SHA-512 86. */
const UNPADDED_DIGEST = /^(?:[A-Za-z0-9+/_-]{22}|[A-Za-z0-9+/_-]{27}|[A-Za-z0-9+/_-]{43}|[A-Za-z0-9+/_-]{64}|[A-Za-z0-9+/_-]{86})$/;

/** A digest-shaped value (hex, or base64 of a digest's length) its name calls a digest or a key that opens nothing. */
function isDigestNamedSo(value: string, before: string): boolean {
  return (DIGEST_SHAPED.test(value) || UNPADDED_DIGEST.test(value)) && NAMED_A_DIGEST_OR_LOOKUP_KEY.test(before);
}

/** The value is a digest said of a thing named like a secret (DIGEST_THEN_NAME in its clause) and shaped like one. */
function isDigestOfNamedThing(value: string, before: string): boolean {
  if (!DIGEST_SHAPED.test(value)) return false;
  // Only the clause the value ends: after the last sentence end or line break.
  const clause = before.slice(Math.max(before.lastIndexOf("\n"), before.search(/[.!?]\s(?!.*[.!?]\s)/s)) + 1);
  if (!DIGEST_THEN_NAME.test(clause)) return false;
  // "the checksum job's api key is <hex>": the key's own name sits right before the value, and the digest word names the job.
  return !NAME_RIGHT_BEFORE.test(clause) || DIGEST_OF.test(clause);
}

/**
 * Rules that know a secret only by the name beside it. A provider's own format (`xoxb-`, `dapi`, `NRAL`) is refused
 * even when its body was typed by hand: a lesson showing it is one edit away from pasting the real one.
 */
const NAMED_ONLY = new Set(["generic-api-key", "credential", "stated_secret", "url_password"]);

/**
 * A key someone typed to show the shape, not one drawn at random: letters or digits in order, six or more
 * (`ABCDEFGHIJKL`, `1234567890`, `987654`), or four or more letters each with its place in the alphabet
 * (`a1b2c3d4`, `d4c3b2a1`), making up a sixth of the value or more. A drawn base64 key holds such a run
 * about once in a billion characters, a hex one about once in 500,000 — and a drawn key that does is still
 * mostly drawn, so one short run in a long value does not make it a stand-in. Only values of 16+ characters
 * are read, so a short password such as `Welcome123456` stays one.
 */
export function looksTypedByHand(value: string): boolean {
  return typedRunLength(value) * 6 >= value.length;
}

/** How many of the value's characters are in runs typed in order (see looksTypedByHand). */
function typedRunLength(value: string): number {
  let typed = 0;
  let run = 1;
  let step = 0;
  const endRun = () => {
    if (run >= 6) typed += run;
  };
  for (let i = 1; i < value.length; i++) {
    const d = value.charCodeAt(i) - value.charCodeAt(i - 1);
    const sameKind = isAlnumOfKind(value.charCodeAt(i)) === isAlnumOfKind(value.charCodeAt(i - 1)) && isAlnumOfKind(value.charCodeAt(i)) !== 0;
    if (sameKind && (d === 1 || d === -1) && (run === 1 || d === step)) {
      run++;
    } else {
      endRun();
      run = sameKind && (d === 1 || d === -1) ? 2 : 1;
    }
    step = d;
  }
  endRun();
  // Letter-digit pairs spelling the alphabet with its place (`a1b2c3d4`, `d4c3b2a1`): four in a row, up or down.
  let pairs = 0;
  let last = 0;
  const endPairs = () => {
    if (pairs >= 4) typed += 2 * pairs;
  };
  for (let i = 0; i + 1 < value.length; ) {
    const place = (value.charCodeAt(i) | 0x20) - 96;
    const digit = value.charCodeAt(i + 1) - 48;
    if (place >= 1 && place <= 26 && digit >= 0 && digit <= 9 && place % 10 === digit) {
      if (pairs > 0 && Math.abs(place - last) === 1) pairs++;
      else {
        endPairs();
        pairs = 1;
      }
      last = place;
      i += 2;
    } else {
      endPairs();
      pairs = 0;
      i += 1;
    }
  }
  endPairs();
  // Letters and digits each counting in turn, interleaved (`X9y8Z7a6B5c4`, `a9b8c7d6`): four pairs in a row, past z and 0 too.
  // Not in hex: `9f8e7d6c5b4a…` is how a hex key is made up for a test, and a test of a key's shape keeps it a key.
  if (/^[0-9a-f-]*$/i.test(value)) return typed;
  let steps = 0;
  let lastPlace = 0;
  let lastDigit = 0;
  let letterStep = 0;
  let digitStep = 0;
  const endSteps = () => {
    if (steps >= 4) typed += 2 * steps;
  };
  for (let i = 0; i + 1 < value.length; ) {
    const kind = isAlnumOfKind(value.charCodeAt(i));
    const place = (value.charCodeAt(i) | 0x20) - 97;
    const digit = value.charCodeAt(i + 1) - 48;
    if ((kind === 1 || kind === 2) && digit >= 0 && digit <= 9) {
      const ls = (place - lastPlace + 26) % 26;
      const ds = (digit - lastDigit + 10) % 10;
      if (steps > 0 && (ls === 1 || ls === 25) && (ds === 1 || ds === 9) && (steps === 1 || (ls === letterStep && ds === digitStep))) steps++;
      else {
        endSteps();
        steps = 1;
      }
      [lastPlace, lastDigit, letterStep, digitStep] = [place, digit, ls, ds];
      i += 2;
    } else {
      endSteps();
      steps = 0;
      i += 1;
    }
  }
  endSteps();
  return typed;
}

/** 1 for a lower-case letter, 2 for an upper-case one, 3 for a digit, 0 for anything else. */
function isAlnumOfKind(code: number): number {
  if (code >= 97 && code <= 122) return 1;
  if (code >= 65 && code <= 90) return 2;
  if (code >= 48 && code <= 57) return 3;
  return 0;
}

/** The text with every detected secret masked (a convenience for storage and echo paths). */
export function maskSecrets(text: string): string {
  return findSecrets(text).masked;
}

// Display names where the rule id's first word is not how people write the provider.
const PROVIDERS: Record<string, string> = {
  github: "GitHub", gitlab: "GitLab", aws: "AWS", gcp: "Google Cloud", openai: "OpenAI", huggingface: "Hugging Face",
  digitalocean: "DigitalOcean", sendgrid: "SendGrid", hashicorp: "HashiCorp", vault: "HashiCorp Vault", "1password": "1Password",
  planetscale: "PlanetScale", easypost: "EasyPost", flyio: "Fly.io", nuget: "NuGet", pypi: "PyPI", npm: "npm",
  new: "New Relic", truenas: "TrueNAS", stackhawk: "StackHawk",
  langsmith: "LangSmith", openrouter: "OpenRouter", xai: "xAI", posthog: "PostHog", nvidia: "NVIDIA", thingsboard: "ThingsBoard", codeclimate: "Code Climate",
  sonarqube: "SonarQube", mailersend: "MailerSend", deepseek: "DeepSeek", elevenlabs: "ElevenLabs", launchdarkly: "LaunchDarkly", mongodb: "MongoDB",
};

function labelOf(rule: string): string {
  if (rule in OWN_LABELS) return OWN_LABELS[rule as OwnKind];
  if (rule === "generic-api-key") return OWN_LABELS.credential;
  if (rule === "jwt" || rule === "jwt-base64") return "a JSON Web Token";
  const first = rule.split("-")[0]!;
  const name = PROVIDERS[first] ?? first.charAt(0).toUpperCase() + first.slice(1);
  return `${articleFor(name)} ${name} token or key (gitleaks rule ${rule})`;
}

/** "an AWS", "an OpenAI", "an npm", but "a GitHub": by the sound of the name's first letter (npm is said letter by letter, NVIDIA "en-vidia"). */
function articleFor(name: string): "a" | "an" {
  return /^[aeiou]/i.test(name) || name === "npm" || name === "NVIDIA" ? "an" : "a";
}

/** Catch-all rules: when a provider's own rule finds the same value, the region is named after the provider. */
const GENERIC = new Set(["generic-api-key", "credential"]);

/** Overlapping findings become one masked region, named after the first specific finding in it. */
function mergeSpans(spans: SecretSpan[]): SecretSpan[] {
  const sorted = [...spans].sort((a, b) => a.start - b.start || b.end - a.end);
  const out: SecretSpan[] = [];
  for (const s of sorted) {
    const last = out[out.length - 1];
    if (last && s.start < last.end) {
      last.end = Math.max(last.end, s.end);
      if (GENERIC.has(last.rule) && !GENERIC.has(s.rule)) last.rule = s.rule;
    } else out.push({ ...s });
  }
  return out;
}

const VALUE_GROUPS = ["v", "v2", "v3"] as const;

function ownSpans(text: string, lower: string): SecretSpan[] {
  const out: SecretSpan[] = [];
  let tools: boolean | undefined;
  for (const d of OWN) {
    if (shortcuts.enabled) {
      if (d.group === "tools" && !(tools ??= TOOLS.test(lower))) continue;
      if (!d.needs.test(d.lower ? lower : text)) continue;
    }
    for (const m of text.matchAll(d.re)) {
      const all = m[0];
      // Alternatives name their value v, v2, v3 (a regex may not repeat a group name on Node 20).
      const group = VALUE_GROUPS.find((g) => m.groups?.[g] !== undefined);
      const v = group && m.groups![group];
      const value = v ?? all;
      const at = m.index ?? 0;
      if (d.accept && !d.accept(value, all, text.slice(Math.max(0, at - 160), at), text.slice(at + all.length, at + all.length + 160))) continue;
      // With the `d` flag the value group carries its own offsets: exactly its characters are masked.
      const [start, end] = group === undefined ? [m.index ?? 0, (m.index ?? 0) + all.length] : m.indices!.groups![group]!;
      out.push({ start, end, rule: d.kind });
    }
  }
  return out;
}

const PEM_HEADER = /-----BEGIN[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----/g;
const PEM_END = /-----END[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----/y;
// Lines break as newlines, or as the `\n` and `\r\n` escapes of a key pasted inside a JSON or code string.
const PEM_BODY = /(?:[A-Za-z0-9+/=\s]|\\[nr])*/y;
/** Base64 tokens (a key body wrapped on lines or spaces), read one at a time so prose after a header is not swallowed. */
// A token may end where the paste was cut short with an ellipsis (`…Nc...`, `…Nc…`): the characters before it are key material too.
const PEM_TOKEN = /(?:\s|\\[nr])*([A-Za-z0-9+/]{1,4096}={0,2})(?=\s|\\[nr]|["',]|\.\.|…|$)/y;

/**
 * PEM blocks by hand rather than one regex: a lazy scan to `-----END` from every header would be
 * quadratic on a paste of repeated headers. Any base64 body, however short, makes it a key: a
 * truncated key block is still key material. A header followed by prose is a mention.
 */
function privateKeySpans(text: string): SecretSpan[] {
  const out: SecretSpan[] = [];
  let cursor = 0;
  for (const m of text.matchAll(PEM_HEADER)) {
    const at = m.index ?? 0;
    if (at < cursor) continue;
    const bodyStart = at + m[0].length;
    PEM_BODY.lastIndex = bodyStart;
    PEM_BODY.test(text);
    PEM_END.lastIndex = PEM_BODY.lastIndex;
    let end: number;
    let body: string;
    if (PEM_END.test(text)) {
      end = PEM_END.lastIndex;
      body = text.slice(bodyStart, PEM_BODY.lastIndex).replace(/\\[nr]|\s+/g, "");
      if (body.length < 8) continue;
    } else {
      // No END: the body is the run of base64 tokens right after the header, and its first token must look like one.
      PEM_TOKEN.lastIndex = bodyStart;
      const first = PEM_TOKEN.exec(text);
      if (!first || !looksLikeKeyBody(first[1]!)) continue;
      end = PEM_TOKEN.lastIndex;
      for (let t = PEM_TOKEN.exec(text); t && /[A-Z0-9+/]/.test(t[1]!) && t[1]!.length >= 8; t = PEM_TOKEN.exec(text)) end = PEM_TOKEN.lastIndex;
    }
    out.push({ start: at, end, rule: "private_key" });
    cursor = end;
  }
  return out;
}

/** "-----BEGIN" in base64, as Kubernetes secrets and Helm values carry a PEM file. */
const ENCODED_PEM = /LS0tLS1CRUdJTi[A-Za-z0-9+/]{20,}={0,2}/g;

/** A base64 run that decodes to a private-key block with key material after its header. */
function encodedPrivateKeySpans(text: string): SecretSpan[] {
  if (!text.includes("LS0tLS1CRUdJTi")) return [];
  const out: SecretSpan[] = [];
  for (const m of text.matchAll(ENCODED_PEM)) {
    const decoded = Buffer.from(m[0], "base64").toString("latin1");
    if (privateKeySpans(decoded).length > 0) out.push({ start: m.index ?? 0, end: (m.index ?? 0) + m[0].length, rule: "private_key" });
  }
  return out;
}

/** "MIIEowIBAAKCAQEA7bq9xYz" is key material; "and", "file" or "mode" is prose. */
function looksLikeKeyBody(token: string): boolean {
  return token.length >= 16 && /[A-Z]/.test(token) && /[a-z0-9]/.test(token);
}

/** `user:password` once base64-decoded, printable: what an `Authorization: Basic` value carries. */
function isBasicPair(b64: string): boolean {
  const decoded = Buffer.from(b64, "base64").toString("latin1");
  return /^[\x20-\x7e]{1,128}:[\x20-\x7e]{1,256}$/.test(decoded) && !isPlaceholder(decoded.slice(decoded.indexOf(":") + 1));
}

/** Obvious stand-ins: `<your-token>`, `xxx`, `${TOKEN}`, `$TOKEN`, `process.env.X`, `changeme`… */
export function isPlaceholder(value: string): boolean {
  const v = value.replace(/^["'`]|["'`]$/g, "");
  if (v.length === 0) return true;
  if (/^[<{[(%$*.]|^\*+$|^\$\{|\{\{|\}\}$|>$/.test(v)) return true;
  if (/^(?:process\.env|os\.environ|import\.meta\.env|env\.|secrets\.|vars\.|config\.|settings\.|ENV\[|System\.getenv)/i.test(v)) return true;
  if (/(?:your|example|placeholder|redacted|changeme|change_me|changeit|dummy|sample|replace_?me|insert|todo|xxxx|\.\.\.|…|choose|pick[-_ ]?one|fill[-_ ]?(?:me|in)|set[-_ ]?me)/i.test(v)) return true;
  // RabbitMQ's guest/guest is its built-in local login.
  if (/^(?:x+|0+|1234\d*|password\d*|pass|secret|token|test@?\d*|null|none|undefined|true|false|string|required|optional|hunter2|abc123|guest)$/i.test(v)) return true;
  // The docs' stand-ins: myPassword, my_secret, mytoken; and a value that only says what it is: wrongpassword, new_password, testsecret.
  if (/^(?:my|your|the|some|wrong|invalid|bad|incorrect|new|old|current|test|fake|temp|default|sample|hard[_-]?coded|plain[_-]?text|actual|user[_-]?input)[_-]?(?:pass(?:word|wd)?|pwd|secret|token|key|api[_-]?key|user(?:name)?|value)(?:[_-]?(?:key|token|value))?$/i.test(v)) return true;
  // A test's or a wrong password with a number after it (TestPass2024, WrongPassword99, actual_secret_key_98765); `mySecret2024` may be one.
  if (/^(?:wrong|invalid|bad|incorrect|test|fake|dummy|hard[_-]?coded|actual)[_-]?(?:pass(?:word|wd)?|pwd|secret|token|key|api[_-]?key)(?:[_-]?(?:key|token))?[_@-]?\d{1,6}$/i.test(v)) return true;
  // One character repeated is a mask, not a key.
  return new Set(v).size <= 2;
}

/** A short token in an Authorization header: a digit among random characters, not a stand-in, a name, a reference or a run typed by hand. */
function isShortBearerToken(v: string): boolean {
  if (isPlaceholder(v) || isCodeReference(v) || WORDS_JOINED.test(v) || NAME_PART.test(v) || looksTypedByHand(v)) return false;
  return /\d/.test(v) && /[A-Za-z]/.test(v) && looksRandom(v);
}

/** What a password flag was given, when it is the password: not a stand-in, a variable (`%PASS%`, `$PASS`), another flag or a prompt. */
function isCliPassword(value: string): boolean {
  return !isPlaceholder(value) && !/^-|%$|^\\?\$/.test(value);
}

/**
 * After a flag that prose mentions too ("run zip with -P and a password"), a value that is not a plain word:
 * a digit, a symbol, mixed case, or ten characters or more.
 */
function isCliPasswordInProse(value: string): boolean {
  return isCliPassword(value) && (/[\d\W_]/.test(value) || (/[A-Z]/.test(value) && /[a-z]/.test(value)) || value.length >= 10);
}

/** What a secret store was handed: a value with a digit and mixed characters, not a stand-in, a variable or words joined (`us-east-1`). */
function isStoredSecret(value: string): boolean {
  return isCliPassword(value) && value.length >= 8 && /\d/.test(value) && looksRandom(value) && !WORDS_JOINED.test(value);
}

/** A dotted name in code: `config.auth.secretKey`, `req.headers.token`, `ctx.meta?.progressToken`. */
const DOTTED_NAME = /^[A-Za-z_$][\w$]*(?:\??\.[A-Za-z_$][\w$]*)+$/;
/** A call, a URL or a path: `getToken()`, `https://…`, `./keys/dev.pem`. */
const CALL_URL_OR_PATH = /\(|:\/\/|^\.{0,2}\//;
/**
 * A cloud resource's name (`arn:aws:secretsmanager:…:secret:prod/db`, `urn:…`), or the rest of an ARN after a
 * service named like a secret (`secretsmanager:us-east-1:123456789012:secret:…`), the region and the account maybe left as
 * stand-ins (`REGION:ACCOUNT_ID:secret:…`, `${AWS_REGION}:${ACCOUNT}:`): where a secret is kept, not the secret.
 */
const RESOURCE_NAME = /^(?:arn|urn):[\w-]{1,40}:|^(?:[a-z]{2}(?:-gov)?-[a-z]{1,12}-\d{1,2})?:\d{12}:/i;
/** The region and the account as stand-ins, in capitals or as variables: `REGION:ACCOUNT_ID:`, `${AWS_REGION}:${ACCOUNT}:`. */
const STAND_IN_REGION_ACCOUNT = /^(?:[A-Z][A-Z_]{2,30}|\$\{\w{1,30}\}):(?:[A-Z][A-Z_]{2,30}|\$\{\w{1,30}\}):/;
function isResourceName(value: string): boolean {
  return RESOURCE_NAME.test(value) || STAND_IN_REGION_ACCOUNT.test(value);
}
/** A dotted name (DOTTED_NAME) none of whose pieces is random: `Rk4m….Uq7X…….Vb3N…`, a session token in base64url pieces, is a value. */
function isDottedName(value: string): boolean {
  return DOTTED_NAME.test(value) && !value.split(".").some(hasRandomPart);
}
/** A reference in code rather than a literal: `a.b.c`, `getToken()`, `KEY_NAME`, a URL, a path or a resource name. */
function isCodeReference(value: string): boolean {
  return isDottedName(value) || CALL_URL_OR_PATH.test(value) || isResourceName(value) || /^[A-Z][A-Z0-9_]*$/.test(value) || CMDLET.test(value) || isNameOfWords(value);
}
/** A PowerShell cmdlet, Verb-Noun: `Get-AzKeyVaultSecret`, `ConvertTo-SecureString`: a call whose result is the secret. */
const CMDLET = /^[A-Z][a-z]{1,10}(?:To|From)?-[A-Z][A-Za-z0-9]{2,60}$/;
/** One word of a name: `Desktop`, `billing`, `API`, `H1`, `repoV2`, `$ORG`. */
const NAME_PART = /^\$?(?:[A-Z][a-z]+|[a-z]+|[A-Z][A-Z_]*)(?:[A-Z][a-z]{2,})*(?:[A-Z]?\d{1,3})?$/;
/**
 * Words joined by `/` or `:` (a design token's path `Desktop/Title/H1`, `feedV2/$ORG/$ID`, a Salesforce named
 * credential `callout:External_API`): a name. A drawn key's pieces are not all words.
 */
function isNameOfWords(value: string): boolean {
  if (!/[/:]/.test(value)) return false;
  // A Swift or Objective-C selector ends its last label with a colon too: `searchable(text:tokens:placement:prompt:token:)`.
  const parts = value.replace(/(?<=[A-Za-z]):$/, "").split(/[/:_]/);
  return parts.length >= 2 && parts.every((p) => NAME_PART.test(p));
}
/**
 * Names that hold a key in the database's or the public's sense: `rowKey`, `partitionKey`, `cacheKey`, .NET's
 * `PublicKeyToken`, `publicKey`. Their value identifies a row or a signer and unlocks nothing.
 */
const NOT_A_CREDENTIAL_NAME = /(?:row|partition|primary|sort|foreign|cache|idempotency|dedupe?|lookup|public)[_-]?key(?:[_-]?token)?["'`]?\s*(?::=|=>|[:=])?\s*["'`]?$/i;

/** A name of capitalised words, an acronym or a version among them: `OAuth2PasswordBearer`, `StateNotifierProvider`, `AuthNotifier`. */
const CLASS_NAME = /^[A-Z]{1,5}[a-z]{2,}\d{0,2}(?:[A-Z]{0,4}[A-Z][a-z]{2,}\d{0,2})+$/;
/**
 * A class in code, unquoted: called (`OAuth2PasswordBearer(`, the match keeps the "(") or made generic
 * (`StateNotifierProvider<AuthNotifier`). A random key is not made of capitalised words; quoted, the same is a literal.
 */
function isClassInCode(value: string, all: string): boolean {
  if (/["'`]\(?$/.test(all)) return false;
  const generic = value.split("<");
  if (generic.length === 2) return generic.every((n) => CLASS_NAME.test(n.replace(/>$/, "")));
  return all.endsWith("(") && CLASS_NAME.test(value);
}

/** Words joined by separators (`jwt_with_refresh`, `rotation-policy`): names of things; keys do not read like that. */
const WORDS_JOINED = /^[a-z]+(?:[_-][a-z0-9]+)*$/;

function isCredentialValue(value: string, all: string): boolean {
  if (isPlaceholder(value)) return false;
  if (isCodeReference(value)) return false;
  if (isClassInCode(value, all)) return false;
  const key = all.slice(0, all.lastIndexOf(value));
  if (NOT_A_CREDENTIAL_NAME.test(key)) return false;
  // Words joined by separators (`jwt_with_refresh`, `cl100k_base`) name things; keys do not read like that.
  if (WORDS_JOINED.test(value) || /^[a-z]+\d+[a-z]?(?:_[a-z]+)*$/.test(value)) return false;
  if (isDrawnMixedCase(value) && !looksTypedByHand(value)) return true;
  if (value.length >= 16 && /\d/.test(value) && looksRandom(value)) return true;
  // Hex after a secret's name is one even below looksRandom's bar (16 hex characters measure ~3.4 bits each).
  if (/^[a-f0-9]{16,}$/i.test(value) && /\d/.test(value) && /[a-f]/i.test(value)) return true;
  if (value.length >= 20 && charClasses(value) >= 3 && shannonEntropy(value) >= 3.5) return true;
  // A password as people pick them (letters, a digit and a symbol) is a secret under any secret's name.
  if (isSymbolPassword(value)) return true;
  // A password is short and still a secret: any literal of 8+ characters mixing letters and digits.
  return /pass(?:word|wd)?|pwd/i.test(key) && value.length >= 8 && /\d/.test(value) && /[A-Za-z]/.test(value);
}

/** The name a binding gives its value: the first quoted name in the match other than a pair's own field names, or ENV's. */
const BOUND_NAME = /["'](?!(?:name|key)["'])([A-Za-z0-9_.-]{1,120})["']|\bENV[ \t]+([A-Z0-9_]{1,120})/;
/**
 * A value bound to a secret's name by a subscript, a call, ENV or a name/value pair: after a password's name any literal that is
 * no stand-in, type or label (as in a password field); after another secret's name, what isCredentialValue takes after `name=`. A
 * name that says the value is where the secret is, or about it (`_FILE`, `_PATH`, `_URL`, `_TTL`, `_NAME`, `_ID`), binds no secret.
 */
function isBoundSecret(value: string, all: string): boolean {
  const m = BOUND_NAME.exec(all);
  const name = m?.[1] ?? m?.[2] ?? "";
  if (/[_.-](?:file|path|dir|url|uri|ttl|name|id|length|type|header|env|var)$/i.test(name)) return false;
  if (/pass(?:word|wd|phrase)?$|pwd$/i.test(name)) return isQuotedPassword(value) && !isCodeReference(value);
  return isCredentialValue(value, `${name}=${value}`);
}

/** A literal quoted where a password goes: not a stand-in, a type, a label, a selector or a route. */
function isQuotedPassword(value: string): boolean {
  return value.length >= 6 && !isPlaceholder(value) && !TYPE_NAMES.test(value) && !namesAThing(value);
}

/**
 * A label, selector, route or field name rather than a password: `"#add-password"`, `"cms/sites/passwords#edit"`,
 * `'edit_password'`, `'newPassword'`. A password word run into others without a break (`thisismypassword`) is a password.
 */
function namesAThing(value: string): boolean {
  if (/^#|^[\w.#/-]*\/[\w.#/-]*$/.test(value) || REFERENCE.test(value) || isResourceName(value)) return true;
  return /pass|pwd/i.test(value) && /[_.:#/-]|[a-z][A-Z]/.test(value);
}

/** A path, a URL or a call (`/en/auth`, `https://…`, `@parameters('clientSecret')`): where a value comes from, not the value. */
const REFERENCE = /^(?:\.{0,2}|~)\/|:\/\/|^[@$]?[\w.]+\(.*\)$/;

/** The field's name ends in a password word (not "secret"): `password = `, `DB_PASS=`, `"pwd": `. */
const PASSWORD_FIELD = /(?:pass(?:word|wd|phrase)?|pwd)["'`]?\s*(?::=|=>|[:=])/i;

/**
 * What a field named for a password or a secret is given (the SECRET_FIELD detector). Quoted, a password
 * field's literal is the password however plain ('whiteduke'); a secret field's, unless it reads as a name
 * or a label (`"tls-cert-store"`, `'production'`, `"jwtSecret"`, `"Geheimnis"`). Unquoted, only a password field's, and not a reference:
 * `$DB_PASSWORD`, `os.environ`, `DB_PASSWORD`, `smtp_password`.
 */
function isSecretFieldValue(value: string, all: string): boolean {
  // `"Password:",rememberMe:"…"`: what lies between two strings of a minified file, not a value.
  if (/^[,;)\]}]/.test(value)) return false;
  // Quoted words with spaces are a label or a hint ("At least 8 characters", "Passwort vergessen?") unless, like
  // a passphrase, they hold a digit and a symbol in a few words ('p@ss w0rd!').
  if (/\s/.test(value)) return /\d/.test(value) && /[^\w\s]/.test(value) && value.trim().split(/\s+/).length <= 4 && isQuotedPassword(value);
  const password = PASSWORD_FIELD.test(all);
  if (/["'`]$/.test(all)) {
    if (password) return isQuotedPassword(value);
    // Letters alone, or words joined (`Geheimnis`, `tls-cert-store`, `jwtSecret`), name a thing or label one; a secret holds a digit or a symbol.
    return isQuotedPassword(value) && !/^[A-Za-z]+(?:[_-][A-Za-z]+)*$/.test(value) && !/^[A-Z][A-Z0-9_]*$/.test(value) && !DOTTED_NAME.test(value);
  }
  // `\$_POST[…]` in an escaped PHP string is a variable, as `$_POST` is.
  if (!password || /^\\[$%@]/.test(value) || !isQuotedPassword(value)) return false;
  return !isCodeReference(value) && !/^[a-z]+(?:[_-][a-z0-9]+)+$/.test(value);
}
/** What a schema or a type annotation says a password field is, not its value. */
const TYPE_NAMES =
  /^(?:string|number|boolean|bool|int|integer|str|bytes|text|varchar|char|object|any|unknown|hashed|encrypted|hidden|masked|redacted|sensitive|strong|weak|valid|invalid|correct|incorrect|wrong|expired|empty|blank|missing|visible|shown)$/i;

/** Trailing sentence punctuation is not part of a value written in prose. */
function withoutTrailingPunctuation(value: string): string {
  return value.replace(/[.,:;!?)]+$/, "");
}

/**
 * A password as people pick them: letters, a digit and a symbol (so `Argon2id` or `PBKDF2-HMAC-SHA256`
 * is a name, not a password). In prose a last `.` or `!` ends the sentence; after a flag it is the password's.
 */
function isStatedPassword(value: string, inProse = true): boolean {
  const v = inProse ? withoutTrailingPunctuation(value) : value;
  return v.length >= 8 && !isPlaceholder(v) && /[A-Za-z]/.test(v) && /\d/.test(v) && /[!@#$%^&*?~+=]/.test(v);
}

/** The words before a value that give it to the name: `is`, `was`, `are`, `were`, `to`, `:` or `=`. */
const GIVEN_BEFORE = /(?:\s(?:is|was|are|were|to)|[:=])\s*["'`]?$/i;
/**
 * An address (`ops@corp.io`), a handle or a channel (`@deploy-bot`, `#release`), settings (`scope=repo`, `…&state=xyz`), or names
 * joined by operators, an expression in code (`key1+key2`, `prefix&MASK_2`).
 */
const ADDRESS_HANDLE_OR_SETTING = /^[@#]|^[\w.+-]+@[\w-]+(?:\.[\w-]+)+$|^[A-Za-z_][\w.-]*=|&[A-Za-z_][\w.-]{0,40}=|^[A-Za-z_$][\w$]*(?:[-+*/%|&^][A-Za-z_$][\w$]*)+$/;

/**
 * A password after a secret's, a token's or a key's name (`Gr33n&Tea#42`, `p@ss-W0rd!x`): letters, a digit and a symbol
 * (isStatedPassword), at most 64 characters, and not an address, a handle or settings that hold those too.
 */
function isSymbolPassword(v: string): boolean {
  return v.length <= 64 && isStatedPassword(v, false) && !ADDRESS_HANDLE_OR_SETTING.test(v);
}

/** Names of hashes, ciphers and encodings said of a password ("hashed with Argon2id", "SHA256"), and versions. */
const ALGORITHM_NAME = /^(?:argon2(?:id|i|d)?|pbkdf2\w*|sha-?\d+\w*|sha3\w*|md[45]\w*|bcrypt\w*|scrypt\w*|blake[23]\w*|crc\d+\w*|utf-?\d+\w*|ucs-?\d+|base\d+\w*|aes\d*\w*|rsa\d*|ed25519|x25519|hmac\w*|v\d+\w*)$/i;

/**
 * The passwords people pick need no symbol: a word and a year (Summer2024, welcome2025), letters and
 * digits mixed (Xk9mQ2vLp7zz). Stated after "password is" such a run of letters and digits is one; a
 * hyphenated or dotted word (base64-encoded) and an algorithm's name are not.
 */
function isPlainPassword(value: string): boolean {
  return /^[A-Za-z0-9]{8,64}$/.test(value) && /[A-Za-z]/.test(value) && /\d/.test(value) && !ALGORITHM_NAME.test(value) && !isPlaceholder(value);
}

/**
 * Words between a secret's name and a value that say, wherever they stand, the value is something else: a digest, a name, a
 * format, an example. A digest's words only (sha256, hashed), not words that start alike ("we shared", "HashiCorp").
 */
const NOT_THE_SECRET =
  /\b(?:sha(?:-?\d{1,3}\w*)?|hash(?:es|ed|ing|sum|code)?|digest|checksum|fingerprint|uuid|guid|nonce|salt|iv|name|format|length|prefix|example|sample|placeholder|like|e\.g|field|column|header|type|file|path|url|arn)\b/i;
/**
 * Words that say what a value is only as the thing the sentence gives: right after the secret's name ("the api key id …", "the
 * token's version …") or right before the value ("the key rotation commit is …"). Elsewhere they say what the secret is for, and the
 * value is still the secret ("the token for release builds is …", "the api key for version 2 is …").
 */
const WHAT_THE_VALUE_IS =
  /^(?:commit|version|build|revision|release|tag|ids?|request|trace|span|correlation|public|primary|foreign|partition|row|policy|rotation|expir\w*|ttl|count|size)$/i;
/** A secret's word: where its name ends in a sentence. */
const SECRET_WORD = /(?:password|passwd|passphrase|secret|token|credential|key)s?$/i;

/**
 * The words between a secret's name and its value say the value is something else (`head`: the match up to the value, the name
 * first): a digest's, a name's or an example's word anywhere; a word of WHAT_THE_VALUE_IS first after the name or last before the
 * value; or another key named later whose word before says it opens nothing ("the token table's primary key is …").
 */
function saysAnotherThing(head: string): boolean {
  if (NOT_THE_SECRET.test(head)) return true;
  // The possessive's "s" (`token's`) and the connector (`is`, `was`) are not the gap's words.
  const words = (head.match(/[A-Za-z0-9]+/g) ?? []).filter((w) => w.toLowerCase() !== "s");
  if (words.length > 0 && /^(?:is|was)$/i.test(words[words.length - 1]!)) words.pop();
  let at = words.findIndex((w) => SECRET_WORD.test(w));
  while (at + 1 < words.length && SECRET_WORD.test(words[at + 1]!)) at++;
  const gap = words.slice(at + 1);
  if (gap.length === 0) return false;
  if (WHAT_THE_VALUE_IS.test(gap[0]!) || WHAT_THE_VALUE_IS.test(gap[gap.length - 1]!)) return true;
  return gap.some((w, i) => i > 0 && SECRET_WORD.test(w) && NOT_A_KEY_QUALIFIER.test(gap[i - 1]!));
}

/** A word of WHAT_THE_VALUE_IS joined to the secret's name after it by "of", "for" or "from": "as the version of the api key". */
const WHAT_OF_THE_SECRET =
  /\b(?:commit|version|build|revision|release|tag|ids?|request|trace|span|correlation|policy|rotation|expir\w*|ttl|count|size)\s+(?:of|for|from)\b/i;

/** A camelCase name's words apart: `nextPage` → `next Page`. */
function camelWords(name: string): string {
  return name.replace(/(?<=[a-z0-9])(?=[A-Z])/g, " ");
}

/** The word before a bare "key" that says it opens nothing: a cache's, a row's, a document's or an idempotency key (and NOT_A_SECRET_QUALIFIER's). */
const NOT_A_KEY_QUALIFIER =
  /\b(?:page|pagination|continuation|cursor|cancellation|idempotency|dedupe?|cache|sort|lookup|design|csrf|xsrf|sync|state|verification|test|fake|dummy|mock|sample|example|row|partition|primary|foreign|public|object|document|doc|map|registry|composite|unique|index|hash|s3|redis)[ _-]?$/i;

/** The last word of a key's name that says it opens nothing: NOT_A_KEY_QUALIFIER's, and a translation's, a binding's, a table's range key. */
const OPENS_NOTHING_KEY =
  /(?:\b|_)(?:page|pagination|continuation|cursor|cancellation|idempotency|dedupe?|cache|sort|lookup|design|csrf|xsrf|sync|state|verification|test|fake|dummy|mock|sample|example|row|partition|primary|foreign|public|object|document|doc|map|registry|composite|unique|index|hash|range|pk|sk|gsi\d?|lsi\d?|i18n|translation|locale|message|label|shortcut|hot|group|tag|field|column|attribute|query|route|react|list)\s*$/i;
/** Words before a key's or a token's name that say it opens nothing: an idempotency or page token, a cache key, a test's password. */
const NOT_A_SECRET_QUALIFIER =
  /\b(?:page|pagination|continuation|cursor|cancellation|idempotency|dedupe?|cache|sort|lookup|design|csrf|xsrf|sync|state|verification|test|fake|dummy|mock|sample|example)\b/i;

/**
 * A value with no name of its own that only a secret looks like: hex of 32+ characters, a UUID, 20+ characters mixing upper
 * case, lower case and digits with a random piece, or 20+ letters and digits in one case mixed all through (many providers'
 * keys are base36: `k3v9q1x7m2…`); not a stand-in, a name, a dotted path or words joined.
 */
function isBareSecret(v: string): boolean {
  if (isPlaceholder(v) || looksTypedByHand(v) || isDottedName(v) || isNameOfWords(v) || WORDS_JOINED.test(v)) return false;
  if (/^[a-f0-9]{32,}$/i.test(v)) return /\d/.test(v) && /[a-f]/i.test(v);
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v)) return true;
  if (/^(?:[a-z0-9]{16,}|[A-Z0-9]{16,})$/.test(v) && !/^[a-f0-9]+$/i.test(v)) return isMixedThrough(v);
  if (isDrawnMixedCase(v)) return true;
  return /[a-z]/.test(v) && /[A-Z]/.test(v) && (v.match(/\d/g)?.length ?? 0) >= 3 && v.split(/[._~-]/).some(hasRandomPart) && !isMostlyWords(v);
}

/**
 * Capitalised words (`Base`, `Url`, `Encoder`) making up half a value or more (`Base64UrlEncoder256`, `OAuth2TokenProvider`): a
 * name in code with a version in it. Only capitalised ones: a drawn key's lower-case piece (a token's base36 body) holds runs of letters
 * too. A drawn mixed-case key nearly always holds a lone lower-case letter between capitals or digits (`W4fZ…`, `…UaYbY`); a name does not.
 */
function isMostlyWords(v: string): boolean {
  if (/(?:^|[^a-z])[a-z](?![a-z])/.test(v)) return false;
  let inWords = 0;
  for (const w of v.match(/[A-Z][a-z]{2,}/g) ?? []) inWords += w.length;
  return inWords * 2 >= v.length;
}

/**
 * Letters and digits mixed all through a value in one case, as a drawn base36 key's are: 4+ of each and 5+ changes between them,
 * and 3.5 bits a character. A name with a date or a version in it (`deploybot2024`, `client20240115release`) changes twice.
 */
function isMixedThrough(v: string): boolean {
  const digits = v.match(/\d/g)?.length ?? 0;
  const changes = v.match(/\d(?=\D)|\D(?=\d)/g)?.length ?? 0;
  return digits >= 4 && v.length - digits >= 4 && changes >= 5 && shannonEntropy(v) >= 3.5;
}

/**
 * Ids a provider prints in its logs and answers, prefixed with what they name (Stripe's charges, customers and events,
 * OpenAI's and Anthropic's messages, completions and tool calls, request ids, OpenCode's sessions, parts and permissions): a lesson quotes them to say what failed.
 */
const OBJECT_ID = /^(?:ch|pi|pm|py|cus|evt|in|ii|il|sub|si|price|prod|plan|txn|re|seti|src|card|ba|acct|po|tr|req|cs_(?:test|live)|file|msg|toolu|call|chatcmpl|run|thread|asst|step|batch|resp|ftjob|org|proj|user|sess|ses|prt|per)[_-]/;
/** Base58 of an address's length: Bitcoin and Solana addresses, IPFS content ids — public, and printed to be shared. */
const BASE58_ADDRESS = /^(?:[1-9A-HJ-NP-Za-km-z]{26,44}|Qm[1-9A-HJ-NP-Za-km-z]{44})$/;
/** YouTube's public ids: a playlist (PL…, 18–34 characters) or a channel (UC + 22), shared in links to be watched. */
const YOUTUBE_ID = /^(?:PL[A-Za-z0-9_-]{16,32}|UC[A-Za-z0-9_-]{22})$/;

/**
 * Base64 of a sentence ("SGVsbG8gV29ybGQh…" in a test fixture): decoded, printable ASCII with words between spaces. A key
 * decodes to bytes, and a credential ("user:pass") to text without spaces.
 */
function isEncodedSentence(v: string): boolean {
  const bytes = Buffer.from(v, "base64");
  if (bytes.length < 12) return false;
  let printable = 0;
  let spaces = 0;
  for (const b of bytes) {
    if (b >= 32 && b < 127) printable++;
    if (b === 32) spaces++;
  }
  return spaces >= 2 && printable >= bytes.length - 1;
}

/**
 * A legacy Azure DevOps personal access token: 32 random bytes in lower-case base32 (a-z, 2-7), 52 characters and no prefix, so
 * in one case with few digits. Read alone only when letters and digits are mixed all through, as drawn ones are: glued words hold no digit.
 */
const AZURE_DEVOPS_LEGACY_PAT = /^[a-z2-7]{52}$/;

/**
 * What a sentence calls a value: a digest (`SHA-512`, `sha512sum`, `integrity`, `digest`, `checksum`, `hash`) or a key (`AccountKey`,
 * `storage key`, `connection string`, `secret`, `token`, `password`, `credential`). The key's words may end a name run together (`AccountKey=`).
 */
const DIGEST_OR_KEY_WORD =
  /\b(?<digest>sha-?(?:384|512)|sha512sum|integrity|digests?|checksums?|hash(?:es|ed)?)\b|(?<key>keys?|secrets?|tokens?|passwords?|credentials?|connection\s+strings?)\b/gi;

/** The sentence a value ends, before it: from the last sentence end (`.` `!` `?` and a space, not a file's or a version's dot) or line break; a label's line ending in `:` above the value is kept. */
function sentenceBefore(before: string): string {
  const trimmed = before.replace(/\s+$/, "");
  const text = trimmed.endsWith(":") && /\n\s*$/.test(before) ? trimmed : before;
  const end = Math.max(text.lastIndexOf("\n"), ...[...text.matchAll(/[.!?](?=\s)/g)].map((m) => m.index ?? 0));
  return text.slice(end + 1);
}

/** The sentence a value starts, after it: up to the first sentence end or line break. */
function sentenceAfter(after: string): string {
  const end = after.search(/[.!?](?:\s|$)|\n/);
  return end < 0 ? after : after.slice(0, end);
}

/**
 * An 88-character base64 value its sentence names a digest: the digest's or the key's word nearest before it decides (`the
 * tarball's SHA-512 digest is …`, not `… and the account key is …`); a digest of a thing named like a secret (`the SHA-512 of
 * the account key is …`) is a digest; with no word before, the first one after decides (`… , its SHA-512 digest`).
 */
function namedADigest(value: string, before: string, after: string): boolean {
  const clause = sentenceBefore(before);
  const last = [...clause.matchAll(DIGEST_OR_KEY_WORD)].at(-1);
  if (last) return last.groups!.digest !== undefined || isDigestOfNamedThing(value, clause);
  const first = DIGEST_OR_KEY_WORD.exec(sentenceAfter(after));
  DIGEST_OR_KEY_WORD.lastIndex = 0;
  return first?.groups!.digest !== undefined;
}

/** The sentence calls the value after it an id ("the sheet id …"), unless a session's or a secret's. */
const CALLED_AN_ID = /(?<!\b(?:session|secret|access|private|api)[ _-]?)\b(?:id|ids)[:=]?\s{1,3}$/i;

/** A path: pieces between `/` of which one is a word (`src/…/output`). A drawn base64 key's pieces are not words. */
function isPathOfWords(v: string): boolean {
  return v.includes("/") && v.split("/").some((p) => /^(?:[a-z]{2,}|[A-Z][a-z]+)$/.test(p));
}

/** Hex after at most four letters: `AC3f78…` (a Twilio account SID), `308046B0AF4A39CB` (a ProgID's hash). An id or a digest. */
const HEX_PIECE = /^[A-Za-z]{0,4}(?:[0-9a-f]+|[0-9A-F]+)$/;

/**
 * A value with nothing beside it to say what it is (the lone_secret detector): a secret only if nothing else looks like it.
 * Upper and lower case mixed, a piece of 16+ characters with 3+ digits that is neither hex nor words, random by its
 * letter counts (4 bits a character), and not an object's id, a base58 address, a stand-in or a run typed by hand.
 * Hex alone is never read here: a bare 40-character hex is a commit far more often than a key.
 */
function isLoneSecret(v: string): boolean {
  if (AZURE_DEVOPS_LEGACY_PAT.test(v)) return isMixedThrough(v) && !isPlaceholder(v) && !looksTypedByHand(v);
  // `eyJ…` is a JSON object in base64url: a JWT's header or claims alone, which anyone can read (a whole JWT has its own rule).
  if (!/[a-z]/.test(v) || !/[A-Z]/.test(v) || OBJECT_ID.test(v) || BASE58_ADDRESS.test(v) || v.startsWith("eyJ")) return false;
  if (!v.split(/[_-]/).some((p) => hasRandomPart(p) && /[a-z]/.test(p) && /[A-Z]/.test(p) && !HEX_PIECE.test(p))) return false;
  return shannonEntropy(v) >= 4 && !isPlaceholder(v) && !looksTypedByHand(v) && !YOUTUBE_ID.test(v) && !isEncodedSentence(v);
}

/** `name=value`, and more joined by `&`: a query string's or a form's settings. */
const SETTINGS = /^[A-Za-z_][\w.-]{0,40}=[^&=]*(?:&[A-Za-z_][\w.-]{0,40}=[^&=]*)*$/;

/** After "password"/"token"/"key" in a sentence: a password by isStatedPassword or isPlainPassword, or a long random value. */
function isStatedSecret(value: string, all: string): boolean {
  const v = withoutTrailingPunctuation(value);
  if (isPlaceholder(v) || CALL_URL_OR_PATH.test(v) || RESOURCE_NAME.test(v) || isNameOfWords(v)) return false;
  // Settings after the word (`token scope=repo2&read=yes`, an OAuth scope or a token response's fields): a secret only if one of their values is.
  if (SETTINGS.test(v)) return v.split("&").some((p) => isBareSecret(p.slice(p.indexOf("=") + 1)));
  if (/^pass|^pwd/i.test(all)) {
    if (isStatedPassword(v) || isPlainPassword(v)) return true;
    // "The default password is 'blooberry'": quoted after the word, the value is the password.
    if (/["'`]$/.test(all) && isQuotedPassword(v)) return true;
  }
  // Named a secret, a token or a key and given one (is, to, `:`, `=`), a value as people pick a password is one too.
  if (GIVEN_BEFORE.test(all.slice(0, all.lastIndexOf(value))) && isSymbolPassword(v)) return true;
  // Named a key or a token, letters of both cases drawn at random are one with few digits or none.
  if (isDrawnMixedCase(v) && !looksTypedByHand(v)) return true;
  if (v.length < 16 || !/\d/.test(v) || !/[A-Za-z]/.test(v)) return false;
  // Another variable's name (`rename GITHUB_TOKEN to CI_TOKEN_2024_PRIMARY`), or a name of words with a version (`OAuth2TokenProvider2024`).
  if (/^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/.test(v) || (/[a-z]/.test(v) && /[A-Z]/.test(v) && isMostlyWords(v))) return false;
  // A code reference (`config.auth.secretKey`) or words joined (`cl100k_base`) names a thing, unless a
  // part of it is random: `sk_e51a4bf7…`, `live_0979…`, `oNKE6BzK….kqvu…` are keys with a prefix or in parts.
  if ((DOTTED_NAME.test(v) || WORDS_JOINED.test(v)) && !v.split(/[._-]/).some(hasRandomPart)) return false;
  return looksRandomOrHex(v);
}

/**
 * Random enough for a key, or hex of 20 or more, dashed or not (a UUID): after a key's name or in a
 * key's place hex is one though it measures ~3.6 bits a character, under looksRandom's bar.
 */
function looksRandomOrHex(value: string): boolean {
  return /^[a-f0-9-]{20,}$/i.test(value) || looksRandom(value);
}

/** A piece of a value too long and mixed to be a word or a version: 16+ characters with 3+ digits and 3+ letters. */
function hasRandomPart(part: string): boolean {
  return part.length >= 16 && (part.match(/\d/g)?.length ?? 0) >= 3 && (part.match(/[A-Za-z]/g)?.length ?? 0) >= 3;
}

function decodeURIComponentSafe(v: string): string {
  try {
    return decodeURIComponent(v);
  } catch {
    return v;
  }
}

function isDiscordToken(value: string): boolean {
  return /^\d{15,21}$/.test(Buffer.from(value.slice(0, value.indexOf(".")), "base64").toString("latin1")) && looksRandom(value);
}

function looksRandom(value: string): boolean {
  return shannonEntropy(value) >= 3.5 || charClasses(value) >= 3;
}

function charClasses(v: string): number {
  return [/[a-z]/, /[A-Z]/, /\d/, /[^A-Za-z0-9]/].filter((re) => re.test(v)).length;
}
