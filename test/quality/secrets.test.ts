// Secrets: every planted secret is found, masked, and never echoed in any message.
import { test } from "node:test";
import assert from "node:assert/strict";
import { findSecrets } from "../../src/quality/secrets.js";
import { validateLessonText } from "../../src/quality/gates.js";
import { hostileLessons, SECRET_VALUES } from "../fixtures/hostile-lessons.js";

/** Each text is refused, its secret masked out, and the refusal names the provider. */
function assertCaught(cases: ReadonlyArray<readonly [text: string, secret: string, provider: RegExp]>): void {
  for (const [text, secret, provider] of cases) {
    const { issues, masked } = findSecrets(text);
    assert.ok(issues.length > 0, text);
    assert.ok(!masked.includes(secret), masked);
    assert.match(issues[0]!.message, provider, issues[0]!.message);
  }
}

/** True when `haystack` holds any `n`-character piece of `secret`. */
function leaks(haystack: string, secret: string, n = 6): boolean {
  for (let i = 0; i + n <= secret.length; i++) if (haystack.includes(secret.slice(i, i + n))) return true;
  return false;
}

test("the corpus plants at least one lesson per secret value", () => {
  for (const s of SECRET_VALUES) {
    assert.ok(hostileLessons.some((h) => h.text.includes(s)), `no lesson carries a planted secret of length ${s.length}`);
  }
});

test("no issue message and no returned text contains any part of any planted secret", () => {
  for (const h of hostileLessons) {
    for (const opts of [{}, { trusted: true }]) {
      const r = validateLessonText(h.text, opts);
      for (const s of SECRET_VALUES) {
        if (!h.text.includes(s)) continue;
        assert.equal(r.ok, false, `${h.name}: a lesson with a secret must be refused`);
        for (const i of r.issues) assert.ok(!leaks(i.message, s, 8), `${h.name}: message leaks the secret: ${i.code}`);
        // Eight, not six: the mask and the message name the rule, and "github" is both rule name and prefix.
        assert.ok(!leaks(r.text, s, 8), `${h.name}: returned text leaks the secret`);
      }
    }
  }
});

test("masking replaces the secret with its kind and keeps the rest of the lesson", () => {
  const s = SECRET_VALUES[0]!;
  const { issues, masked } = findSecrets(`Deploy with key ${s} from the ops account`);
  assert.equal(masked, "Deploy with key [REDACTED:aws-access-token] from the ops account");
  assert.deepEqual(issues.map((i) => [i.layer, i.severity, i.code]), [["secret", "reject", "secret_aws_access_token"]]);
});

test("only the password of a URL is masked; user and host stay readable", () => {
  const { masked } = findSecrets("Use postgres://app:Xq7aB9cD2eF4gH6j@db.internal:5432/app");
  assert.equal(masked, "Use postgres://app:[REDACTED:url_password]@db.internal:5432/app");
});

test("assignments keep the name and lose the value", () => {
  const { masked, issues } = findSecrets('Set SESSION_SECRET="f9K2mQ7xL4pR8tV1wZ6yB3nC" in prod');
  assert.equal(masked, 'Set SESSION_SECRET="[REDACTED:generic-api-key]" in prod');
  assert.equal(issues[0]!.code, "secret_generic_api_key");
});

test("repeated secrets of one kind give one issue that counts them", () => {
  const a = "gh" + "p_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8";
  const b = "gh" + "p_" + "Z9y8X7w6V5u4T3s2R1q0P9o8N7m6L5k4J3i2";
  const { issues, masked } = findSecrets(`${a} and ${b}`);
  assert.equal(issues.length, 1);
  assert.match(issues[0]!.message, /2 occurrences/);
  assert.equal(masked, "[REDACTED:github-pat] and [REDACTED:github-pat]");
});

test("a PEM header without key material is a mention, not a secret", () => {
  assert.deepEqual(findSecrets("id_rsa must start with -----BEGIN OPENSSH PRIVATE KEY----- and be mode 600").issues, []);
});

test("a truncated PEM block without END is still masked through its body", () => {
  const body = "MIIEpAIBAAKCAQEA7d9Qx2LmZp4Vt8Kc1Rw3Ny5Hs6Jb0Fa9Ge2Di4Uo7Pq1Zx3Cv";
  const { issues, masked } = findSecrets(`key: -----BEGIN RSA PRIVATE KEY-----\n${body}`);
  assert.equal(issues[0]!.code, "secret_private_key");
  assert.ok(!masked.includes(body.slice(10, 30)));
});

test("placeholders and references are not secrets", () => {
  for (const text of [
    "Read the token from process.env.GITHUB_TOKEN at startup",
    "Set API_KEY=${API_KEY} in .env.example",
    "Use token: <your-token> in the sample config",
    "api_key = \"xxxxxxxxxxxxxxxxxxxxxxxx\"",
    "password: changeme is rejected by the validator",
    "postgres://user:password@localhost:5432/dev for local docker",
    "Authorization: Bearer ${apiKey} header on every call",
    "echo //registry.npmjs.org/:_authToken=$NPM_TOKEN > .npmrc in CI",
    "token: ${{ secrets.NPM_TOKEN }} in the publish workflow",
    "budget_tokens: 10000 for extended thinking",
    "tokenizer=cl100k_base for gpt-4 models",
    "auth_strategy: jwt_with_refresh_rotation in config.yaml",
    "AWS docs use AKIAIOSFODNN7EXAMPLE as the sample access key id",
    "AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY is the docs sample",
    "github tokens look like ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
    "scikit uses sk-learn-style-naming-conventions-for-everything",
    "authorization_url: https://auth.example.com/oauth/authorize",
  ]) assert.deepEqual(findSecrets(text).issues, [], text);
});

test("the refusal names the provider with the article its sound takes", () => {
  const aws = findSecrets(`Deploy with key ${SECRET_VALUES[0]!} from the ops account`).issues[0]!.message;
  assert.match(aws, /contains an AWS token or key/);
  const github = findSecrets("Use " + "gh" + "p_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8" + " in CI").issues[0]!.message;
  assert.match(github, /contains a GitHub token or key/);
  // Rule ids whose first word is not the provider's name as written: new-relic-…, truenas-…, thingsboard-…, codeclimate-….
  for (const [text, name] of [
    ["The agent used " + "NRAK-" + "CIH1YVYWKA9ZP6E49WP5XYJH1G9 for the query API.", "a New Relic"],
    ['The NAS client sent "params": ["' + "8-Lp22ov7halMBLU" + 'pG97Wg4y7fibQi3CW19VJiZcCu746zgCs0mdDdTCoOcpgEucgu"] to log in.', "a TrueNAS"],
    ["Sensors post to /api/v1/" + "354u1g321kcqc1oad3w7" + "/telemetry on the hour.", "a ThingsBoard"],
    ["CI had CC_TEST_REPORTER_ID: " + "945dfb58a832d233a3caeb84e3e6d3be" + "212e8c7abcb48117fce63b9adcb43647 in the workflow.", "a Code Climate"],
  ] as const) {
    const message = findSecrets(text).issues[0]?.message ?? "";
    assert.ok(message.includes(`contains ${name} token or key`), message);
  }
});

test("a key or token sent as a request header (-H / --header) is a secret, with or without the curl before it", () => {
  for (const text of [
    'Call the status API with -H "Token: 3fea6af1349166ea" until the new auth lands.',
    "curl --header 'X-Auth-Token: 9f8e7d6c5b4a3921f0e1' https://api.internal/health",
    'The deploy hook needs -H "PRIVATE-TOKEN: glx8Kd93hfkE02kdLq" on every call.',
    'wget --header="X-Api-Key: 7Hc9Kq2LmX4pQr8s" https://files.internal/build.tgz',
  ]) assert.ok(findSecrets(text).issues.length > 0, text);
  for (const text of [
    'Send -H "X-API-Key: YOUR_API_KEY" with every request to the items API',
    'Send -H "X-Api-Key: $API_KEY" with every request to the items API',
    'Send -H "Token: <your-token>" with every request to the items API',
    'Pass -H "X-Request-Id: 42" so the logs can be joined',
  ]) assert.deepEqual(findSecrets(text).issues, [], text);
});

test("an Authorization: Bearer header's token is a secret however short (RFC 6750's own example is 15 characters); a stand-in, a variable or a name is not", () => {
  assertCaught([
    ["GET /resource HTTP/1.1\nHost: server.example.com\nAuthorization: Bearer mF_9.B5f-4.1JqM", "mF_9.B5f-4.1JqM", /bearer/],
    ["curl -H 'Authorization: Bearer 7Hq2Lm9Xv4Kp' https://api.internal/v1/jobs", "7Hq2Lm9Xv4Kp", /bearer|Curl/],
    ["fetch(url, { headers: { \"Authorization\": \"Bearer Zk3q9Xw2Lp7v\" } }) in the smoke test", "Zk3q9Xw2Lp7v", /bearer/],
    ["The proxy forwards authorization: bearer q8Z-2vLm_9Kx4 to the backend", "q8Z-2vLm_9Kx4", /bearer/],
  ]);
  for (const text of [
    "Authorization: Bearer <token> on every call",
    "Authorization: Bearer $TOKEN on every call",
    "Authorization: Bearer YOUR_TOKEN on every call",
    "Authorization: Bearer ACCESS_TOKEN on every call",
    "Authorization: Bearer token123 on every call",
    "Authorization: Bearer myAccessToken2 on every call",
    "Authorization: Bearer test-token-123 in the fixtures",
    "Authorization: Bearer valid-token in the fixtures",
    "Authorization: Bearer abcdef123456 in the docs",
    "Authorization: Bearer ctx.token2 from the request context",
    "Send the Authorization: Bearer header with the user's JWT",
  ]) assert.deepEqual(findSecrets(text).issues.map((i) => i.code), [], text);
});

test("passwords given on a command line, said in prose, or in a URL without a user name are secrets", () => {
  for (const text of [
    "Run sshpass -p 'Vq8#mZ2!kL' ssh deploy@10.0.0.5 to reach the bastion when the key agent is down.",
    "Dump the db with mysql -u root -pN7x!kQ2zR9 shop > dump.sql before the migration.",
    "mysqldump --user=backup -p'Qm7$kP2x' orders > orders.sql runs nightly on the replica.",
    "redis-cli -a Hq72kLx9Pz!w FLUSHALL clears the staging cache between test runs.",
    "Log in with docker login --password Zx81!kqP3m registry.internal before pushing the image.",
    "Login to the admin panel at https://admin.internal with user ops and password Pa55w0rd!2024 after the reset.",
    "The vault root password is Gr33n&Tea#42 until the rotation job runs.",
    "The redis url redis://:p4ssw0rdXyZ9@cache.internal:6379/0 must be set for the session store.",
    "Twilio calls need the auth token 9f8e7d6c5b4a39281706f5e4d3c2b1a0 from the console.",
  ]) {
    const r = validateLessonText(text);
    assert.equal(r.ok, false, text);
    assert.ok(r.issues.some((i) => i.layer === "secret"), text);
  }
  const { masked } = findSecrets("Run sshpass -p 'Vq8#mZ2!kL' ssh deploy@10.0.0.5 now.");
  assert.ok(!masked.includes("Vq8#mZ2!kL") && masked.includes("sshpass -p"), masked);
  assert.equal(findSecrets("Use redis://:p4ssw0rdXyZ9@cache:6379").masked, "Use redis://:[REDACTED:url_password]@cache:6379");
});

test("Stripe webhook signing secrets and Discord bot tokens are secrets", () => {
  const whsec = "wh" + "sec_" + "5f8Kq2Lm7Qw4Rt6Yu8Io0PaSdFgHjK9z";
  const discord = "MTA1MjM0NTY3ODkwMTIzNDU2Nw" + ".GxYz12." + "Qk8mZ2xLp4Rt6Vw8Yb0Nc3Df5Gh7Jk9Lm1";
  for (const [text, secret] of [[`Verify the events with ${whsec} from the dashboard.`, whsec], [`The notifier logs in with ${discord} at boot.`, discord]] as const) {
    const { issues, masked } = findSecrets(text);
    assert.ok(issues.length > 0, text);
    assert.ok(!masked.includes(secret.slice(8, 20)), masked);
  }
});

test("talk about passwords and tokens without a value is not a secret", () => {
  for (const text of [
    "Use docker login --password-stdin so the password never shows in the process list.",
    "mysql -p prompts for the password; never pass it on the command line.",
    "Pass --password to the CLI only through the environment, e.g. --password $DB_PASS.",
    "Run sshpass -p \"$SSHPASS\" only in CI where the variable is masked.",
    "Hash the password with Argon2id, never with MD5 or SHA1.",
    "The password is hashed with PBKDF2-HMAC-SHA256 and 600000 iterations.",
    "The password reset link expires after 30 minutes; the token is single-use.",
    "Connect to redis://localhost:6379/0 for the local session store.",
    "Raise the token limit to 4096 for the summarizer prompts.",
    "The secret to fast builds is caching node_modules between CI jobs.",
    "The API key is read from the vault at boot, never from a file in the repo.",
    "Rotate the webhook secret whsec_... from the Stripe dashboard when a key leaks.",
  ]) assert.deepEqual(findSecrets(text).issues, [], text);
});

test("webhook URLs whose path is the credential, signed links and keys in a query string are secrets", () => {
  for (const [text, secret] of [
    ["Post build results to https://discord.com/api/webhooks/1052345678901234567/Xk9vQ2mL7pZ4rT6vW8bN0cD2fG4hJ6kL8mN0pQ2rS4tU6vW8xY0zA2bC4dE6fG8h now.", "Xk9vQ2mL7pZ4rT6vW8bN0cD2"],
    ["Trigger the zap with https://hooks.zapier.com/hooks/catch/1234567/3a9kx2b/ from the deploy script.", "3a9kx2b"],
    ["Use https://outlook.office.com/webhook/3f6b1c2a-9d8e-4f7a-b6c5-1e2d3f4a5b6c@72f988bf-86f1-41af-91ab-2d7cd011db47/IncomingWebhook/8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d/5e4d3c2b-1a09-4f8e-b7d6-c5b4a3928170 for alerts.", "8a7b6c5d4e3f2a1b0c9d"],
    ["The export link ends in &sp=r&se=2026-01-01&sig=Zm9vYmFyYmF6cXV4eHl6enkxMjM0NTY3ODkwYWJjZA%3D%3D and lasts a day.", "Zm9vYmFyYmF6cXV4eHl6"],
  ] as const) {
    const { issues, masked } = findSecrets(text);
    assert.ok(issues.length > 0, text);
    assert.ok(!masked.includes(secret), masked);
  }
  for (const text of [
    "Paginate with ?page_token=abc and &limit=100 on the list endpoint.",
    "Pass ?access_token=${TOKEN} from the environment, never a literal.",
    "Register the webhook at https://discord.com/developers/docs/resources/webhook before posting.",
  ]) assert.deepEqual(findSecrets(text).issues, [], text);
});

test("a key written out after its name is a secret even with a vendor prefix, in parts, or as hex or a UUID", () => {
  for (const text of [
    "The iexcloud API key sk_e51a4bf78d4c4c6ab906bac4c783cb91 unlocks the sandbox.",
    "The lob API key live_0979969b3f6cc23ed67e9b650bfaf64f710 is for production only.",
    "The lemlist API key 24203d9f149dd02d1d944ee799cfb57e is shared by the sales tools.",
    "The shortcut API token 2e15518b-b3b1-4269-9746-4dd87951caa2 belongs to the bot user.",
    // After a bare "key", a long value mixing upper case, lower case and digits.
    "Use key 9382dffx1kVZQ2tqMnMcLRkBOzZU3G8xI7CGr5c3 for the claude client in scripts/summarize.ts.",
    "Key: Qm9vBm8ZrX2pL7dW4tY1nC6vH3sK0aE5 opens the staging bucket.",
  ]) {
    const found = findSecrets(text);
    assert.ok(found.issues.length > 0, text);
    assert.doesNotMatch(found.masked, /9382dffx1k|Qm9vBm8ZrX/, "masked");
  }
  for (const text of [
    "The tokenizer cl100k_base_encoding_v2 counts tokens for gpt-4 models.",
    "The secret config.auth.signingSecretKey is read at boot from the vault.",
    "The API key rotation_policy_v2_strict applies to every service account.",
    // A cache key is a digest or a name, not a credential.
    "Bust the cache key 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b after a schema change.",
    "The key userProfileCacheV2ByTenantId is read before every request.",
    "The cache key is tenant42:user17:settings and expires after 300 seconds.",
  ]) assert.deepEqual(findSecrets(text).issues, [], text);
});

test("more token formats with a fixed shape: Doppler, Dependency-Track, Tavily, Twitch stream keys, Telegram bots, New Relic licence keys, Salesforce sessions, Kubernetes bootstrap tokens, Okta SSWS", () => {
  for (const text of [
    "CI reads secrets with " + "dp.st." + "prd.Xk9vQ2mL7pZ4rT6vW8bN0cD2fG4hJ6kL8mN0pQ2rS4t for the deploy.",
    "The SBOM upload uses " + "odt_" + "Xk9vQ2mL7pZ4rT6vW8bN0cD2fG4hJ6kL8 on the Dependency-Track server.",
    "Search calls use " + "tvly-" + "Xk9vQ2mL7pZ4rT6vW8bN0cD2fG4hJ6kL in the research agent.",
    "OBS streams with " + "live_" + "126031192_Xk9vQ2mL7pZ4rT6vW8bN0cD2fG4hJ6 as the key.",
    "Alerts go through the bot 4839574813:" + "AA" + "Fk9vQ2mL7pZ4rT6vW8bN0cD2fG4hJ6kL8 in the ops chat.",
    "The agent config sets license_key to " + "eu01xx" + "aa7460e1ea3abdfbbbd36e85c10cd0" + "NRAL for production.",
    "Salesforce calls use the session " + "00DE0X0A0M0PeLE!" + "AQ4AQFk9vQ2mL7pZ4rT6vW8bN0cD2fG4hJ6kL8mN0pQ2rS4tU6vW8xY0zA2bC4dE6fG8hJ0kL2mN4pQ6rS8tU0vW2xY4z from the CLI.",
    "Join nodes with kubeadm join --token " + "be8dfd.da8a689a46edc282" + " until the CSR flow lands.",
    "The Okta admin API wants Authorization: SSWS " + "00QCjAl4MlV-WPXM-" + "Xk9vQ2mL7pZ4-0HmjFx-vbGua" + " on every call.",
  ]) {
    const { issues } = findSecrets(text);
    assert.ok(issues.length > 0, text);
  }
});

test("passwords in config and on Windows command lines: quoted after a password key, .netrc, PsExec and PowerShell -Password, NetworkCredential, password hashes", () => {
  for (const text of [
    'In settings.py the mail block had password = "super$ecret" until the vault migration.',
    "REACT_APP_AUTH_PASSWORD='whiteduke' leaked into the bundle because of the REACT_APP_ prefix.",
    "The seed script set password = 'abuser123456' for every test account.",
    "Our .netrc had machine api.github.com login ci-bot password 012345abcdef on the runner.",
    "Run PsExec.exe \\\\10.0.94.120 -u Administrator -p dev_admin cmd to reach the build box.",
    "Connect-VIServer -Server 192.168.1.51 -User administrator@vsphere.local -Password VMware1! opens the session.",
    'The mailer used new NetworkCredential("ci@example.com", "vzihlaquknriqlht") for SMTP.',
    "The admin row stores $2a$12$R9h/cIPz0gi.URNNX3kh2OPST9/PgBkqquzi.Ss7KIUgO2t0jWMUW as its hash.",
    "Crack-test the export: $6$52450745$k5ka2p8bFuSmoVT1tzOyyuaREkkKBcCNqoDKzYiJL9RaE8yMnPgh2XzzF0NDrUhgrcLwg78xs1w5pJiypEdFX/ was in it.",
  ]) {
    const { issues } = findSecrets(text);
    assert.ok(issues.length > 0, text);
  }
  for (const text of [
    "Type the field as password: boolean in the settings schema, never as a string.",
    "Read it with password = getpass.getpass() in the CLI.",
    "Connection strings like User ID=myUsername;Password=myPassword; are the docs' stand-ins.",
    "PsExec.exe \\\\host -u %USER% -p %PASS% cmd runs with the variables from the vault.",
    "Connect-VIServer $host -User $user -Password $password | Out-Null",
    "bcrypt hashes start with $2b$ and a two-digit cost such as 12.",
    "Use -Password (Read-Host -AsSecureString) so the value never shows.",
  ]) assert.deepEqual(findSecrets(text).issues, [], text);
});

test("passwords compared, configured or stated in quotes, base64-wrapped private keys, Vault unseal keys and a few more token shapes are secrets", () => {
  for (const text of [
    'The login stub had if username == "jojoba" and password == "team10": which shipped to staging.',
    "The Go handler checked if creds.Secret != \"open-sesame\" before the vault existed.",
    '<add key="FromEmailPassword" value="Prestigitariu$"/> sat in web.config until the move to Key Vault.',
    'new DirectoryEntry("LDAP://corp.example", "svc-ldap", "Rrhh1234") bound as the service account.',
    "The default password is 'blooberry' on every new access point.",
    "Echo the hint: the password is 'Secret123' for the kinit demo.",
    "token-secret: f395accd245ae53d joins the node to the cluster.",
    'The chart stored "privateKey": "LS0tLS1CRUdJTiBSU0EgUFJJVkFURSBLRVktLS0tLQpNSUlFb2dJQkFBS0NBUUVBbUhKOEJHdTFYZUZ4aENVQXBrNHNSTVI4RnRTdGtyMEx0OWtWTGNSUjRFWitiOWhHCmR" in values.yaml.',
    "oc -n vault exec -ti vault-0 -- vault operator unseal 98m+o2ylRhVbOi+3o5ub6PbP343ocFUVORgSYeypMDjh after each restart.",
    '#define IO_KEY "' + "aio_" + 'NrZCb67VvzSaM7fr3nMXrfZ1uMPH" in the sketch.',
    "Publish with Authorization: " + "cio" + "tgp8BGZBlX192iExSQPm0SrUlBunG8zd from the release job.",
    'azure_devops_pat = "' + "iyfmob6xjrfmit67anxbot64umfx2clwx7dz5ynxi4q2z3uqegvq" + '" in the pipeline script.',
  ]) assert.ok(findSecrets(text).issues.length > 0, text);
  for (const text of [
    "The password is 'strong' once the meter turns green; 'weak' blocks the form.",
    'if password == "" { return ErrEmptyPassword } guards the handler.',
    'The operator checks secretName === "db-credentials" before mounting the volume.',
    '<add key="PasswordPolicy" value="strict"/> turns on the length rules.',
    "Set file_path = 'build/output' and pattern = 'src/**/*.ts' in the config.",
    "The base64 of a PEM header starts with LS0tLS1CRUdJTi; decode it to check which key type it is.",
    "vault operator unseal prompts for a key share when none is given.",
  ]) assert.deepEqual(findSecrets(text).issues, [], text);
});

test("a password stated in a sentence is a secret without a symbol too (Summer2024, Xk9mQ2vLp7zz); algorithm names, encodings and prose after \"password is\" are not", () => {
  for (const [text, secret] of [
    ["The staging admin password is Summer2024 until the IT rotation in March.", "Summer2024"],
    ["password is Xk9mQ2vLp7zz for the root user of the prod db", "Xk9mQ2vLp7zz"],
    ["The shared wifi password: Orchard7Lane9 (ask IT before giving it out).", "Orchard7Lane9"],
    ["Log into the kiosk with the password welcome2025 after a reboot.", "welcome2025"],
  ] as const) {
    const { issues, masked } = findSecrets(text);
    assert.ok(issues.length > 0, text);
    assert.ok(!masked.includes(secret), masked);
  }
  for (const text of [
    "The password is hashed with Argon2id before it is stored.",
    "The password is Argon2id-hashed, never MD5.",
    "Store the password as bcrypt with cost 12, never plain SHA256.",
    "The password is base64-encoded in the Kubernetes secret manifest, not encrypted.",
    "Check that the password is utf8mb4-safe before saving it in MySQL 5.7.",
    "A password of at least 12 characters is required by the SSO policy since v2024.1.",
    "The password is stored in Vault under kv/payments and read at boot.",
  ]) assert.deepEqual(findSecrets(text).issues, [], text);
});

test("a password set to a value in a sentence is a secret (\"set the redis password to Xk9mQ2vLp7zz\"); \"pass the password to stdin\" is prose", () => {
  for (const [text, secret] of [
    ["Set the redis password to Xk9mQ2vLp7zz in config.yml for the cache service", "Xk9mQ2vLp7zz"],
    ["Change the admin password to Summer2024 after the staging deploy of the api", "Summer2024"],
    ["Reset the deploy token to 9f8e7d6c5b4a39281726354a5b6c7d8e before the release", "9f8e7d6c5b4a39281726354a5b6c7d8e"],
  ] as const) {
    const { issues, masked } = findSecrets(text);
    assert.ok(issues.length > 0, text);
    assert.ok(!masked.includes(secret), masked);
  }
  for (const text of [
    "Pass the password to psql through PGPASSWORD, never on the command line.",
    "Send the token to the auth service over TLS only.",
    "Rotate the API key to v2 format before 2026-01-01 for the billing client.",
    "Write the password to ~/.pgpass with mode 0600.",
  ]) assert.deepEqual(findSecrets(text).issues, [], text);
});

test("token formats with a fixed shape that gitleaks misses or cuts off: Sourcegraph and Square before markup, New Relic user keys, Vault batch tokens, TrueNAS API keys, ThingsBoard device tokens, Code Climate reporter ids, Okta API tokens and Postmark server tokens by name", () => {
  for (const [text, secret] of [
    ["The sourcegraph access token " + "sgp_fd1b4edb60bf82b8_" + "a70aabf5f685734b19792789feeb73c6393cd02e<br/> was in the wiki page.", "a70aabf5f685734b19792789feeb73c6393cd02e"],
    ["Square's personal access token " + "sq0atp-" + "qUlZzae8wVMc5P5NZdf5DA<br/> sat in the help article.", "qUlZzae8wVMc5P5NZdf5DA"],
    ['The dashboard form had placeholder="e.g: ' + "NRAK-" + 'CIH1YVYWKA9ZP6E49WP5XYJH1G9"> filled with a real key.', "CIH1YVYWKA9ZP6E49WP5XYJH1G9"],
    ["The job ran with -vaultToken " + "s.CAESIP2jTxc9" + "S3K7Z6CtcFWQv7-044m_oSsxnPE0H3nF89l3GiYKHGh3cy5sQmlIZVNyTWJNcDRsYWJpQjlhYjVlb2cQh6PL8wEYAg in the script.", "S3K7Z6CtcFWQv7-044m_oSsxnPE0H3nF89l3GiYKHGh3cy5sQ"],
    ['The NAS client sent "method": "auth.login_with_api_key", "params": ["' + "8-Lp22ov7halMBLU" + 'pG97Wg4y7fibQi3CW19VJiZcCu746zgCs0mdDdTCoOcpgEucgu"] on login.', "pG97Wg4y7fibQi3CW19VJiZcCu746zgCs0mdDdTCoOcpgEucgu"],
    ["The sensor posts to https://thingsboard.cloud/api/v1/" + "354u1g321kcqc1oad3w7" + "/telemetry every minute.", "354u1g321kcqc1oad3w7"],
    ["The workflow env had CC_TEST_REPORTER_ID: " + "945dfb58a832d233a3caeb84e3e6d3be" + "212e8c7abcb48117fce63b9adcb43647 in plain text.", "212e8c7abcb48117fce63b9adcb43647"],
    ['Terraform had variable "corp_okta_api_token" {\n  default = "' + "004EWTpRQT_HJtG_" + 'nL-agxacgzYHjxPcF99kJsFzWg"\n} committed.', "nL-agxacgzYHjxPcF99kJsFzWg"],
    ['The mailer config read postmark: "' + "f59dffd2-83ea-" + '47c7-ba8f-95e053a6d0ae", for the server token.', "47c7-ba8f-95e053a6d0ae"],
  ] as const) {
    const { issues, masked } = findSecrets(text);
    assert.ok(issues.length > 0, text);
    assert.ok(!masked.includes(secret), masked);
  }
  for (const text of [
    "Sourcegraph tokens start with sgp_ and Square's with sq0atp-; store both in the vault.",
    "okta_api_token = 00aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa is the template's stand-in.",
    "Post device data to /api/v1/$ACCESS_TOKEN/telemetry with the token from the device page.",
    "New Relic user keys look like NRAK- followed by 27 characters.",
    "The TrueNAS method is auth.login_with_api_key with the key as its only parameter.",
    "Code Climate needs CC_TEST_REPORTER_ID: ${{ secrets.CC_TEST_REPORTER_ID }} in the workflow.",
    "The postmark: template id is 38562 for the welcome mail.",
  ]) assert.deepEqual(findSecrets(text).issues, [], text);
});

test("a password or secret given to a field in config and code is a secret, quoted with any characters, behind escaped quotes, or unquoted after `=`", () => {
  for (const [text, secret] of [
    ["The deploy script had hostname = '10.11.12.13'\nusername = 'ops@example.com'\npassword = '`123QWERasdf' until review.", "123QWERasdf"],
    ["Old settings.py kept PASS = '`123QWERasdf' next to the host name.", "123QWERasdf"],
    ["The ini file had [SupportSite]\nUsername=thisismyunsername\nPassword=thisismypassword in it.", "thisismypassword"],
    ["The Perl config had password        => 'thisismypassword', in the beta block.", "thisismypassword"],
    ['The PHP include had $user = \\"mg1021\\";  $password = \\"goodspec\\"; in an escaped string.', "goodspec"],
    ["The PHP include had $password = goodspec; before the connect call.", "goodspec"],
    ["The .env file shipped REACT_APP_AUTH_PASSWORD=whiteduke    # some comment to the bundle.", "whiteduke"],
    ["# REACT_APP_PASS=whiteduke was left commented in .env.local.", "whiteduke"],
    ["oauthproviders:\n  jwtsecret: '7`D\"}/vYR)T;W\\5]EBrf;_&k>qX??]G&3CF=;@vyrVBp[$_hK4^?{qT/EglJe[FYjp:IPgl_t$%r' was in the chart.", "vYR)T;W\\5]EBrf"],
    ["JWT:\n  secret: \"development#product\"\n  exp: \"50m\" signed every session.", "development#product"],
    ["settings.py shipped SECRET_KEY = 'django-insecure-_du9e^cmago!%(^+=gr@cu@v9-v7ulhbk2s3!w&39w4+n3*k*$' to production.", "cmago!%(^+=gr@cu@v9"],
  ] as const) {
    const { issues, masked } = findSecrets(text);
    assert.ok(issues.length > 0, text);
    assert.ok(!masked.includes(secret), masked);
  }
  for (const text of [
    "Set password = 'password' only in the local docker compose file.",
    "REACT_APP_MAILER_PASSWORD=smtp_password # Enter your SMTP email password",
    "AUTO_SESSION_PASSWORD=mypassword is the template's stand-in.",
    "Read it with password=$DB_PASSWORD from the environment.",
    "Use %nothing% as in -p %nothing% for an empty password.",
    "The form wires password = 'newPassword' to the confirm field's name.",
    "Bind password: '#login-password' in the page object.",
    "Route password = 'account/password/edit' to the settings controller.",
    "The chart sets secret: \"tls-cert-store\" to name the Kubernetes secret to mount.",
    "Leave secret: 'production' as the vault path prefix.",
    'The i18n file maps "secret": "Geheimnis" and "clientSecret": "Client-Geheimnis" for the German labels.',
    "Set secret: 'Production' to pick the vault mount.",
    "Configure password = true to enable the password grant.",
    "The client reads password = os.environ['DB_PASSWORD'] at startup.",
    "The user name is set with REACT_APP_AUTH_USERNAME=bowie in .env.",
    "Compare with password = ******** as shown in the masked log line.",
    "The Logic App passes \"clientSecret\": \"@parameters('graphClientSecret')\" to the HTTP action.",
    'The bundle holds userLabel:"User:",passwordLabel:"Password:",rememberLabel:"Stay signed in" as UI strings.',
    'The template echoes \\$pass = \\$_POST[\\"password\\"]; inside a heredoc.',
    '{"/docs/creating-a-strong-password":"/docs/v2/auth"} is the redirect map.',
    "Step 3: enter the invalid password 'wrongpassword' and expect an error.",
    'The bad example hard-codes SECRET = "abc123" in the module.',
  ]) assert.deepEqual(findSecrets(text).issues, [], text);
});

test("the admin password Jenkins' setup wizard prints is a secret; the wizard's words without it are not", () => {
  const text =
    "The container log showed: Jenkins initial setup is required. An admin user has been created and a password generated.\nPlease use the following password to proceed to installation:\n\n" +
    "bd9627decc6346d7" + "80b3b6ab6ea8fe1f\n\nThis may also be found at: /var/jenkins_home/secrets/initialAdminPassword";
  const { issues, masked } = findSecrets(text);
  assert.ok(issues.length > 0, text);
  assert.ok(!masked.includes("80b3b6ab6ea8fe1f"), masked);
  assert.deepEqual(findSecrets("Jenkins asks for the password to proceed to installation: read it from secrets/initialAdminPassword.").issues, []);
});

test("a quoted secret with a space in it is still a secret when it holds a digit and a symbol; a label with spaces is not", () => {
  for (const [text, secret] of [
    ["In config.yml jwtsecret: 'p@ss w0rd!' is loaded by the auth service at boot.", "p@ss w0rd!"],
    ['The old compose file had password = "c0rrect h0rse #battery" for the admin user.', "h0rse #battery"],
  ] as const) {
    const { issues, masked } = findSecrets(text);
    assert.ok(issues.length > 0, text);
    assert.ok(!masked.includes(secret), masked);
  }
  for (const text of [
    'The i18n file maps "password": "At least 8 characters" to the hint under the field.',
    'The German bundle maps "password": "Passwort vergessen?" to the reset link.',
    "RFC 7617's example sends user 'Aladdin' with password: 'open sesame' in Basic auth.",
    'The form schema has "password": "Enter your password (8+ chars)" as its placeholder.',
  ]) assert.deepEqual(findSecrets(text).issues, [], text);
});

test("token formats whose prefix names the provider are secrets written bare: Vault hvs./hvb./hvr. at any length, Groq, New Relic admin, insights and REST keys, Pixie, Square OAuth secrets, StackHawk, Jina, Firecrawl, Bitbucket app passwords, Dropbox, Django's generated key, AppSync, MWS, Segment, Google OAuth client secrets, Mailchimp, Mapbox secret tokens", () => {
  // Made-up values in each format, built in pieces so no line of this file reads as one.
  assertCaught([
    ["Calls to the service use " + "hvs." + "Qm7Tz2Kp9Lx4Vb8Nw3Rj6Yc1 from the ops account.", "Qm7Tz2Kp9Lx4Vb8Nw3Rj6Yc1", /Vault/],
    ["The recovery flow printed " + "hvr." + "Wd5Hs8Fq2Mz7Kc4Xp9Lt3Gb6Nv1 once.", "Wd5Hs8Fq2Mz7Kc4Xp9Lt3Gb6Nv1", /Vault/],
    ["The agent calls the model with " + "gsk_" + "Tq8Lm3Vx9Kp2Zr7Wn4Bj6Hc1Fd5Gs0Ya8Ue3Ri7Oo2Pk9Lq4Mw6N from the ops account.", "Tq8Lm3Vx9Kp2Zr7Wn4Bj6Hc1Fd5Gs0Ya8Ue3Ri7Oo2Pk9Lq4Mw6N", /Groq/],
    ["Dashboards were scripted with " + "NRAA-" + "4b7e9c2d1f8a3e6b5c0d9f2a7e1 last year.", "4b7e9c2d1f8a3e6b5c0d9f2a7e1", /New Relic/],
    ["Events were posted with " + "NRII-" + "Tq8Lm3Vx9Kp2Zr7Wn4Bj6Hc1Fd5Gs0Ya in the collector.", "Tq8Lm3Vx9Kp2Zr7Wn4Bj6Hc1Fd5Gs0Ya", /New Relic/],
    ["The REST calls used " + "NRRA-" + "9c2d1f8a3e6b5c0d9f2a7e14b7e9c2d1f8a3e6b5c0 until the migration.", "9c2d1f8a3e6b5c0d9f2a7e14b7e9c2d1f8a3e6b5c0", /New Relic/],
    ["Helm was given " + "px-api-" + "3f9a2c7e-1b4d-4e8f-9a6c-2d7e5b1f8c3a for the cluster.", "3f9a2c7e-1b4d-4e8f-9a6c-2d7e5b1f8c3a", /New Relic/],
    ["The payments app had " + "sq0csp-" + "Tq8Lm3Vx9Kp2Zr7Wn4Bj6Hc1Fd5Gs0Ya8Ue3Ri7Oo2P in its env.", "Tq8Lm3Vx9Kp2Zr7Wn4Bj6Hc1Fd5Gs0Ya8Ue3Ri7Oo2P", /Square/],
    ["The scanner runs with " + "hawk." + "Tq8Lm3Vx9Kp2Zr7Wn4Bj." + "6Hc1Fd5Gs0Ya8Ue3Ri7O in CI.", "6Hc1Fd5Gs0Ya8Ue3Ri7O", /StackHawk/],
    ["Embeddings are fetched with " + "jina_" + "3f9a2c7e1b4d4e8f9a6c2d7e5b1f8c3a" + "Tq8Lm3Vx9Kp2Zr7Wn4Bj6Hc1Fd5G in the indexer.", "Tq8Lm3Vx9Kp2Zr7Wn4Bj6Hc1Fd5G", /Jina/],
    ["The crawler uses " + "fc-" + "3f9a2c7e1b4d4e8f9a6c2d7e5b1f8c3a for scraping.", "3f9a2c7e1b4d4e8f9a6c2d7e5b1f8c3a", /Firecrawl/],
    ["The mirror job clones with " + "ATBB" + "Tq8Lm3Vx9Kp2Zr7Wn4Bj6Hc1Fd5Gs0Ya as the password.", "Tq8Lm3Vx9Kp2Zr7Wn4Bj6Hc1Fd5Gs0Ya", /Bitbucket/],
    ["The backup script used " + "sl." + "Tq8Lm3Vx9Kp2Zr7Wn4Bj6Hc1Fd5Gs0Ya8Ue3Ri7Oo2Pk9Lq4Mw6N".repeat(3) + " for uploads.", "Kp2Zr7Wn4Bj6Hc1Fd5Gs0Ya8Ue3Ri7Oo2Pk9Lq4", /Dropbox/],
    ["settings.py still holds " + "django-insecure-" + "k2#m9x!q7w@z4p(t8v=r1n+b6c^y3h_j5d-l0s*f&g9a%e2u7 from startproject.", "m9x!q7w@z4p(t8v=r1n+b6c^y3h_j5d-l0s", /Django/],
    ["The GraphQL client sends " + "da2-" + "k2m9xq7wz4pt8vr1nb6cy3hj5d as x-api-key.", "k2m9xq7wz4pt8vr1nb6cy3hj5d", /AWS/],
    ["The seller sync used " + "amzn.mws." + "3f9a2c7e-1b4d-4e8f-9a6c-2d7e5b1f8c3a until 2024.", "3f9a2c7e-1b4d-4e8f-9a6c-2d7e5b1f8c3a", /Amazon/],
    ["The tracking plan was pushed with " + "sgp_" + "Tq8Lm3Vx9Kp2Zr7Wn4Bj6Hc1Fd5Gs0Ya8Ue3Ri7Oo2Pk9Lq4Mw6NTq8Lm3Vx9Kp2 in CI.", "Tq8Lm3Vx9Kp2Zr7Wn4Bj6Hc1Fd5Gs0Ya8Ue3Ri7Oo2", /Segment/],
    ["The OAuth app's secret is " + "GOCSPX-" + "Tq8Lm3Vx9Kp2Zr7Wn4Bj6Hc1Fd5G in the console.", "Tq8Lm3Vx9Kp2Zr7Wn4Bj6Hc1Fd5G", /Google/],
    ["The newsletter job used " + "3f9a2c7e1b4d4e8f9a6c2d7e5b1f8c3a" + "-us13 for the list.", "3f9a2c7e1b4d4e8f9a6c2d7e5b1f8c3a", /Mailchimp/],
    ["Uploads to tilesets use " + "sk.eyJ1Ijoi" + "Tq8Lm3Vx9Kp2Zr7Wn4Bj6Hc1Fd5Gs0Ya8Ue" + ".Ri7Oo2Pk9Lq4Mw6NbV3xZq in the build.", "Tq8Lm3Vx9Kp2Zr7Wn4Bj6Hc1Fd5Gs0Ya8Ue", /Mapbox/],
  ]);
  for (const text of [
    "Groq keys start with gsk_ and Vault 1.10 tokens with hvs., hvb. or hvr.; store them in the vault.",
    "The bundle's hash is 3f9a2c7e1b4d4e8f9a6c2d7e5b1f8c3a and the region is us-east-1.",
    "Run hawk.config.js through the scanner before the release.",
    "Keep fc-input and fc-label classes on every form control.",
    "Django's startproject writes a django-insecure- key; replace it before deploying.",
    "Public Mapbox tokens start with pk. and are fine in the page; secret ones with sk.",
    "Look at sl.example.com for the staging site.",
  ]) assert.deepEqual(findSecrets(text).issues, [], text);
});

test("keys of AI and developer platforms are secrets by their prefix: Pinecone, LangSmith, OpenRouter, xAI, Replicate, Figma, Supabase, Notion, PostHog, Buildkite, Braintree", () => {
  // Made-up values in each format, built in pieces so no line of this file reads as one.
  assertCaught([
    ["The retriever connects with " + "pcsk_" + "4Tq8Lm_" + "3Vx9Kp2Zr7Wn4Bj6Hc1Fd5Gs0Ya8Ue3Ri7Oo2Pk9Lq4Mw6NbV3xZqT8yR5 in prod.", "3Vx9Kp2Zr7Wn4Bj6Hc1Fd5Gs0Ya8Ue3Ri7Oo2Pk9Lq4Mw6NbV3xZqT8yR5", /Pinecone/],
    ["Tracing sends runs with " + "lsv2_pt_" + "3f9a2c7e1b4d4e8f9a6c2d7e5b1f8c3a_" + "7e1b4d4e8f to the project.", "3f9a2c7e1b4d4e8f9a6c2d7e5b1f8c3a", /LangSmith/],
    ["The router falls back with " + "sk-or-v1-" + "3f9a2c7e1b4d4e8f9a6c2d7e5b1f8c3a" + "9c2d1f8a3e6b5c0d9f2a7e14b7e9c2d1 as the key.", "9c2d1f8a3e6b5c0d9f2a7e14b7e9c2d1", /OpenRouter/],
    ["Grok is called with " + "xai-" + "Tq8Lm3Vx9Kp2Zr7Wn4Bj6Hc1Fd5Gs0Ya8Ue3Ri7Oo2Pk9Lq4Mw6N" + "bV3xZqT8yR5uE2wQ7tY4iO1pA6sD9fG3h in the eval.", "bV3xZqT8yR5uE2wQ7tY4iO1pA6sD9fG3h", /xAI/],
    ["Images are generated with " + "r8_" + "Tq8Lm3Vx9Kp2Zr7Wn4Bj6Hc1Fd5Gs0Ya8Ue3R in the worker.", "Tq8Lm3Vx9Kp2Zr7Wn4Bj6Hc1Fd5Gs0Ya8Ue3R", /Replicate/],
    ["Design sync uses " + "figd_" + "Tq8Lm3Vx9Kp2Zr7Wn4Bj6Hc1-Fd5Gs0Ya8Ue3Ri7Oo2P as X-Figma-Token.", "Tq8Lm3Vx9Kp2Zr7Wn4Bj6Hc1-Fd5Gs0Ya8Ue3Ri7Oo2P", /Figma/],
    ["Functions deploy with " + "sbp_" + "3f9a2c7e1b4d4e8f9a6c2d7e5b1f8c3a9c2d1f8a from the VPS.", "3f9a2c7e1b4d4e8f9a6c2d7e5b1f8c3a9c2d1f8a", /Supabase/],
    ["Tasks are pushed with " + "ntn_" + "48201937561" + "3Tq8Lm3Vx9Kp2Zr7Wn4Bj6Hc1Fd5Gs0Ya8U to the board.", "3Tq8Lm3Vx9Kp2Zr7Wn4Bj6Hc1Fd5Gs0Ya8U", /Notion/],
    ["Feature flags are edited with " + "phx_" + "Tq8Lm3Vx9Kp2Zr7Wn4Bj6Hc1Fd5Gs0Ya8Ue3Ri7Oo2Pk9L in scripts.", "Tq8Lm3Vx9Kp2Zr7Wn4Bj6Hc1Fd5Gs0Ya8Ue3Ri7Oo2Pk9L", /PostHog/],
    ["The pipeline upload uses " + "bkua_" + "3f9a2c7e1b4d4e8f9a6c2d7e5b1f8c3a9c2d1f8a in the agent hook.", "3f9a2c7e1b4d4e8f9a6c2d7e5b1f8c3a9c2d1f8a", /Buildkite/],
    ["Payments use " + "access_token$production$" + "k2m9xq7wz4pt8vr1$" + "3f9a2c7e1b4d4e8f9a6c2d7e5b1f8c3a on the server.", "3f9a2c7e1b4d4e8f9a6c2d7e5b1f8c3a", /Braintree/],
  ]);
  for (const text of [
    "Pinecone keys start with pcsk_, LangSmith's with lsv2_pt_, OpenRouter's with sk-or-v1-; keep them in the vault.",
    "Set FIGMA_TOKEN=figd_your_token_here and REPLICATE_API_TOKEN=r8_xxxxxxxxxxxxx in .env.local.",
    "The ntn_number column holds the tax id; sbp_mean and sbp_sd are blood-pressure stats.",
    "Mask keys as figd_…<last4> on every surface.",
  ]) assert.deepEqual(findSecrets(text).issues, [], text);
});

test("more keys known by their documented prefix are secrets bare: SonarQube user, project and global tokens (squ_, sqp_, sqa_), Plaid access tokens, Airtable personal access tokens, MailerSend tokens, Slack's older app-level tokens (as Nosey Parker's np.slack.5)", () => {
  // Made-up values in each format, built in pieces so no line of this file reads as one.
  const h = "3f9a2c7e1b4d4e8f9a6c2d7e5b1f8c3a9c2d1f8a";
  assertCaught([
    ["The scanner ran with " + "squ_" + h + " from the build agent.", h, /Sonar/],
    ["CI analysis used " + "sqp_" + h + " as SONAR_TOKEN.", h, /Sonar/],
    ["The bank link stored " + "access-production-" + "3f9a2c7e-1b4d-4e8f-9a6c-2d7e5b1f8c3a for the user.", "3f9a2c7e-1b4d-4e8f-9a6c-2d7e5b1f8c3a", /Plaid/],
    ["The sync script reads the base with " + "patK2m9xq7wz4pt8v." + h + "9a6c2d7e5b1f8c3a9c2d1f8a in the cron.", h, /Airtable/],
    ["Mail goes out with " + "mlsn." + h + "9a6c2d7e5b1f8c3a9c2d1f8a from the worker.", h, /MailerSend/],
    ["The socket mode bot used " + "xapp-" + "083452001657-" + "Sh8Ywge/87H4lC3j7lZ48pAL in its env.", "Sh8Ywge/87H4lC3j7lZ48pAL", /Slack/],
  ]);
  for (const text of [
    "SonarQube tokens start with squ_ (user), sqp_ (project) and sqa_ (global); keep them in the CI vault.",
    "Plaid access tokens look like access-sandbox-<uuid>; store them encrypted.",
    "The squ_total and sqp_mean columns hold the squared sums.",
    "Set AIRTABLE_TOKEN=patXXXXXXXXXXXXXX.xxxx in .env.local.",
  ]) assert.deepEqual(findSecrets(text).issues, [], text);
});

test("keys of more providers are secrets bare, by the prefix their consoles print (Kingfisher's rules): DeepSeek sk-<32 hex>, ElevenLabs sk_<48 hex>, LaunchDarkly api-/sdk-/mob-<uuid>, MongoDB Atlas service-account secrets, PostHog keys holding _, Sourcegraph Cody slk_, Teamwork tkn.v1_, Slack's rotating xoxe tokens, Courier pk_prod_, Scrapfly scp-live-, Ubidots BBFF-", () => {
  // Made-up values in each format, built in pieces so no line of this file reads as one.
  const h32 = "9c41e7a2" + "5fd03b86" + "e2a94c17" + "0b6d58f3";
  const uuid = "6f2e9a41-" + "c7d3-4b08-" + "9e15-3a7c2f80d4b6";
  const b62 = "Qm7Tz2Kx" + "9RvLp4Wn" + "H8cYf3Jd" + "6GsBa5Ne";
  // 160 characters: Slack's rotating tokens run 140–170 (gitleaks reads 163–166 only).
  const xoxe = "Mi0yLTI" + b62 + b62.toLowerCase() + h32 + b62 + h32 + "Uk9Zb2" + "Ld1";
  assertCaught([
    ["The summariser calls the model with " + "sk-" + h32 + " from the worker env.", h32, /DeepSeek/],
    ["Voices are rendered with " + "sk_" + h32 + "3e7a91c45b08d2f6" + " on the media box.", h32, /ElevenLabs/],
    ["The flag service starts with " + "sdk-" + uuid + " in production.", uuid, /LaunchDarkly/],
    ["The iOS build embeds " + "mob-" + uuid + ", and the audit script uses " + "api-" + uuid.replace("6f2e", "8b1d") + ".", uuid, /LaunchDarkly/],
    ["The sync job signs in with " + "mdb_sa_sk_" + b62 + "x7Y_q2Wp" + " every hour.", b62, /MongoDB/],
    ["Events are read back with " + "phx_" + b62.slice(0, 20) + "_" + b62.slice(8) + "Zq" + " from the dashboard script.", b62.slice(8), /PostHog/],
    ["The editor plugin reads " + "slk_" + h32 + h32 + " at start.", h32, /Sourcegraph/],
    ["The helpdesk import ran with " + "tkn.v1_" + b62 + b62 + "Xa7" + "=" + " as the bearer.", b62 + b62, /Teamwork/],
    ["The bot refreshed to " + "xoxe.xoxp-1-" + xoxe + " after rotation.", xoxe.slice(20, 60), /Slack/],
    ["Notifications go out with " + "pk_prod_" + b62.toUpperCase().slice(0, 28) + " in the worker.", b62.toUpperCase().slice(0, 28), /Courier/],
    ["The crawler fetches pages with " + "scp-live-" + h32 + " every night.", h32, /Scrapfly/],
    ["Sensor data is posted with " + "BBFF-" + b62.slice(0, 30) + " by the gateway.", b62.slice(0, 30), /Ubidots/],
  ]);
  for (const text of [
    "DeepSeek keys start with sk- and ElevenLabs keys with sk_; LaunchDarkly SDK keys look like sdk-<uuid>.",
    "The api-gateway and sdk-generator services share the key-value store.",
    "Upload to the mob-programming-notes bucket and name it key-rotation-plan.",
  ]) assert.deepEqual(findSecrets(text).issues, [], text);
});

test("a token in dotted pieces assigned to a secret's name is a secret, however long (gitleaks' generic rule stops at 150 characters), when a piece is random; a dotted name in code stays a reference", () => {
  // Made up: three base64url pieces, the middle one long, as some providers' session tokens are.
  const head = "Rk4mQ9zT" + "2xWp7LcV" + "8nJd3HsY" + "6bGf1Ka5";
  const body = (head + "Uq7Xe2Mr" + "9Tz4Pw8N").repeat(3);
  const sig = "Vb3Nq8Lk" + "2Ws7Yd5C" + "x9Hf4Jm6";
  const token = `${head}.${body}.${sig}`;
  for (const text of [
    `Set EDITOR_TOKEN=${token} in CI before the release job runs.`,
    `const sessionToken = "${token}";`,
    `reports_api_key: ${token}`,
  ]) {
    const { issues, masked } = findSecrets(text);
    assert.ok(issues.length > 0, text);
    assert.ok(!leaks(masked, body), masked);
  }
  for (const text of [
    "Set API_TOKEN=settings.api.tokenValue in the template.",
    "token: config.auth.secretToken",
    "const authToken = ctx.session.userToken2;",
  ]) assert.deepEqual(findSecrets(text).issues, [], text);
});

test("a secret written as the fallback of an environment lookup is a secret: os.environ.get/os.getenv/ENV.fetch/env() defaults, process.env.X || \"…\", ${X:-…}; an empty, stand-in, plain or non-secret default is not", () => {
  // Made-up values, built in pieces so no line of this file reads as one.
  const key = "q8#mZ2!v" + "Lp7@xR4t" + "N9$wK3&h";
  const b62 = "Kq8mW2xZ" + "7pLr4Tn9" + "Yc3Vb6Hd";
  const hex = "9f3b2c7e" + "1a4d4e8f" + "9a6c2d7e" + "5b1f8c3a";
  const pw = "Xk9m" + "Q2vLp7Rt";
  for (const [text, secret] of [
    [`SECRET_KEY = os.environ.get('DJANGO_SECRET_KEY', '${key}')`, key],
    [`token = os.getenv("GITLAB_TOKEN", default="${b62}")`, b62],
    [`apiKey: process.env.MAPS_API_KEY || "${b62}",`, b62],
    [`const secret = process.env["WEBHOOK_SECRET"] ?? '${hex}';`, hex],
    [`'key' => env('BILLING_API_TOKEN', '${b62}'),`, b62],
    [`token = ENV.fetch("SLACK_TOKEN", "${hex}")`, hex],
    [`      POSTGRES_PASSWORD: \${DB_PASSWORD:-${pw}}`, pw],
  ] as const) {
    const { issues, masked } = findSecrets(text);
    assert.ok(issues.length > 0, text);
    assert.ok(!masked.includes(secret), masked);
  }
  for (const text of [
    "SECRET_KEY = os.environ.get('DJANGO_SECRET_KEY', '')",
    'token = os.getenv("API_TOKEN", "changeme")',
    "apiKey: process.env.API_KEY || '',",
    "      POSTGRES_PASSWORD: ${DB_PASSWORD:-postgres}",
    "ttl = os.environ.get('TOKEN_TTL_SECONDS', '3600')",
    "debug = env('APP_DEBUG', 'true')",
    "const region = process.env.AWS_REGION || 'us-east-1';",
  ]) assert.deepEqual(findSecrets(text).issues, [], text);
});

test("a provider's token ends where a sentence puts punctuation after it: gitleaks' rules end most tokens at a quote, a space or ';' only, so 'dop_v1_…,' '(npm_…)' and 'hf_….' passed", () => {
  // Made-up values in each format, built in pieces so no line of this file reads as one.
  const hex64 = "ef0e04ed" + "c1391819" + "2246e0c9" + "0f0735c7" + "f4db7a5a" + "036a857e" + "48d6cc98" + "f1c95761";
  const npm = "xk9mq2vl" + "p7rtkq8m" + "w2xz7plr" + "4tn9yc3v" + "b6hd";
  const hf = "jYCNNYmx" + "uBtgRinm" + "PTvAmeHM" + "XzbXqYAdwF";
  assertCaught([
    ["The DigitalOcean token we use for staging is " + "dop_v1_" + hex64 + ", rotate it after the demo.", hex64, /DigitalOcean/],
    ["CI publishes with a token (" + "npm_" + npm + ") kept in the runner.", npm, /npm/],
    ["The model download used " + "hf_" + hf + ".", hf, /Hugging Face/],
  ]);
  for (const text of [
    "DigitalOcean tokens start with dop_v1_, npm's with npm_ and Hugging Face's with hf_.",
    "Name the files dop_v1_notes.md and npm_cache.txt, then commit.",
  ]) assert.deepEqual(findSecrets(text).issues, [], text);
});

test("a key in one case only (letters and digits, 20+), named earlier in its clause, is a secret: \"the Algolia admin API key we use for staging is k3v9…\"; names, versions, short hex and words in one case are not", () => {
  // Made-up values, built in pieces so no line of this file reads as one.
  const lower = "k3v9q1x7" + "m2p8w4z6" + "r0t5y2u8" + "i1o3e7sa";
  const upper = "X7W8HTQ4" + "LVYZPM9R" + "ZJ2S";
  for (const [text, secret] of [
    [`The Algolia admin API key we use for staging is ${lower}, rotate it after the demo.`, lower],
    [`Our Clockify access token for the reports job is ${lower}.`, lower],
    [`The Eventbrite private token we rotated yesterday is ${upper}.`, upper],
  ] as const) {
    const { issues, masked } = findSecrets(text);
    assert.ok(issues.length > 0, text);
    assert.ok(!masked.includes(secret), masked);
  }
  for (const text of [
    "The API key we use for staging is stored in the vault under billing-prod.",
    "The token we use for staging is the one named deploybot2024 in the vault.",
    "The api key for the pinned client is ghclient20240115release.",
    "The deploy key we rotated is in commit 3f9a2c7e1b4d4e8f9a6c.",
    "The secret we mount for staging is DATABASE_URL_2024_PRIMARY.",
  ]) assert.deepEqual(findSecrets(text).issues, [], text);
});

test("a token in dotted pieces named earlier in its clause is a secret when a piece is random: \"the Eden AI token we use for staging is Rk4m….Uq7X….Vb3N…\"; a dotted name stays one", () => {
  // Made up: base64url pieces of a session token.
  const head = "Rk4mQ9zT" + "2xWp7LcV" + "8nJd3HsY";
  const body = "Uq7Xe2Mr" + "9Tz4Pw8N" + "b5Kc1Vg6";
  const token = `${head}.${body}.Vb3Nq8Lk2Ws7`;
  for (const text of [`The Eden AI API token we use for staging is ${token}, rotate it after the demo.`, `Our secret for the reports job: ${token}`]) {
    const { issues, masked } = findSecrets(text);
    assert.ok(issues.length > 0, text);
    assert.ok(!leaks(masked, body), masked);
  }
  for (const text of [
    "The token we read for staging is config.auth.stagingTokenValue.",
    "Our secret for the reports job: settings.reports.signingSecret",
  ]) assert.deepEqual(findSecrets(text).issues, [], text);
});

test("a key named after an API written as one word is a secret: \"the NewsAPI key is <32 hex>\", \"our RapidAPI key we rotated is …\"; the word alone or a name after it is not", () => {
  // Made-up values, built in pieces so no line of this file reads as one.
  const hex = "b7d41c9e" + "06a3f258" + "e91b47d0" + "3c6a8f25";
  for (const text of [`The NewsAPI key is ${hex}.`, `Our RapidAPI key we rotated yesterday is ${hex}, keep it out of logs.`]) {
    const { issues, masked } = findSecrets(text);
    assert.ok(issues.length > 0, text);
    assert.ok(!masked.includes(hex), masked);
  }
  for (const text of [
    "The NewsAPI key is in the team vault under news-prod.",
    "Ask for a RapidAPI key before the workshop starts.",
  ]) assert.deepEqual(findSecrets(text).issues, [], text);
});

test("passwords handed to more tools on a command line are secrets: registry logins' -p, LDAP's -w, htpasswd -b, Samba's user%pass, keytool's -storepass, OpenSSL's pass:, sqlcmd's -P, ConvertTo-SecureString, net use, cmdkey, schtasks, echo into sudo -S or --password-stdin", () => {
  // A made-up password, built so no line of this file reads as one.
  const pw = "Xk9m" + "Q2vLp7Rt";
  for (const text of [
    `Run docker login -u deployer -p ${pw} registry.example.com first.`,
    `The runbook had az login -u ops@example.com -p ${pw} in it.`,
    `Query with ldapsearch -x -D "cn=admin,dc=example,dc=com" -w ${pw} -b dc=example,dc=com to check.`,
    `Create the user with htpasswd -b -c /etc/nginx/.htpasswd admin ${pw} once.`,
    `Mount it by hand: smbclient //fs/share -U admin%${pw} works.`,
    `Import with keytool -importkeystore -srcstorepass ${pw} -destkeystore app.jks.`,
    `Export with openssl pkcs12 -export -passout pass:${pw} -out cert.p12.`,
    `Check the DB with sqlcmd -S db -U sa -P ${pw} -Q "select 1".`,
    `$sec = ConvertTo-SecureString "${pw}" -AsPlainText -Force`,
    `Map the drive: net use Z: \\\\fs\\share /user:CORP\\ops ${pw}`,
    `Store it: cmdkey /add:fs /user:CORP\\ops /pass:${pw}`,
    `schtasks /create /tn nightly /ru CORP\\ops /rp ${pw} /tr c:\\job.cmd`,
    `Run echo "${pw}" | sudo -S apt update in the image build.`,
    `Use echo ${pw} | docker login -u deployer --password-stdin in CI.`,
  ]) {
    const { issues, masked } = findSecrets(text);
    assert.ok(issues.length > 0, text);
    assert.ok(!masked.includes(pw), masked);
    assert.match(issues[0]!.message, /command line/, issues[0]!.message);
  }
  for (const text of [
    "echo $CR_PAT | docker login ghcr.io -u me --password-stdin",
    "docker login -u me -p <password> is deprecated; use --password-stdin.",
    "smbclient //fs/share -U CORP\\%USERNAME% -N",
    "keytool -list -keystore cacerts -storepass changeit",
    "keytool -storepass:env STOREPASS -list",
    "net use Z: \\\\fs\\share /user:CORP\\ops * prompts for the password.",
    "openssl pkcs12 -export -passout pass:$P12_PASS -out cert.p12",
    "ldapsearch -x -W prompts; -w takes the password itself, so prefer -W.",
    "sqlcmd -S db -E -Q \"select 1\" uses Windows auth.",
  ]) assert.deepEqual(findSecrets(text).issues, [], text);
});

test("a private key pasted inside a JSON or code string (lines broken by \\n or \\r\\n escapes) is masked through its body, with or without END; a PuTTY key file's private lines are a private key", () => {
  // A made-up key body, built so no line of this file reads as one.
  const body = "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC" + "BKcwggSjAgEAAoIBAQC7Tq8Lm3Vx9Kp2Zr7Wn4Bj6Hc1Fd5Gs0Ya8Ue3Ri7Oo2Pk9Lq4Mw6N";
  const begin = "-----BEGIN " + "PRIVATE KEY-----";
  for (const text of [
    `The service account JSON had "private_key": "${begin}\\n${body}\\n${body}\\n", "client_email": "ci@proj.iam.gserviceaccount.com" in it.`,
    `The test fixture kept key = "${begin}\\r\\n${body}\\r\\n${body}\\r\\n-----END PRIVATE KEY-----\\r\\n";`,
    `It was cut off in the log: "private_key": "${begin}\\n${body}`,
    "The key file read: PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nPublic-Lines: 2\nAAAAC3NzaC1lZDI1NTE5\nPrivate-Lines: 1\n" + body + "\nPrivate-MAC: 3f9a2c7e",
  ]) {
    const { issues, masked } = findSecrets(text);
    assert.ok(issues.length > 0, text);
    assert.ok(!masked.includes(body.slice(20, 60)), masked);
    assert.match(issues[0]!.message, /private key/, issues[0]!.message);
  }
  const json = findSecrets(`{"private_key": "${begin}\\n${body}\\n", "client_email": "ci@proj.iam.gserviceaccount.com"}`).masked;
  assert.ok(json.includes('"client_email": "ci@proj.iam.gserviceaccount.com"'), json);
  for (const text of [
    `A PEM file starts with ${begin}\\n and ends with the END line.`,
    "The PPK header Private-Lines: 14 says how many base64 lines follow.",
  ]) assert.deepEqual(findSecrets(text).issues, [], text);
});

test("a cloud resource's name after a password or secret's name is where the secret is kept, not the secret; gitleaks' password rule does not take the word password for one", () => {
  for (const text of [
    'IAMUserChangePassword = "arn:aws:iam::aws:policy/IAMUserChangePassword"',
    'db_password_secret = "arn:aws:secretsmanager:us-east-1:123456789012:secret:prod/db-AbCdEf"',
    "token_arn: arn:aws:kms:us-west-2:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab",
    "Read the secret from arn:aws:secretsmanager:us-east-1:123456789012:secret:prod-Ab12Cd at start-up.",
    'String password = "password";',
    'String password = "changeme";',
  ]) assert.deepEqual(findSecrets(text).issues, [], text);
  // The rule still reads a password that is one, and a password field still holds one beside an ARN elsewhere.
  const pw = "xk9mq2" + "vlp7";
  for (const text of [`admin_password = "${pw}"`, `role = "arn:aws:iam::123456789012:role/app"\npassword = "${pw}"`]) {
    const { issues, masked } = findSecrets(text);
    assert.ok(issues.length > 0, text);
    assert.ok(!masked.includes(pw), masked);
  }
});

test("a secret stated with what it is for between its name and the value is a secret: \"the password for user 'postgres' is 'admin'\", \"the API key for staging is …\"; the same words without a value are prose", () => {
  // Made-up values, built so no line of this file reads as one.
  const key = "Tq8Lm3Vx9Kp2" + "Zr7Wn4Bj6Hc1";
  for (const [text, secret] of [
    ["Ensure the password for user 'postgres' is '" + "adm1" + "n' or change .env.", "adm1n"],
    ['The default password for the user "app-user" is "' + "py" + 'ne".', "pyne"],
    ["The password for root is " + "Summer" + "2024 on the staging box.", "Summer2024"],
    ["The password for the admin account is " + "Gr33n&" + "Tea#42.", "Gr33n&Tea#42"],
    [`The API key for staging is ${key}.`, key],
    [`The client secret for the app is ${key}`, key],
  ] as const) {
    const { issues, masked } = findSecrets(text);
    assert.ok(issues.length > 0, text);
    assert.ok(!masked.includes(secret), masked);
  }
  for (const text of [
    'The password for the user is "required".',
    'The token for the request is "Bearer".',
    "The password for root is stored in Vault.",
    "The password for user x is: hidden",
    "The secret for the webhook is set in the dashboard.",
    "The password for user 'bob' is 'secret'.",
    "The API key for staging is in 1Password under ops/staging.",
  ]) assert.deepEqual(findSecrets(text).issues, [], text);
});

test("a session cookie in a pasted request or response is a secret (Cookie: sessionid=…, Set-Cookie: connect.sid=…); cookies that log no one in, short examples and stand-ins are not", () => {
  // Made-up values, built so no line of this file reads as one.
  const sess = "Tq8Lm3Vx9Kp2" + "Zr7Wn4Bj6Hc1Fd5G";
  for (const text of [
    `The failing request had Cookie: theme=dark; sessionid=${sess}; lang=en in its headers.`,
    `The login answered Set-Cookie: connect.sid=s%3A${sess}.Xk9mQ2vLp7; Path=/; HttpOnly`,
    `curl -H "Cookie: _app_session=${sess}" https://app.example.com/admin`,
  ]) {
    const { issues, masked } = findSecrets(text);
    assert.ok(issues.length > 0, text);
    assert.ok(!masked.includes(sess), masked);
  }
  assert.match(findSecrets(`Cookie: JSESSIONID=${sess}`).issues[0]!.message, /session cookie/);
  for (const text of [
    "Set-Cookie: sessionid=abc123; HttpOnly",
    "Set-Cookie: session=<value>; Secure",
    "Set-Cookie: id=a3fWa; Expires=Thu, 21 Oct 2021 07:28:00 GMT; Secure; HttpOnly",
    "Cookie: theme=dark; lang=en-US",
    "Send Cookie: session_token=${SESSION} in the integration tests.",
  ]) assert.deepEqual(findSecrets(text).issues, [], text);
});

test("a secret handed to a secret store on its command line is a secret: gh secret set -b, aws ssm put-parameter --value, aws secretsmanager --secret-string, az keyvault secret set --value, echoed into wrangler, vercel, gcloud secrets; a variable, a file or a plain setting is not", () => {
  // A made-up value, built so no line of this file reads as one.
  const key = "Tq8Lm3Vx9Kp2" + "Zr7Wn4Bj6Hc1Fd5G";
  for (const text of [
    `Set it once with gh secret set API_KEY --body "${key}" and forget it.`,
    `gh secret set API_KEY -b ${key}`,
    `aws ssm put-parameter --name /app/key --type SecureString --value ${key}`,
    `aws secretsmanager create-secret --name db --secret-string ${key}`,
    `az keyvault secret set --vault-name ops --name api --value ${key}`,
    `echo -n ${key} | gcloud secrets create api --data-file=-`,
    `echo ${key} | npx wrangler secret put API_KEY`,
    `echo ${key} | vercel env add API_KEY production`,
  ]) {
    const { issues, masked } = findSecrets(text);
    assert.ok(issues.length > 0, text);
    assert.ok(!masked.includes(key), masked);
    assert.match(issues[0]!.message, /secret store/, issues[0]!.message);
  }
  for (const text of [
    'gh secret set API_KEY --body "$API_KEY"',
    "gh secret set API_KEY < key.txt",
    "echo $TOKEN | wrangler secret put API_KEY",
    "aws ssm put-parameter --name /app/region --value us-east-1",
    'az keyvault secret set --name api --vault-name ops --value "<secret>"',
  ]) assert.deepEqual(findSecrets(text).issues, [], text);
});

test("short-lived cloud credentials and more prefixed keys are secrets bare: Google OAuth access and refresh tokens, AWS STS session tokens (plain or URL-encoded), FCM server keys, NVIDIA, Langfuse, Cerebras, Resend; a cache key named after an MD5 is not Mailgun's", () => {
  // Made-up values in each format, built in pieces so no line of this file reads as one.
  const r = "Tq8Lm3Vx9Kp2Zr7Wn4Bj6Hc1Fd5Gs0Ya8Ue3Ri7Oo2Pk9Lq4Mw6N";
  assertCaught([
    ["The script called the API with " + "ya29." + "a0AfB_by" + r + " until it expired.", r, /Google/],
    ["The offline token " + "1//0" + "gXk9mQ2v" + r + " was in the notebook.", r, /Google/],
    ["The request had x-amz-security-token: " + "IQoJb3JpZ2luX2Vj" + "EG0aCXVzLWVhc3QtMSJHMEUCIQC" + r + r + " in it.", r, /AWS/],
    ["The signed link carried X-Amz-Security-Token=" + "IQoJb3JpZ2luX2Vj" + "END%2F%2F%2FwEaCXVzLXdlc3QtMiJHMEUCIQDh" + r + r + "&X-Amz-Expires=3600.", r, /AWS/],
    ["Pushes went out with " + "AAAAxK9mQ2v:" + "APA91b" + (r + r + r).slice(0, 134) + " as the server key.", r.slice(0, 40), /Firebase/],
    ["The NIM client used " + "nvapi-" + (r + r).slice(0, 64) + " in the notebook.", (r + r).slice(0, 64), /an NVIDIA/],
    ["Tracing ran with " + "sk-lf-" + "3f9a2c7e-1b4d-4e8f-9a6c-2d7e5b1f8c3a as the secret key.", "3f9a2c7e-1b4d-4e8f-9a6c-2d7e5b1f8c3a", /Langfuse/],
    ["Inference used " + "csk-" + "k2m9xq7wz4pt8vr1nb6cy3hj5dk2m9xq7wz4pt8vr1nb6cy3 in the eval.", "k2m9xq7wz4pt8vr1nb6cy3hj5dk2m9xq7wz4pt8vr1nb6cy3", /Cerebras/],
    ["Transactional mail uses " + "re_" + "Tq8Lm3Vx_" + "9Kp2Zr7Wn4Bj6Hc1Fd5Gs0Ya in production.", "9Kp2Zr7Wn4Bj6Hc1Fd5Gs0Ya", /Resend/],
  ]);
  for (const text of [
    "Google access tokens start with ya29. and refresh tokens with 1//0; AWS session tokens with IQoJb3JpZ2luX2Vj.",
    "Use a key-value store for the cache; the key-0000 prefix marks test rows.",
    // A content hash named as a cache key is not Mailgun's key-<32 hex> without the word "mailgun" (gitleaks' rule) near.
    "Cache entries are named " + "key-" + "d41d8cd98f00b204e9800998ecf8427e after the URL's MD5.",
    "The URL https://example.com//0abc has a doubled slash.",
    "Set NVIDIA_API_KEY=nvapi-your-key-here and LANGFUSE_SECRET_KEY=sk-lf-... in .env.",
  ]) assert.deepEqual(findSecrets(text).issues, [], text);
});

test("passwords set up in a database or a cache are secrets: SQL's IDENTIFIED BY, Oracle's user/password@db logins, Redis' requirepass and masterauth; bind variables, the docs' examples and prose are not", () => {
  // A made-up password, built so no line of this file reads as one.
  const pw = "Xk9m" + "Q2vLp7Rt";
  for (const text of [
    `CREATE USER app IDENTIFIED BY '${pw}';`,
    `CREATE USER app IDENTIFIED BY ${pw};`,
    `CREATE USER 'app'@'%' IDENTIFIED WITH mysql_native_password BY '${pw}';`,
    `GRANT ALL ON app.* TO 'app'@'%' IDENTIFIED BY '${pw}';`,
    `Connect with sqlplus scott/${pw}@ORCL to check.`,
    `The URL was jdbc:oracle:thin:scott/${pw}@db.internal:1521/ORCL in the pool config.`,
    `redis.conf had requirepass ${pw} committed.`,
    `masterauth "${pw}"`,
  ]) {
    const { issues, masked } = findSecrets(text);
    assert.ok(issues.length > 0, text);
    assert.ok(!masked.includes(pw), masked);
  }
  for (const text of [
    "CREATE USER app IDENTIFIED BY password;",
    "CREATE USER app IDENTIFIED BY <password>;",
    "ALTER USER app IDENTIFIED BY :new_pw",
    "the user is identified by their email",
    "A package is identified by name@1.2.3 in the lockfile.",
    "sqlplus scott/tiger@ORCL",
    "sqlplus -s app/$DB_PW@ORCL",
    "Set requirepass in redis.conf to a long random value.",
    "requirepass foobared",
  ]) assert.deepEqual(findSecrets(text).issues, [], text);
});

test("a password passed by position is a secret: second to login(user, pw), an LDAP bind, PlainCredentials, UsernamePasswordCredentials, BasicAWSCredentials; third to getConnection, PDO, mysqli, mysql_connect", () => {
  // A made-up password, built so no line of this file reads as one.
  const pw = "Xk9m" + "Q2vLp7Rt";
  for (const text of [
    `server.login("me@example.com", "${pw}")`,
    `ftp.login('deploy', '${pw}')`,
    `conn.simple_bind_s("cn=admin,dc=example,dc=com", "${pw}")`,
    `creds = pika.PlainCredentials("app", "${pw}")`,
    `new UsernamePasswordCredentials("app", "${pw}")`,
    `new PasswordAuthentication("app", "${pw}".toCharArray())`,
    `Connection c = DriverManager.getConnection(url, "app", "${pw}");`,
    `$db = new PDO($dsn, 'app', '${pw}');`,
    `$db = new mysqli("localhost", "app", "${pw}", "shop");`,
    `mysql_connect("localhost", "root", "${pw}");`,
  ]) {
    const { issues, masked } = findSecrets(text);
    assert.ok(issues.length > 0, text);
    assert.ok(!masked.includes(pw), masked);
  }
  for (const text of [
    'server.login("me@example.com", os.environ["SMTP_PASSWORD"])',
    "server.login(user, password)",
    'DriverManager.getConnection(url, "app", "")',
    "new PDO($dsn, $user, $pass)",
    'page.login("user", "password")',
    'await client.login("bot", "#login-form")',
    'credentials = pika.PlainCredentials("guest", "guest")',
  ]) assert.deepEqual(findSecrets(text).issues, [], text);
});

test("more tools whose flag takes the password: MongoDB shells' -p, rabbitmqctl, net user, FreeRDP /p:, rdesktop -p, zip -P, 7z -p, openssl enc -k, mosquitto_passwd -b, wpa_passphrase, user:pw echoed into chpasswd; prose and prompts are not", () => {
  // A made-up password, built so no line of this file reads as one.
  const pw = "Xk9m" + "Q2vLp7Rt";
  for (const text of [
    `mongosh "mongodb://db" -u admin -p ${pw}`,
    `rabbitmqctl add_user app ${pw}`,
    `net user svc ${pw} /add`,
    `xfreerdp /v:host /u:admin /p:${pw}`,
    `rdesktop -u admin -p ${pw} host`,
    `zip -P ${pw} out.zip report.pdf`,
    `7z a -p${pw} out.7z dir`,
    `openssl enc -aes-256-cbc -k ${pw} -in a -out b`,
    `mosquitto_passwd -b /etc/mosquitto/passwd app ${pw}`,
    `wpa_passphrase "Home Net" ${pw}`,
    `echo 'app:${pw}' | sudo chpasswd`,
  ]) {
    const { issues, masked } = findSecrets(text);
    assert.ok(issues.length > 0, text);
    assert.ok(!masked.includes(pw), masked);
  }
  for (const text of [
    "net user bob /add",
    "net user bob * /domain",
    "mongosh -u admin -p --authenticationDatabase admin",
    "7z a out.7z dir -p",
    "unzip -P $ZIP_PW a.zip",
    "rdesktop -p - host",
    "xfreerdp /v:host /u:admin /p:$RDP_PW",
    "Run zip with -P and a password.",
    "rabbitmqctl add_user app <password>",
    'echo "app:$PW" | chpasswd',
  ]) assert.deepEqual(findSecrets(text).issues, [], text);
});

test("a *_pass field given its value after a colon, as YAML and .properties write it, is a secret (ansible_become_pass: …, DB_PASS: …, mail.pass: …); bypass:, compass:, plain words, dates, numbers, versions and variables are not", () => {
  // A made-up password, built so no line of this file reads as one.
  const pw = "Xk9m" + "Q2vLp7Rt";
  for (const text of [`ansible_become_pass: ${pw}`, `  DB_PASS: ${pw}`, `mail.pass: ${pw}`, `redis_passwd: ${pw}`]) {
    const { issues, masked } = findSecrets(text);
    assert.ok(issues.length > 0, text);
    assert.ok(!masked.includes(pw), masked);
  }
  for (const text of [
    "bypass: v2.0.1-beta",
    "compass: north-2",
    "first_pass: complete",
    "- first_pass: 2024-01-01",
    "render_pass: v1.2.3-rc1",
    "two_pass: 2",
    "single_pass: true",
    "DB_PASS: ${DB_PASS}",
    "db_pass: DB_PASSWORD",
    "smtp_pass: smtp_password",
  ]) assert.deepEqual(findSecrets(text).issues, [], text);
});

test("more password hashes are secrets (they can be cracked offline): Apache $apr1$, PHC $argon2id$/$pbkdf2-sha256$/$scrypt$, Django pbkdf2_sha256$, LDAP {SSHA}, MySQL *<40 hex>, pwdump LM:NT pairs, NetNTLMv2 responses; the names of the schemes and C++ paths are not", () => {
  // Made-up hashes in each format, built in pieces so no line of this file reads as one.
  const h = "Tq8Lm3Vx9Kp2Zr7Wn4Bj6H";
  for (const [text, secret] of [
    ["The .htpasswd held admin:" + "$apr1$" + "Xk9mQ2vL$" + h + " for the staging site.", h],
    ["The users table stored " + "$argon2id$" + "v=19$m=65536,t=3,p=4$c29tZXNhbHRzb21lc2FsdA$" + h + "c1Fd5Gs0Ya8Ue3Ri7Oo2P for alice.", h],
    ["Django's row read " + "pbkdf2_sha256$" + "600000$Xk9mQ2vLp7Rt$" + h + "c1Fd5Gs0Ya8Ue3Ri7Oo2Pk= before the reset.", h],
    ["The LDIF had userPassword: " + "{SSHA}" + h + "c1Fd5Gs0Ya in it.", h],
    ["mysql.user had " + "*7B1E4A9C03D25F68" + "E1A94C27B05D3F8A6C19E72B for root.", "E1A94C27B05D3F8A6C19E72B"],
    ["secretsdump printed Administrator:500:" + "aad3b435b51404eeaad3b435b51404ee:" + "5c2e9a17d4b08f63e1a7c94b20d65f3e:::", "5c2e9a17d4b08f63e1a7c94b20d65f3e"],
    ["Responder caught bob::CORP:" + "1122334455667788:" + "3f9a2c7e1b4d4e8f9a6c2d7e5b1f8c3a:" + "0101000000000000".repeat(5), "3f9a2c7e1b4d4e8f9a6c2d7e5b1f8c3a"],
  ] as const) {
    const { issues, masked } = findSecrets(text);
    assert.ok(issues.length > 0, text);
    assert.ok(!masked.includes(secret), masked);
    assert.match(issues[0]!.message, /password hash/, issues[0]!.message);
  }
  for (const text of [
    "Store passwords as $argon2id$ hashes, never {SHA} or MD5.",
    "Iterate with std::vector<int>::iterator over a::b::c.",
    "Guest:501:aad3b435b51404eeaad3b435b51404ee:31d6cfe0d16ae931b73c59d7e0c089c0::: is the empty password's hash.",
  ]) assert.deepEqual(findSecrets(text).issues, [], text);
});

test("a name in code after a short key prefix is not a key: without a digit, re_…_…, r8_…, phx_…, gsk_… read as identifiers", () => {
  for (const text of [
    "Call " + "re_" + "validate_" + "emailaddressesinbulkmode before sending.",
    "The helper " + "r8_" + "normalizeAllTheThingsBeforeUploadAsap is in utils.",
    "Rename " + "phx_" + "renderTheDashboardWidgetsForTheAdminPanel to something shorter.",
  ]) assert.deepEqual(findSecrets(text).issues, [], text);
});

test("values typed by hand rather than drawn are stand-ins, not keys: letters or digits in order (ABCDEFGHIJ, 1234567890), letters with their place in the alphabet (a1b2c3d4), when only the name beside them says they are a secret; the same fields with drawn values, and a provider's own format, stay secrets", () => {
  for (const text of [
    "okta_api_key: Tq7Rm2Pw-ABCDEFGHIJKL-9vXz3Lk-HnB4wQ-Zp8 is what the sample shows",
    "aws_secret_key: Zr8Kp2+Wm+4ABCeQTnLVxrYjhsPd1234567890 in the tutorial's config",
    "secret_access_key = 'mnopqr48213+KXTWV' in the walkthrough",
    "--set newrelic-pixie.apiKey=px-api-b2c3d4e5-f6g7-h8i9-j0k1-l2m3n4o5p6q7 in the install notes",
    "--set pixie-chart.deployKey=px-dep-e5d4c3b2-a7f6-h8g7-j1i8-p5o0n5m3l2k1 in the install notes",
  ]) assert.deepEqual(findSecrets(text).issues.map((i) => i.code), [], text);
  assertCaught([
    ["okta_api_key: 00Tq7Rm2Pw-Kx9JvLh3Qe4-9vXz3Lk-HnB4wQ-Zp8nMd is ours", "Tq7Rm2Pw-Kx9JvLh3Qe4", /Okta|credential/],
    ["aws_secret_key: Zr8Kp2+Wm+4TqeQTnLVxrYjhsPd7Hq93LmW2xv0 in our config", "Zr8Kp2+Wm+4TqeQTnLVxrYjhsPd7Hq93LmW2xv0", /credential/],
    ["license_key: 7f3c91ab04de5f6a82bc90e1f4a3e7dc8e9dNRAL in prod", "7f3c91ab04de5f6a82bc90e1f4a3e7dc8e9dNRAL", /New Relic/],
    ["mongodb://appUser:Vq7%40mZr2Lp9x@db.internal:27017 is the prod URI", "Vq7%40mZr2Lp9x", /password inside a URL/],
    ["user = 'deploy' and password = 'tangerine_moss' on the box", "tangerine_moss", /credential|password/],
    ["the deploy token is 9f8e7d6c5b4a39281706f5e4d3c2b1a0 for now", "9f8e7d6c5b4a39281706f5e4d3c2b1a0", /token written out/],
    // A drawn key that happens to hold one short run is still mostly drawn: not a stand-in.
    ["secret_key: 7f3c91ab04de5f6a82bc90e1abcdef3e7dc8e9d4a1 in prod", "7f3c91ab04de5f6a82bc90e1abcdef3e7dc8e9d4a1", /credential|key|token/],
    ["api_key = 'Qm7xT2vLp9RkW3nZ8bHc5JdY4sGf6aNe012345X9' in prod", "Qm7xT2vLp9RkW3nZ8bHc5JdY4sGf6aNe012345X9", /credential|key|token/],
    // A provider's own format is refused even with a typed body: one edit turns the example into the real key.
    ["okta_api_key: 00Tq7Rm2Pw-ABCDEFGHIJKL-9vXz3Lk-HnB4wQ-Zp8 is what the sample shows", "Tq7Rm2Pw-ABCDEFGHIJKL", /Okta/],
    ["license_key: z9y8x7w6v5u4t3s2r1q0p9o8n7m6l5k4j3i2NRAL from the chart's README", "z9y8x7w6v5u4t3s2r1q0", /New Relic/],
  ]);
});

test("names, calls and references after a secret-looking name are not secrets: a design token's path, a path of variables, a named credential, a PowerShell cmdlet, a Windows path after -u, a .NET PublicKeyToken, optional chaining, an \"authority\" field, a row or partition key's UUID; drawn values in the same places stay secrets", () => {
  for (const text of [
    "Design Token: \"Mobile/Heading/H3\" maps to 28px in the theme file",
    "Run the publish step with --token \"feedV2/$ORG/$FEED_ID\" so the path resolves per org",
    "private static final String PAYMENT_CREDENTIAL = 'callout:Billing_Service';",
    "$clientSecret = Get-AzKeyVaultSecret -VaultName $Vault -Name \"App-Secret\" -AsPlainText",
    "$credentials = Get-AzureADCredentials -Tenant \"contoso\" -Environment \"Staging\"",
    "$securePass = ConvertTo-SecureString $creds.ClientSecret -AsPlainText -Force",
    "Convert paths with cygpath -u \"C:\\Users\\Jane Roe\\Projects\" before calling make",
    "<add assembly=\"Contoso.Reports, Version=2.0.0.0, Culture=neutral, PublicKeyToken=31bf3856ad364e35\" />",
    "var cancelToken = req.Context?.Options?.CancelToken;",
    "\"usage.tokens\": response.metrics?.outputTokens,",
    "\"authority_source\": \"drivers/net/ethernet/intel/e1000e/netdev.c:412\",",
    "{\"rowKey\": \"0f8fad5b-d9cb-469f-a165-70867728950e\", \"region\": \"eu-west\"}",
    "{\"partitionKey\": \"7c9e6679-7425-40de-944b-e07fc1f90ae7\", \"kind\": \"order\"}",
  ]) assert.deepEqual(findSecrets(text).issues.map((i) => i.code), [], text);
  assertCaught([
    ["Design Token: \"Qx7vK2mPz9LwR4tN8bYc\" is the staging key", "Qx7vK2mPz9LwR4tN8bYc", /credential|written out/],
    ["$clientSecret = \"Zq8-Vn3LkW7pRt2XmB9sYc4HdF6gJ1aE\"", "Zq8-Vn3LkW7pRt2XmB9sYc4HdF6gJ1aE", /credential|written out/],
    ["curl -u deploy:Kv9xLm2QpZ7rWt4 https://ci.internal/api", "Kv9xLm2QpZ7rWt4", /Curl|credential/],
    ["var apiToken = \"Rb4Nq8Zx2Lm7Vt9KpW3sYc6HdF1gJ5aE\";", "Rb4Nq8Zx2Lm7Vt9KpW3sYc6HdF1gJ5aE", /credential|written out/],
    ["\"auth_token\": \"Wm3Kx8Qp2Zr7Vn4LtB9sYc6HdF1gJ5aE\",", "Wm3Kx8Qp2Zr7Vn4LtB9sYc6HdF1gJ5aE", /credential|written out/],
    ["{\"apiKey\": \"5d2f8a1c-7b3e-4f90-a6c4-e18b9d02f7a3\", \"region\": \"eu-west\"}", "5d2f8a1c-7b3e-4f90-a6c4-e18b9d02f7a3", /credential|written out/],
  ]);
});

test("passwords that only say what they are stand for one: test, wrong or hard-coded passwords with a number (TestPass2024, Test@456, WrongPassword99), user-input-value, actual_secret_key_98765, RabbitMQ's guest; a password that says nothing of itself stays a secret", () => {
  for (const text of [
    "Log in with the seeded account: username: qa@example.com, password: TestPass2024",
    "- Password: Test@456",
    "| 4 | Enter invalid password \"WrongPassword99\" in the login form | An error is shown |",
    "- Password: WrongPass123",
    "db_password = \"hardcoded-password\"  # what the linter should catch",
    "az deployment group create --parameters adminPassword='user-input-value'",
    "SERVICE_API_KEY=actual_secret_key_98765",
    "Queue=amqp://guest:guest@localhost:5672 for local runs",
  ]) assert.deepEqual(findSecrets(text).issues.map((i) => i.code), [], text);
  assertCaught([
    ["Log in with the seeded account: username: qa@example.com, password: Tangerine2024", "Tangerine2024", /credential|password/],
    ["- Password: Kx7@vLm2", "Kx7@vLm2", /credential|password/],
    ["User: \"My password is marble456\"", "marble456", /password/],
    ["SERVICE_API_KEY=Vt8Kq2Lm9Zx4Rw7NpB3sYc6H", "Vt8Kq2Lm9Zx4Rw7NpB3sYc6H", /credential/],
    ["Queue=amqp://worker:Pq8vLm2Zx7@mq.internal:5672 in prod", "Pq8vLm2Zx7", /password inside a URL/],
  ]);
});

test("\"sha…\" and \"hash…\" words say a value is a digest only when they name one: a token \"we shared\", a \"shared secret\" or a \"HashiCorp Vault\" token stays a secret (they were accepted), a SHA-256 or a hashed value stays not", () => {
  assertCaught([
    ["The deploy token we shared is Xk9mQ2vLp7zzR4tW8nB3Yc", "Xk9mQ2vLp7zzR4tW8nB3Yc", /./],
    ["The deploy token we shared with HashiCorp is Xk9mQ2vLp7zzR4tW8nB3Yc", "Xk9mQ2vLp7zzR4tW8nB3Yc", /./],
    ["Use Xk9mQ2vLp7zzR4tW8nB3 as the shared secret for the webhook.", "Xk9mQ2vLp7zzR4tW8nB3", /./],
    ["Use s.Z4bTMtngfLeQ18AqVoBBkUAOD1 as the HashiCorp Vault token in the deploy job.", "s.Z4bTMtngfLeQ18AqVoBBkUAOD1", /./],
  ]);
  for (const text of [
    "The deploy token's SHA-256 is 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
    "The api key hashed with sha256sum is 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
    "The token hashes to 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
    "Use 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08 as the sha256 of the release token.",
  ]) assert.deepEqual(findSecrets(text).issues.map((i) => i.code), [], text);
});

test("a secret key or credentials written out in a sentence is a secret however short (\"our LinkedIn secret key is zt7GeN6IH911xvRj\", 16 characters, was accepted); what such a key is like, or where it is kept, is not", () => {
  assertCaught([
    ["Our LinkedIn secret key is zt7GeN6IH911xvRj until we rotate it.", "zt7GeN6IH911xvRj", /./],
    ["The Gitalk OAuth credentials are d17d49be2e680b78a83d", "d17d49be2e680b78a83d", /./],
    ["the signing key is Vq8mZ2kL9xR4tW7p", "Vq8mZ2kL9xR4tW7p", /./],
  ]);
  for (const text of [
    "The secret key is stored in Vault under kv/prod/app.",
    "The private key is 4096 bits and never leaves the HSM.",
    "The signing key is rotated every 90 days.",
    "The secret key is sk_test_xxxxxxxxxxxxxxxxxxxxxxxx in the docs.",
    "The deploy key is read-only-deploy-key-2024 in the repo settings.",
    "The encryption key is AES256GCM, per the policy.",
  ]) assert.deepEqual(findSecrets(text).issues.map((i) => i.code), [], text);
});

test("a value named after it, \"use <value> as the <provider> api key\", is a secret (Nosey Parker's Facebook, Heroku and Google OAuth secrets put so were accepted); an idempotency or page token, an algorithm, a digest or a reference put so is not", () => {
  assertCaught([
    ["Use 34cebc81c056a21bc66e212f947d73ec as the Facebook secret key in the deploy job.", "34cebc81c056a21bc66e212f947d73ec", /./],
    ["Paste fnhqAakzWrX-mtFQ4PRdMoy0 as the Google OAuth client secret.", "fnhqAakzWrX-mtFQ4PRdMoy0", /./],
    ["Set c55dbac4-e0e8-4a06-b892-75cac2387ce5 as the Heroku API key until the rotation.", "c55dbac4-e0e8-4a06-b892-75cac2387ce5", /./],
    ["We pass 'zt7GeN6IH911xvRj' as our LinkedIn secret key", "zt7GeN6IH911xvRj", /./],
    ["Use Summer2024 as the admin password until IT resets it", "Summer2024", /./],
  ]);
  for (const text of [
    "Use 550e8400-e29b-41d4-a716-446655440000 as the idempotency key for the retry.",
    "Use 3f786850e387550fdab836ed7e6dc881de23001b as the base commit for the token fix.",
    "Use RS256 as the token signing algorithm.",
    "Use CancellationToken.None as the cancellation token.",
    "Use $STRIPE_SECRET_KEY as the Stripe secret key.",
    "Use nextPageToken2 as the page token.",
    "Use 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08 as the token's checksum.",
    "Use bcrypt as the password hash.",
    "Use Passw0rd123 as the test password in the fixtures.",
    "Use 0123456789abcdef0123456789abcdef as the sample api key in the docs.",
  ]) assert.deepEqual(findSecrets(text).issues.map((i) => i.code), [], text);
});

test("a WireGuard preshared key or a Vault unseal key named after its value (\"use <base64> as the Vault unseal key\") is a secret, as it is before \"is\"; a count of them is not", () => {
  const k = "0tZn+7QQCxphpHwTm7/dC3Lp" + "P5JGIbYl3PK8Sy81R+P2";
  assertCaught([
    ["Use " + k + " as the Vault unseal key.", k, /./],
    ["Paste " + k + "= as the WireGuard pre-shared key on the peer.", k, /./],
  ]);
  for (const text of ["Use 5 as the unseal key count.", "Use wg genpsk as the preshared key source."]) assert.deepEqual(findSecrets(text).issues, [], text);
});

test("a bare secret named earlier in its clause is a secret (\"use this token for the staging deploy: …\", \"the deploy key we rotated yesterday is …\"), and so is a token as a URL's whole user part or after private_token= or password= in a query; digests, ids, formats, names and the words between that say so are not", () => {
  assertCaught([
    ["Use this token for the staging deploy: 7Hq2Lm9Xv4Kp8Zr3Nt6Wb1Yc5Jd0Fs", "7Hq2Lm9Xv4Kp8Zr3Nt6Wb1Yc5Jd0Fs", /./],
    ["The deploy key we rotated yesterday is 4f9c2e7a1b8d3f6a0c5e9b2d7f4a1c8e", "4f9c2e7a1b8d3f6a0c5e9b2d7f4a1c8e", /./],
    ["Our webhook secret for the billing service was c0a8f3e2-7b4d-4e1f-9a6c-2d5b8e7f1a34", "c0a8f3e2-7b4d-4e1f-9a6c-2d5b8e7f1a34", /./],
    ["The credential the CI job reads = Zp8Kx3Vm7Lq2Wn9Rt4Bs6Yc1Hd5Jf0G", "Zp8Kx3Vm7Lq2Wn9Rt4Bs6Yc1Hd5Jf0G", /./],
    ["git clone https://4f9c2e7a1b8d3f6a0c5e9b2d7f4a1c8e5b3d@git.internal/team/app.git", "4f9c2e7a1b8d3f6a0c5e9b2d7f4a1c8e5b3d", /./],
    ["GET https://gitlab.internal/api/v4/projects?private_token=Zp8Kx3Vm7Lq2Wn9Rt4Bs", "Zp8Kx3Vm7Lq2Wn9Rt4Bs", /./],
    ["curl \"https://reports.internal/export?user=ops&password=Kq8vLm2Zx7Rt4Wn9Bs3Y\"", "Kq8vLm2Zx7Rt4Wn9Bs3Y", /./],
  ]);
  for (const text of [
    "The key rotation commit is 4f9c2e7a1b8d3f6a0c5e9b2d7f4a1c8e5b3d9f2a",
    "The API key's request id: 3f2a9c1e-7b4d-4e1f-9a6c-2d5b8e7f1a34",
    "The token format is sk_live_ followed by 24 characters",
    "The key header we send is Content-Security-Policy-Report-Only",
    "The secret manager's ARN is arn:aws:secretsmanager:eu-west-1:123456789012:secret:prod/db",
    "The password policy version is 2024-01-15T10:30:00Z",
    "The token table's primary key is a0b1c2d3-e4f5-4a6b-8c7d-9e0f1a2b3c4d",
    "The keys we pinned: sha256 digest is 9b2d7f4a1c8e5b3d4f9c2e7a1b8d3f6a0c5e9b2d7f4a1c8e5b3d9f2a4f9c2e7a",
    "git clone https://github.com/team/app.git and check out the key-rotation branch",
    "See https://docs.internal/search?key=uploads/2024/photo.jpg&token=refresh",
    "The access key id is AKIAEXAMPLEKEYID0000 and the secret lives in Vault",
  ]) assert.deepEqual(findSecrets(text).issues.map((i) => i.code), [], text);
});

test("a digest word before the secret's name says the value is a digest (\"the checksum for the token module is <hex>\"); the secret itself, or a digest named after the value, stays refused", () => {
  for (const text of [
    "The checksum for the token module is 3f786850e387550fdab836ed7e6dc881de23001b",
    "The SHA-1 of the secret loader is 3f786850e387550fdab836ed7e6dc881de23001b",
    "the sha256 of the password reset script: 9b2d7f4a1c8e5b3d4f9c2e7a1b8d3f6a0c5e9b2d7f4a1c8e5b3d9f2a4f9c2e7a",
    "The digest of the password file: 3f786850e387550fdab836ed7e6dc881de23001b",
    "The commit that moved the api key loader is 4f9c2e7a1b8d3f6a0c5e9b2d7f4a1c8e5b3d9f2a",
    "The MD5 hash for the token service bundle was 0c5e9b2d7f4a1c8e4f9c2e7a1b8d3f6a",
    // The digest word joined to the name by "of", "for" or "that": the value is the digest of the secret, not the secret.
    "The SHA-256 of the api key is 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
    "The sha256 checksum for the deploy token: 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
    "The commit that rotated the api key is 4f9c2e7a1b8d3f6a0c5e9b2d7f4a1c8e5b3d9f2a",
  ]) assert.deepEqual(findSecrets(text).issues.map((i) => i.code), [], text);
  assertCaught([
    // The digest word belongs to another clause, or a secret follows the digest: still a secret.
    ["The checksum for the release is 3f786850e387550fdab836ed7e6dc881de23001b and the token is 4f9c2e7a1b8d3f6a0c5e9b2d7f4a1c8e", "4f9c2e7a1b8d3f6a0c5e9b2d7f4a1c8e", /./],
    ["We verified the checksum. The token is 4f9c2e7a1b8d3f6a0c5e9b2d7f4a1c8e", "4f9c2e7a1b8d3f6a0c5e9b2d7f4a1c8e", /./],
    ["The checksum job's api key is Zp8Kx3Vm7Lq2Wn9Rt4Bs6Yc1Hd5Jf0G", "Zp8Kx3Vm7Lq2Wn9Rt4Bs6Yc1Hd5Jf0G", /./],
    // The digest word names another thing (the job, the hook) whose key it is; the key's own name sits right before the value.
    ["the checksum job's api key is 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08", "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08", /./],
    ["The commit hook's token: 4f9c2e7a1b8d3f6a0c5e9b2d7f4a1c8e5b3d9f2a", "4f9c2e7a1b8d3f6a0c5e9b2d7f4a1c8e5b3d9f2a", /./],
    ["The hash service secret = 0c5e9b2d7f4a1c8e4f9c2e7a1b8d3f6a", "0c5e9b2d7f4a1c8e4f9c2e7a1b8d3f6a", /./],
    ["The token is 4f9c2e7a1b8d3f6a0c5e9b2d7f4a1c8e", "4f9c2e7a1b8d3f6a0c5e9b2d7f4a1c8e", /./],
    ["hash_secret = 'Zp8Kx3Vm7Lq2Wn9Rt4Bs6Yc1Hd5Jf0G'", "Zp8Kx3Vm7Lq2Wn9Rt4Bs6Yc1Hd5Jf0G", /./],
  ]);
});

test("a Jenkins crumb or API token beside the word Jenkins is refused (as Nosey Parker's np.jenkins.1 reads it); a Jenkins build's commit or a war's checksum is not", () => {
  assertCaught([
    ["curl -X POST http://ci.internal/job/app/build -H 'Jenkins-Crumb:7c2f9e4a1b8d3f6a0c5e9b2d7f4a1c8e'", "7c2f9e4a1b8d3f6a0c5e9b2d7f4a1c8e", /Jenkins/],
    ["Send the header Jenkins-Crumb: 7c2f9e4a1b8d3f6a0c5e9b2d7f4a1c8e with every POST", "7c2f9e4a1b8d3f6a0c5e9b2d7f4a1c8e", /Jenkins/],
    ["export JENKINS_TOKEN=11f4274ec59be12eace9a08b08ee13d54b", "11f4274ec59be12eace9a08b08ee13d54b", /./],
    ["jenkinsToken = \"df490bc6-ef6e-4f6a-99a0-b03d26cb56f9\"", "df490bc6-ef6e-4f6a-99a0-b03d26cb56f9", /./],
  ]);
  for (const text of [
    "Jenkins built commit 3f786850e387550fdab836ed7e6dc881de23001b last night",
    "Jenkins-Crumb: ${CRUMB} is fetched from /crumbIssuer/api/json first",
    "The Jenkins crumb header is Jenkins-Crumb; fetch it from /crumbIssuer before each POST",
    "jenkins.war sha256 is 9b2d7f4a1c8e5b3d4f9c2e7a1b8d3f6a0c5e9b2d7f4a1c8e5b3d9f2a4f9c2e7a",
  ]) assert.deepEqual(findSecrets(text).issues.map((i) => i.code), [], text);
});

test("a random key standing alone in a sentence, with no name beside it, is refused; ids, addresses, hashes, names and paths of the same length are not", () => {
  assertCaught([
    ["I pasted fLcgsfJunui80HIa5cWyD6Ju2PIz4j5w into the billing dashboard and it worked.", "fLcgsfJunui80HIa5cWyD6Ju2PIz4j5w", /stand/],
    ["The staging worker authenticates with WFOOdBTezZTxLIL2u2ougFa4L7FCnLTkqjh07GT5 until Friday", "WFOOdBTezZTxLIL2u2ougFa4L7FCnLTkqjh07GT5", /stand/],
    ["Run the sync with `tPrht99kpOCuAwj90s2CFZ0HEKMs9sdYCQANEP5eYvY7FoWV` (ops only).", "tPrht99kpOCuAwj90s2CFZ0HEKMs9sdYCQANEP5eYvY7FoWV", /stand/],
    ["For the mailer, 9wlTSbHFT6E7c5UlWmvNX1xcFqyw3sOcjqo9 goes in the header.", "9wlTSbHFT6E7c5UlWmvNX1xcFqyw3sOcjqo9", /stand/],
    ["Legacy clients still send acme_Q7vK2mLp9XzR4tW8nB3cY6hJ1dF5gS0 to the gateway.", "acme_Q7vK2mLp9XzR4tW8nB3cY6hJ1dF5gS0", /stand/],
    // An id that is a credential stays one: a session's or a secret's.
    ["Log in as the bot with session id Zp8Kx3Vm7Lq2Wn9Rt4Bs6Yc1Hd5Jf0G until the SSO fix lands.", "Zp8Kx3Vm7Lq2Wn9Rt4Bs6Yc1Hd5Jf0G", /./],
  ]);
  for (const text of [
    // Names in code, however long: few digits, words joined.
    "Register a Jackson2ObjectMapperBuilderCustomizer bean and a WebGL2RenderingContext check",
    "Call GenerateTokenRequestV2TargetWorkspace with the workspace id",
    // Hex (a digest, a commit, an id), a UUID, and hex after a short prefix (a Twilio SID, a ProgID).
    "Pin the image to 9b2d7f4a1c8e5b3d4f9c2e7a1b8d3f6a0c5e9b2d7f4a1c8e5b3d9f2a4f9c2e7a in the chart",
    "The account AC3f786850e387550fdab836ed7e6dc881 sends the SMS",
    "It returns a value like FirefoxHTML-308046B0AF4A39CB for the default browser",
    // Public addresses and content ids (base58), and object ids a provider prints in its logs.
    "The program id is JUP6LkbZbjS1jKKwapdHNy74zcZ3tLUZoi5QNyVTaV4 on mainnet",
    "Donations go to 1BoatSLRHtKNngkdXEeobR76b53LETtpyT as before",
    "The file is pinned as QmXoypizjW3WknFiJnKLwHCnL72vedxjQkDDP1mXWo6uco on IPFS",
    "The failed charge was ch_3Pq8vLm2Zx7Rt4Wn9Bs3Yc6H and the customer cus_Q7vK2mLp9XzR4t",
    "Anthropic answered msg_01XFDUDYJgAACzvnptvVoYEL with a tool call toolu_01A09q90qw90lq917835lq9",
    "OpenAI's reply chatcmpl-9Xk2Lm7Qp4Rv8Wn3Zt6Yb1Hc had a tool call call_Zp8Kx3Vm7Lq2Wn9Rt4Bs6Yc1",
    // In a URL or a path the piece names a resource.
    "See https://docs.google.com/spreadsheets/d/1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms/edit for the list",
    "The cache lives in ~/.cache/build/Zp8Kx3Vm7Lq2Wn9Rt4Bs6Yc1Hd5Jf0G/out.bin",
    // Typed by hand, a stand-in, a base64 run with padding, an integrity hash.
    "Keys look like ABCDEFGHIJKLMNOP1234567890abcdef in the docs",
    "A PAT looks like X9y8Z7a6B5c4D3e2F1g0H9i8J7k6L5m4N3o2P1q0 once it is issued",
    "The header is always eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9 for HS256",
    "The integrity is sha512-Zp8Kx3Vm7Lq2Wn9Rt4Bs6Yc1Hd5Jf0G+abc/def== in the lockfile",
    "The header decodes from dXNlcjpwYXNzd29yZDEyMzQ1Njc4OQ== as usual",
    // A value the sentence calls an id.
    "The budget sheet id 1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms is read by scripts/budget.ts",
    "The Terraform state lock ID: 7fA9kQ2mL8nR4tY7bZ3vW1cX was left behind after a cancelled job",
    // Base64 of a sentence (a fixture), and YouTube's public playlist and channel ids.
    "Test fixtures use the base64 string SGVsbG8gV29ybGQhIFRoaXMgaXMgYSB0ZXN0IGZpeHR1cmU for the upload endpoint.",
    "The playlist PLx0sYbCqOb8TBPRdmBHs5Iftvv9TPboYG and the channel UCx9Kp2mL8nR4tY7bQ3vW1zA hold the onboarding videos",
  ]) assert.deepEqual(findSecrets(text).issues.map((i) => i.code), [], text);
});

test("code in a rule file is not a secret after a name holding token, auth or secret: a Swift selector's labels, a class called or made generic, an ARN with its region and account left as stand-ins (each was flagged in awesome-cursor-rules-mdc or agent-rules)", () => {
  for (const text of [
    // A Swift selector: argument labels joined by colons, the last one too.
    "Prefer `filter(items:tokens:matchingTokens:placement:token:)` for token fields.",
    "- filter(items:tokens:matchingTokens:placement:)",
    // A class called, or made generic, right after a name holding auth or token.
    "auth_scheme = OAuth2ClientCredentialsFlow(scopes=scopes)",
    "final authGuardProvider = StateNotifierProvider<AuthGuardNotifier, bool>((ref) => AuthGuardNotifier());",
    "tokenStore = TokenCacheRepository()",
    // Where a secret is kept, with the region and the account left for the reader to fill in.
    "\"valueFrom\": \"arn:aws:secretsmanager:REGION:ACCOUNT_ID:secret:prod-api-secret-x1y2z3:API_TOKEN::\"",
    "secretArn: arn:aws:secretsmanager:${AWS_REGION}:${ACCOUNT}:secret:app/db-creds",
  ]) assert.deepEqual(findSecrets(text).spans, [], text);
  // The same shapes holding a secret stay refused: a random value after a token's name, quoted or followed by other text, and a password.
  for (const text of [
    "tokens:Xk9fQ2mZ7pLw4RtY8vBnHd3J",
    "auth_token = Qm7Vx2Lp9Zr4Tw8Nb3Cy6Hj1(",
    "auth_token = \"OAuth2ClientCredentialsFlow9Xz\"",
    "DB_PASSWORD=SuperSecret12",
    "api_token: Zp8Kx3Vm7Lq2Wn9Rt4Bs6Yc1:Hd5Jf0G",
  ]) assert.ok(findSecrets(text).spans.length > 0, text);
});

test("Microsoft's identifiable keys are secrets bare, by the signature at their fixed place (microsoft/security-utilities' formats): common annotated keys (…JQQJ9…), Azure Functions (AzFu), Search (AzSe), Container Registry (+ACR), Relay, Event Hub, Service Bus, IoT, Redis, Event Grid, Storage, Cosmos DB, Batch, ML, API Management keys; the signatures in prose and digests are not", () => {
  // Made-up values in each format, built in pieces so no line of this file reads as one.
  const b62 = "Qm7Tz2Kx" + "9RvLp4Wn" + "H8cYf3Jd" + "6GsBa5Ne";
  const b64 = "r4Wq/7Zk" + "+Lm2Xp9T" + "v3Nc8YhB" + "s6Jd1Fg5";
  const cask = b62 + b62.slice(0, 20) + "JQQJ" + "99" + "B" + "F" + "Ab3Kd9Lq2Wm7" + "AAAA" + "ACOG" + "Xy7Q";
  const functions = b62 + b62.slice(0, 12) + "AzFu" + "Xo7Ws" + "g==";
  const search = b62 + b62.slice(0, 10) + "AzSe" + "C" + "Tk5pR";
  const registry = b64 + b64.slice(0, 10) + "+ACR" + "B" + "m2Lp9";
  const relay = b64 + "L" + "+ARm" + "K" + "Zx4tP" + "=";
  const redis = b64 + "H" + "AzCa" + "F" + "Qr8sY" + "=";
  const storage = b64 + b64 + b64.slice(0, 12) + "+ASt" + "Nb5Xc" + "w==";
  const apim = b64 + b64 + b64.slice(0, 12) + "APIM" + "Jv3Ks" + "Q==";
  assertCaught([
    ["The speech service answers with " + cask + " from the worker env.", cask.slice(30, 70), /Azure/],
    ["Call the function app with code=" + functions + " in the smoke test.", functions.slice(10, 40), /Azure/],
    ["The search index is queried with " + search + " by the site.", search.slice(10, 40), /Azure/],
    ["docker login acme.azurecr.io uses " + registry + " as its password.", registry.slice(10, 40), /Azure/],
    ["The relay listener signs with " + relay + " at start.", relay.slice(8, 36), /Azure/],
    ["The cache is opened with " + redis + ", rotated monthly.", redis.slice(8, 36), /Azure/],
    ["The storage key " + storage + " was pasted in the runbook.", storage.slice(20, 70), /Azure/],
    ["APIM calls carry Ocp-Apim-Subscription-Key: " + apim, apim.slice(20, 70), /Azure/],
  ]);
  for (const text of [
    "Put the API behind APIM and register the AIoT devices; the AzFu and JQQJ signatures mark Microsoft's identifiable keys.",
    "The release tarball's SHA-512 is " + b64 + b64 + b64.slice(0, 20) + "Zx==" + ", checked by the installer.",
    "Functions keys end in AzFu followed by five characters and ==; Search keys carry AzSe.",
  ]) assert.deepEqual(findSecrets(text).issues, [], text);
});

test("a password or secret given as an XML element's text is a secret (Maven's settings.xml, NuGet and .NET config, <ConsumerSecret>); a YAML `secret:` given a password unquoted is one; variables, stand-ins, labels and settings are not", () => {
  const pw = "Tr0ub4" + "dor&3xQ";
  const key = "Xk9mQ2vL" + "p7zzR4tW" + "b8NcY3hJ";
  assertCaught([
    ["Deploys read <server><id>nexus</id><username>deploy</username><password>" + pw + "</password></server> from settings.xml.", pw, /password|credential/],
    ["The feed's NuGet.Config holds <add key=\"Username\" value=\"ci\" /> and <Password>" + pw + "</Password>.", pw, /password|credential/],
    ["The Twitter app's config had <ConsumerSecret>" + key + "</ConsumerSecret> in it.", key, /credential/],
    ["The OAuth client reads <clientSecret>" + key + "</clientSecret> at start.", key, /credential/],
    ["The chart's values.yaml had\n  secret: " + pw + "\nunder the auth block.", pw, /password|credential/],
  ]);
  for (const text of [
    "Put <password>${env.NEXUS_PASSWORD}</password> in settings.xml, never the password itself.",
    "The form's <label>Password</label> sits above <input type=\"password\">.",
    "Use <password>changeme</password> only in the local compose file, and <passphrase>passphrase</passphrase> in the sample.",
    "The schema says <passwordPolicy>strong</passwordPolicy> and <tokenLifetime>3600</tokenLifetime>.",
    "<secretName>db-credentials</secretName> names the Kubernetes secret to mount.",
    "Set `secret: true` on the field, and `secret: my-app-secret` names the Kubernetes secret.",
    "In the workflow, `secret: ${{ secrets.DEPLOY_KEY }}` reads the value at run time.",
  ]) assert.deepEqual(findSecrets(text).issues, [], text);
});

test("a key split across two lines of a lesson (wrapped by an editor or a chat window) is masked whole: no piece of it is left on either line; a digest, a path or a word at a line's end followed by prose is not joined", () => {
  const gh = "ghp_" + "Xk9mQ2vLp7zz" + "R4tWb8Nc" + "Y3hJXk9m" + "Q2vLp7zz";
  const openai = "sk-proj-" + "T3xQ9mKv2LpZ" + "8rWn4YcB7hJd" + "5GsF1aNe6Uq0" + "Ri";
  const anthropic = "sk-ant-api03-" + "Qm7Tz2Kx9RvLp4WnH8cYf3Jd6GsBa5Ne".repeat(3) + "-" + "Xk9mQ2vL" + "AA";
  for (const [text, secret] of [
    ["CI pushes with " + gh.slice(0, 24) + "\n" + gh.slice(24) + " for the release job.", gh],
    ["The summariser uses\n  " + openai.slice(0, 30) + "\n  " + openai.slice(30) + "\nfrom the worker env.", openai],
    ["The bot calls the API with " + anthropic.slice(0, 70) + "\n" + anthropic.slice(70) + ", rotate it after the demo.", anthropic],
  ] as const) {
    const { issues, masked } = findSecrets(text);
    assert.ok(issues.length > 0, text);
    assert.ok(!leaks(masked, secret), masked);
  }
  for (const text of [
    "Commit 3f786850e387550fdab836ed7e6dc881de23001b\nFixed the flaky test in the parser.",
    "Run npm ci --prefix packages/api-v2-gateway2024\nThen run the tests.",
    "Pin the image to sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08\nin the compose file.",
    "The migration id is 20240115_add_user_index_v2\nand it runs before the seed step.",
  ]) assert.deepEqual(findSecrets(text).issues, [], text);
});

test("more prefixed formats that secrets-patterns-db and EarlyBird read and our rules did not: Slack's legacy four-part tokens with a base36 tail (xoxs-, xoxa-), Flutterwave live secret keys, Apify tokens, Dynatrace tokens of every type (dt0s01., not only dt0c01.), New Relic synthetics location keys, Close API keys; the prefixes in prose are not", () => {
  // Made-up values in each format, built in pieces so no line of this file reads as one.
  const b36 = "oxtp6n0z" + "7yibj63v" + "ndve9gse" + "j96k5k4s";
  const b62 = "Qm7Tz2Kx" + "9RvLp4Wn" + "H8cYf3Jd" + "6GsBa5Ne";
  const up = "K4T7QW2M" + "9XZB3VRL" + "8NHC5PYD" + "6GJF1SAE";
  const hex = "9c41e7a2" + "5fd03b86" + "e2a94c17" + "0b6d58f3";
  assertCaught([
    ["The old integration posted with " + "xoxs-" + "2603217448-" + "2879453471-" + "150356515420-" + b36 + " until 2019.", b36, /Slack/],
    ["The import bot used " + "xoxa-" + "1581633874-" + "6594503498-" + "679961308401-" + b36 + ".", b36, /Slack/],
    ["Payments settle with " + "FLWSECK-" + hex + "-X" + " in production.", hex, /Flutterwave/],
    ["The scraper runs with " + "apify_api_" + b62 + "Ab3d" + " every night.", b62, /Apify/],
    ["Metrics are pushed with " + "dt0s01." + up.slice(0, 24) + "." + up + up + " from the agent.", up, /Dynatrace/],
    ["The private location starts with " + "NRSP-" + "us01" + hex.slice(0, 31) + " in its config.", hex.slice(0, 31), /New Relic/],
    ["The CRM sync uses " + "api_" + b62.slice(0, 25) + "." + b62.slice(4, 26) + " for leads.", b62.slice(0, 25), /Close/],
  ]);
  for (const text of [
    "Slack's legacy tokens start with xoxs- or xoxa- and four dash-separated parts.",
    "Flutterwave secret keys start with FLWSECK- and end in -X; Apify tokens start with apify_api_.",
    "Dynatrace tokens look like dt0c01.<public part>.<secret part>; the api_version field is api_v2.",
  ]) assert.deepEqual(findSecrets(text).issues, [], text);
});

test("secrets in the shapes agents paste are refused and masked: .env lines, JSON and YAML config, curl headers, connection strings (postgres, mongodb+srv, redis, amqp, mysql, SQL Server, Azure Storage, JDBC), docker login, git remotes, pip's __token__, kubeconfig, PEM blocks cut short, .npmrc, Maven settings.xml, helm --set, a Docker config's auth", () => {
  // Made-up values, built in pieces so no line of this file reads as one.
  const K = "Xk9mQ2vL" + "p7zzR4tW" + "b8NcY3hJ";
  const P = "Tr0ub4" + "dor&3xQ";
  const jwt = "eyJhbGciOiJSUzI1NiIsImtpZCI6IkFCQyJ9" + "." + "eyJpc3MiOiJrdWJlcm5ldGVzL3NlcnZpY2VhY2NvdW50In0" + "." + K + K;
  const pem = "MIIEowIBAAKCAQEAxY9m" + "Q2vLp7zzR4tWb8NcY3hJ" + "Xk9mQ2vLp7zzR4tWb8Nc";
  const cases: Array<[string, string]> = [
    [`DATABASE_URL=postgres://app:${P}@db.internal:5432/app`, P],
    [`OPENAI_API_KEY="${K}"`, K],
    [`export GITHUB_TOKEN=${K}`, K],
    [`{"apiKey": "${K}", "region": "eu"}`, K],
    [`{"db": {"user": "app", "password": "${P}"}}`, P],
    [`  api_key: ${K}`, K],
    [`  secret: ${P}`, P],
    [`    password: ${P}`, P],
    [`curl -H "Authorization: Bearer ${K}" https://api.example.com/v1/me`, K],
    [`mongodb+srv://svc:${P}@cluster0.ab1cd.mongodb.net/test?retryWrites=true`, P],
    [`redis://:${P}@cache.internal:6379/0`, P],
    [`amqp://guest2:${P}@mq.internal:5672/vhost`, P],
    [`mysql://root:${P}@localhost:3306/app`, P],
    [`docker login -u deploy -p ${P} registry.example.com`, P],
    [`git remote set-url origin https://${K}@github.com/acme/app.git`, K],
    [`git clone https://oauth2:${K}@gitlab.com/acme/app.git`, K],
    [`pip install --index-url https://__token__:${K}@pypi.example.com/simple pkg`, K],
    [`    token: ${jwt}`, jwt],
    [`-----BEGIN RSA PRIVATE KEY-----\n${pem}\n${pem}...`, pem],
    [`DefaultEndpointsProtocol=https;AccountName=acmestore;AccountKey=${K}${K}${K}Xk9mQ2vLp7zzR4tW==;EndpointSuffix=core.windows.net`, K + K],
    [`Server=tcp:acme.database.windows.net,1433;Database=prod;User ID=app;Password=${P};Encrypt=true`, P],
    [`jdbc:postgresql://db:5432/app?user=app&password=${P}`, P],
    [`//registry.npmjs.org/:_authToken=${K}`, K],
    [`<server><id>nexus</id><username>deploy</username><password>${P}</password></server>`, P],
    [`helm install app ./chart --set db.password=${P}`, P],
    [`{"auths": {"registry.example.com": {"auth": "ZGVwbG95Ol" + "RyMHViNGRvciYzeFE="}}}`.replace('" + "', ""), "RyMHViNGRvciYzeFE"],
  ];
  for (const [text, secret] of cases) {
    const { issues, masked } = findSecrets(text);
    assert.ok(issues.length > 0, text);
    assert.ok(!leaks(masked, secret, 8), masked);
  }
});

test("a key of 16–19 characters named earlier in its clause is a secret (\"the token we use for staging is Qm7Z…\", \"set DEPLOY_SECRET to 9fK2…\", 16–19 characters, were accepted); words, ids, versions, hashes and paths of that length after the same words are not", () => {
  // Made-up values, built in pieces so no line of this file reads as one.
  const a16 = "a8Fk2LmQ" + "9xR7tB3w";
  const b17 = "Qm7Zp2Lx" + "9Vb4Kt8R1";
  const c16 = "9fK2mLx8" + "Qp4Zt7Wb";
  const d19 = "Hq8vN2kL" + "7mX4pR9tZ" + "3c";
  const e18 = "k3v9q1x7" + "m2p8w4z6" + "r0";
  assertCaught([
    [`The token we use for staging is ${b17}, rotate it on Friday.`, b17, /./],
    [`Set DEPLOY_SECRET to ${c16} before the release.`, c16, /./],
    [`Our Sentry auth token for uploading source maps is ${d19}.`, d19, /./],
    [`The staging API key we share with QA is ${a16}`, a16, /./],
    [`The Algolia API key we use in the demo is ${e18}.`, e18, /./],
    [`Set MY_API_KEY to ${a16} in the shell`, a16, /./],
  ]);
  for (const text of [
    "The token provider we use for staging is OAuth2TokenProvider.",
    "The token encoder we ship is Base64UrlEncoder256.",
    "The secret we mount for staging is DATABASE_URL_2024.",
    "The deploy key we rotated is in commit 3f9a2c7e1b4d4e8f.",
    "The token we use for staging is deploybot2024prod1.",
    "The API key version we pin is 2024-01-15T10:30:00.",
    "The secret we read in staging is config/app/db.yaml.",
    "The key we pinned in staging is ABCDEFGH12345678.",
    "The token we use for staging is the one named ci-bot-2024.",
    "Set DEPLOY_SECRET to the value from the vault.",
    "Set DEPLOY_SECRET to ${DEPLOY_SECRET_PROD} in the pipeline.",
    "Set CLIENT_SECRET to your_client_secret_here before running.",
    "The access token lifetime we use in staging is 3600 seconds.",
    "Rename the GITHUB_TOKEN to CI_TOKEN_2024_PRIMARY in the workflow.",
  ]) assert.deepEqual(findSecrets(text).issues.map((i) => i.code), [], text);
});

test("a token in base64url pieces with a lower-case random body, named earlier in its clause, is a secret (\"the Form.io token we use … is eyJ….ptgz….2n1n…\" was accepted after the name test of 16–19 characters read its letter runs as words); a name of capitalised words with a version is not", () => {
  // Made-up values, built in pieces so no line of this file reads as one.
  const body = "ptgz4jfebz9sdo78xrlgqnbqrmktsxfvy6plp4rf" + "9tast6m01s12kotqcfc3r784vjme0m2rlw1u9mug" + "dorphvls3bcwfsubusuj0esm2siqykvaxc3kxxsg";
  const token = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9" + "." + body + "." + "2n1nhdddkjc85puch7s0m" + "4mp205co02p1n5mccqqp7n";
  assertCaught([[`The Form.io token we use for the admin API is ${token}`, token, /./]]);
  for (const text of ["The token encoder we ship is Base64UrlEncoder256.", "The token is OAuth2TokenProvider2024 in the config"]) {
    assert.deepEqual(findSecrets(text).issues.map((i) => i.code), [], text);
  }
});

test("a legacy Azure DevOps personal access token (52 characters of lower-case base32, a-z and 2-7) is a secret standing alone (\"use pat ujzd…\" was accepted); words glued together, base32 content ids, Nix hashes and hex of that length are not", () => {
  // Made-up values, built in pieces so no line of this file reads as one.
  const pat1 = "ujzdegxdncf32epf3dho" + "dzdocis2jhtlgmxgedn7" + "3u55xtplpft7";
  const pat2 = "v4seh2kvj72ceuvw75ef" + "r6edt4sywb5wkh7dnsip" + "zz7fk4zri3r2";
  assertCaught([
    [`use pat ${pat1} in the pipeline until it expires`, pat1, /stand/],
    [`Azure DevOps refused ${pat2} after the rotation, so the agent pool went offline.`, pat2, /stand/],
    [`The build pulls packages with (${pat2}) from the feed`, pat2, /stand/],
  ]);
  for (const text of [
    "The banner reads thequickbrownfoxjumpsoverthelazydogandthenkeepsonrunning in the footer",
    "The docs pin the content id bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi for the logo",
    "Nix reports the hash 0mdqa9w1p6cmli6976v4wi0sw9r4p5prkj7lzfd1877wk11c9c73 for the tarball",
    "The digest 9b2d7f4a1c8e5b3d4f9c2e7a1b8d3f6a0c5e9b2d7f4a1c8e5b3d is in the lockfile",
    "The slug abcdefghijklmnopqrstuvwxyz234567abcdefghijklmnopqrst is the alphabet typed out",
    "Keep release2024candidatebuildnumbersevenforthewindowsagent as the branch name",
  ]) assert.deepEqual(findSecrets(text).issues.map((i) => i.code), [], text);
});

test("a legacy Azure Storage or Cosmos DB account key (88 base64 characters ending \"==\", no signature) is a secret pasted alone or in a connection string without AccountKey= (each was accepted); a SHA-512 digest said as one, base64 of plain text and a run of A are not", () => {
  // Made-up values (64 drawn bytes each), built in pieces so no line of this file reads as one.
  const k1 = "n0G9W8uw8de9puyHB9d3xvE/pg3mKBxfeN4/YYsakj8D" + "uzdoRy7q3sRjKMPMEiOennEgIQD43wE1xjf1+yrfKg==";
  const k2 = "SlD2MorgraA0LvD3sDL39+RiTAVcairvJUMQVE3RmpYA" + "mK21VhBPWtFOe7JQL3t4tC0OQfnwBfO/W9hnBIzJaw==";
  const k3 = "XWCU1wJzC7Uun/T0Mh7BPu3R8XZYg1rkhkDGdhuWv8fM" + "XtxLCW7y+hc1V4OcXOslV0bss4sXT69RTi3MFKAmuA==";
  assertCaught([
    [`Paste ${k1} into the portal when it asks.`, k1, /./],
    [`mongodb://acme-cosmos:${k2}@acme-cosmos.mongo.cosmos.azure.com:10255/?ssl=true&replicaSet=globaldb`, k2, /./],
    [`AccountEndpoint=https://acme.documents.azure.com:443/;${k3};`, k3, /./],
    [`"StorageConnection": "BlobEndpoint=https://acmestore.blob.core.windows.net/;SharedKey=${k1}"`, k1, /./],
  ]);
  for (const text of [
    `The SHA-512 of the release tarball is ${k2}`,
    `Check it against sha512 ${k1} from the release page`,
    `The lockfile records integrity sha512-${k3} for the package`,
    "The fixture is VGhpcyBmaXh0dXJlIGhvbGRzIHBsYWluIHdvcmRzIGZvciB0aGUgdXBsb2FkIGVuZHBvaW50IHRlc3RzLCBvaw== in the upload test",
    `A key looks like ${"A".repeat(86)}== in the docs`,
  ]) assert.deepEqual(findSecrets(text).issues.map((i) => i.code), [], text);
});

test("a key of mixed case with few digits after its name is a secret (\"the Oanda API key R7gK…\"), though capitalised runs of letters make up half of it: a drawn key holds a lone lower-case letter between capitals or digits, a name of words does not", () => {
  // Made-up values in the shapes of trufflehog's Oanda, Reply.io and Tyntec examples, built in pieces.
  const k1 = "R7gKwpEAnoTc" + "tMxqLvnYHoXE";
  const k2 = "Q8tVcJMii3GG" + "hyRmzEDfttno";
  const k3 = "4BZo8XEgSEofwdIlSj" + "dlvPfuzTpPIarb";
  assertCaught([
    [`The Oanda API key ${k1} unlocks the sandbox account.`, k1, /./],
    [`The replyio API key ${k2} unlocks the sandbox account.`, k2, /./],
    [`The tyntec API key ${k3} unlocks the sandbox account.`, k3, /./],
  ]);
  for (const text of ["The token encoder we ship is Base64UrlEncoder256.", "The token is OAuth2TokenProvider2024 in the config"]) {
    assert.deepEqual(findSecrets(text).issues.map((i) => i.code), [], text);
  }
});

test("a random key quoted alone in a sentence, no name before it, is a secret (\"then paste 'Zx8f…' into the box\" was accepted); quoted hex digests, UUIDs, base64 of plain text, stand-ins, names, paths, ids and values assigned in code are not", () => {
  // Made-up values, built in pieces so no line of this file reads as one.
  const k1 = "Zx8fQ2mLk9R7tB3wVn4Y" + "p6Hc1Jd5Gs0Ke8Ua2Wq7";
  const k2 = "Hq8vN2kL7mX4pR9tZ3cW" + "b6Yd1Jf5Gs0q";
  const k3 = "Tq7+Lm2/Zx8fQ2mLk9R7" + "tB3wVn4Yp6Hc1Jd5Gs0K=";
  assertCaught([
    [`Then paste "${k1}" into the box and save.`, k1, /stand/],
    [`The mailer only worked after I used '${k2}' instead of the old one.`, k2, /stand/],
    [`Support told us to send "${k3}" again (it expires on Friday).`, k3, /stand/],
  ]);
  for (const text of [
    'Revert "9b2d7f4a1c8e5b3d4f9c2e7a1b8d3f6a0c5e9b2d" before the release.',
    "The empty file hashes to 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855' with sha256.",
    'Look the run up by "c0a8f3e2-7b4d-4e1f-9a6c-2d5b8e7f1a34" in the dashboard.',
    'The fixture sends "SGVsbG8gV29ybGQhIFRoaXMgaXMgYSB0ZXN0IGZpeHR1cmU=" to the upload endpoint.',
    'Keys look like "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx" or "AAAAAAAAAAAAAAAAAAAAAAAAAAAA" in the docs.',
    'Replace "<your-key-goes-here-1234567890>" with the real one from the vault.',
    'Register "Jackson2ObjectMapperBuilderCustomizer" and "WebGL2RenderingContext" first.',
    'The build writes to "src/Zp8Kx3Vm7Lq2Wn9Rt4Bs/output" each time.',
    'const requestId = "Zp8Kx3Vm7Lq2Wn9Rt4Bs6Yc1Hd5"; log it on failure.',
    'The sheet id "1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms" is read by scripts/budget.ts',
    'The lockfile pins "sha512-Zp8Kx3Vm7Lq2Wn9Rt4Bs6Yc1Hd5Jf0G+abc/def==" for it.',
    'The header is always "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9" for HS256.',
  ]) assert.deepEqual(findSecrets(text).issues.map((i) => i.code), [], text);
});
