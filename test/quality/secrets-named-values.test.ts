// Secrets named in their clause (a key, secret, token or password, then is/to/:/=) and the words around them that do or do not excuse the value.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { findSecrets } from "../../src/quality/secrets.js";
import { assertCaught, assertPasses } from "../helpers/secret-verdicts.js";
import { growth } from "../helpers/cost.js";

test("a named mixed-case key of 16–19 characters with fewer than 3 digits is a secret; CamelCase names made of words stay readable", () => {
  // Drawn at random from upper and lower case (0, 1 or 2 digits): what many providers' short keys look like.
  const keys = ["QmVzdFRvaWVuQWJj", "xKpLmNqRtZvWbYcHa", "RtZvWbYcHxKpLmNq", "nQeRtZvWbYcHxKpLmN7", "GkWzTqPbNmXcRvYs4j"];
  assertCaught([
    [`the billing api key is ${keys[0]}`, keys[0]!],
    [`set the webhook secret to ${keys[1]}`, keys[1]!],
    [`the deploy token is ${keys[2]}`, keys[2]!],
    [`the api key we use for billing is ${keys[3]}`, keys[3]!],
    [`the webhook secret we rotated is ${keys[4]}`, keys[4]!],
    [`our password for the admin console is ${keys[2]}`, keys[2]!],
    [`API_TOKEN=${keys[1]}`, keys[1]!],
    [`clientSecret: "${keys[4]}"`, keys[4]!],
  ]);
  assertPasses([
    "the setting is called MaxRetryAttempts",
    "set the flag to EnableFastPath",
    "the api key is read by BillingServiceApiKeyLoader at start",
    "the token is issued by AccessTokenProviderFactory",
    "set the secret provider to DefaultAzureCredential",
    "the secret is stored under ClientSecretValueName",
    "the token comes from XMLHttpRequestUpload events",
    "apiToken: useAuthenticatedFetchHook",
    "authProvider = NSURLSessionDataTaskAuth",
  ]);
});

test("a secret's word ending a camelCase name said in a sentence names a secret: `set deploySecret to …`, `the apiToken is …`; a page or cache token and names of words do not", () => {
  const key = "xKpLmNqRtZvWbYcH1";
  const hex = "9f8e7d6c5b4a39281706f5e4d3c2b1a0";
  assertCaught([
    [`set deploySecret to ${key}`, key],
    [`the apiToken is ${key}`, key],
    [`set \`stripeApiKey\` to ${hex}`, hex],
    [`our clientSecret was ${hex} until the rotation`, hex],
    [`dbPassword is Summer2024x`, "Summer2024x"],
    [`apiToken: ${key}`, key],
    [`dbPassword=${key}`, key],
  ]);
  assertPasses([
    "set deploySecret to the value from the vault",
    "the apiToken is DefaultAzureCredential in prod",
    "the nextPageToken is CiAKGjBpNDd2Nmp4dTRyMnc3aGE in the response",
    "set cancellationToken to CancellationToken.None",
    "the authToken is stored in localStorage",
    "dbPassword is required",
  ]);
});

test("release, version, build, commit or tag near a value named a key, secret or token does not excuse it; they excuse it only when they name what the value is (the token's version, the key rotation commit)", () => {
  const key = "Xk9mQ2vLpRtZwYbNcH4fJ8sD1aGh3KzE";
  const hex = "4f9c2a7e1b8d3f6a0c5e9b2d7f1a4c8e";
  // A key's length in base36 (letters and digits all through) and in letters of both cases: after a bare "key".
  const base36 = "k3v9q1x7m2p8z4w6r5t0y1u2i3o4a5s6";
  const letters = "Xk9mQ2vLpRtZwYbNcHfJsDaGhKzEqWeR".replace(/\d/g, "j");
  assertCaught([
    [`the token for release builds is ${key}`, key],
    [`the secret used in the build step is ${key}`, key],
    [`the api key for version 2 is ${key}`, key],
    [`the secret of the release job is ${hex}`, hex],
    [`the access token we tagged in the release notes: ${key}`, key],
    [`use ${key} as the release token`, key],
    [`use ${hex} as the build secret for CI`, hex],
    [`the release key is ${base36}`, base36],
    [`the release key is ${letters}`, letters],
  ]);
  assertPasses([
    `the token's version is ${key}`,
    `the api key's request id: ${key}`,
    `the api key rotation commit is ${hex}`,
    `the token's commit is ${hex}`,
    `use ${hex} as the version of the api key`,
    "the api key id for the release bucket is 1234abcd-12ab-34cd-56ef-1234567890ab",
    // A release key's fingerprint in hex is public (Node.js publishes its release keys' fingerprints); a cache key is a digest.
    "the release key is 4ED778F539E3634C779C87C6D7062848A1AB005C",
    `the cache key is ${base36}`,
    `the idempotency key is ${letters}`,
  ]);
});

test("a password-like value (letters, digits and symbols) after a secret's, a token's or a key's name and is/to/:/= is a secret, not only after a password's; stand-ins, handles, addresses and settings are not", () => {
  assertCaught([
    ["the deploy secret is Gr33n&Tea#42", "Gr33n&Tea#42"],
    ["the staging token is p@ss-W0rd!x", "p@ss-W0rd!x"],
    ["our api key is Gr33n&Tea#42.", "Gr33n&Tea#42"],
    ["the webhook secret: T0p$ecret!9", "T0p$ecret!9"],
    ["set the signing secret to h@rd2Guess!", "h@rd2Guess"],
    ["the OAuth credentials are Zx9#mQ!2pL", "Zx9#mQ!2pL"],
    ["the admin token was 'Blue-Sky&42x' until Monday", "Blue-Sky&42x"],
  ]);
  assertPasses([
    "the deploy secret is <your-token>",
    "the staging token is ${TOKEN}",
    "the token is ***",
    "the api key is xxx",
    "the deploy token is $DEPLOY_TOKEN_2!",
    "the token is scope=repo2&ro",
    "secretKey = key1+key2",
    "the token owner is deploy-bot2@corp.io",
    "the secret is stored at vault://kv/deploy#v2",
    "the auth token is @deploy-bot2's to rotate",
    "the token is #release-2024!",
    "the token is valid for 5 minutes & refreshed after 4",
    "the secret is rotated every 90 days!",
    "the api key is sent in the X-Api-Key header on every call & never logged!",
  ]);
});

test("an unquoted value assigned to a secret's or a password's name is read whole through `&` and `#` (`DEPLOY_SECRET=Gr33n&Tea#42`, `DB_PASS=…`, `ansible_become_pass: …`): refused and masked to its last character; a query string's `&name=` still ends it", () => {
  const value = "Gr33n&Tea#42";
  for (const text of [
    `DEPLOY_SECRET=${value}`,
    `export DEPLOY_SECRET=${value}`,
    `DB_PASS=${value}`,
    `SMTP_PASSPHRASE=${value} in the .env file`,
    `ansible_become_pass: ${value}`,
    `mail.pass: Gr33n#Tea&42`,
    `API_TOKEN=p@ss-W0rd!x`,
    `deploy_secret: ${value}`,
  ]) {
    const { issues, masked } = findSecrets(text);
    assert.ok(issues.length > 0, `not refused: ${text}`);
    for (const piece of ["Gr33n", "Tea", "42", "p@ss", "W0rd"]) assert.ok(!masked.includes(piece), `${piece} left in: ${masked}`);
  }
  assertPasses([
    "DEPLOY_SECRET=${DEPLOY_SECRET}",
    "API_TOKEN=$(cat /run/secrets/api_token)",
    "secretKey = key1+key2",
    "https://app.example.com/callback?secret_name=deploy&state=ready",
  ]);
  // A query string's next parameter is not the secret's: only the value is masked.
  const { masked } = findSecrets("GET /oauth/token?client_secret=Gr33n&Tea#42&grant_type=client_credentials");
  assert.ok(!masked.includes("Tea#42") && masked.includes("&grant_type=client_credentials"), masked);
});

test("a camelCase name with words between it and its value names a secret: \"the deploySecret we rotated is …\", \"our stripeApiKey for staging is …\"; a page token, a name's or a digest's word between, and names of words do not", () => {
  const key = "Xk9mQ2vLpRtZwYbNcH4fJ8sD1aGh3KzE";
  const hex = "4f9c2a7e1b8d3f6a0c5e9b2d7f1a4c8e";
  const base36 = "k3v9q1x7m2p8z4w6r5t0";
  assertCaught([
    [`the deploySecret we rotated is ${base36}`, base36],
    [`the deploySecret we rotated is Gr33n&Tea#42`, "Gr33n&Tea#42"],
    [`our stripeApiKey for staging is ${hex}`, hex],
    [`our stripeApiKey for staging is Gr33n&Tea#42`, "Gr33n&Tea#42"],
    [`the githubToken the bot uses was ${base36}.`, base36],
    [`the dbPassword we use in staging is Summer2024x`, "Summer2024x"],
    [`the webhookSecret for the billing app: ${key}`, key],
  ]);
  assertPasses([
    "the deploySecret we rotated is stored in the vault",
    `the nextPageToken we got back is ${base36}`,
    `the deploySecret file name is ${base36}`,
    `the stripeApiKey we use in tests is ${hex.slice(0, 12)}`,
    `the apiToken in the sample config is Gr33n&Tea#42`,
    "the deploySecret we use for staging is DeploySecretStagingV2",
    "the deploySecret we rotated is read by SecretRotationJobRunner2024",
  ]);
});

test("a digest named a cache key, a digest, a checksum or a hash (`cache key: <88-character base64>`, `build cache key = <sha256 hex>`) is no secret, in words or in code; a secret's or an account's key of the same shape still is", () => {
  const sha512 = createHash("sha512").update("pnpm-lock.yaml").digest("base64");
  const sha384 = createHash("sha384").update("pnpm-lock.yaml").digest("base64");
  const sha256 = createHash("sha256").update("pnpm-lock.yaml").digest("base64");
  const hex = createHash("sha256").update("pnpm-lock.yaml").digest("hex");
  assertPasses([
    `…cache key: ${sha512}`,
    `the build cache key: ${sha256}`,
    `cache key: ${sha384}`,
    `the cache key is ${sha512}`,
    `build cache key = ${hex}`,
    `cache_key=${sha512}`,
    `CACHE_KEY: ${sha512}`,
    `cacheKey: "${sha256}"`,
    `the idempotency key: ${sha512}`,
    `the token checksum: ${hex}`,
    `the api key digest is ${sha256}`,
    `secret_hash = "${sha512}"`,
  ]);
  assertCaught([
    [`the account key: ${sha512}`, sha512],
    [`the api key: ${sha256}`, sha256],
    [`AccountKey=${sha512}`, sha512],
    [`the deploy secret is ${sha512}`, sha512],
    [`client_secret = "${hex}"`, hex],
  ]);
});

test("a password-like value is a secret however its name gives it: with words between (\"the deploy secret we rotated is …\"), \"is now\", \"key:\", or \"use … as the deploy secret\"; the same words that excuse a random value excuse it", () => {
  assertCaught([
    ["the deploy secret we rotated is Gr33n&Tea#42", "Gr33n&Tea#42"],
    ["the token we use for staging was p@ss-W0rd!x.", "p@ss-W0rd!x"],
    ["the deploy secret is now Gr33n&Tea#42", "Gr33n&Tea#42"],
    ["the signing key: Gr33n&Tea#42", "Gr33n&Tea#42"],
    ["use Gr33n&Tea#42 as the deploy secret", "Gr33n&Tea#42"],
    ["paste 'p@ss-W0rd!x' as the staging token in the dashboard", "p@ss-W0rd!x"],
  ]);
  assertPasses([
    "the deploy secret we rotated is stored in the vault",
    "the deploy secret's file name is deploy&secret#2.txt",
    "the api key header we send is X-Api-Key#2!",
    "the token we rotated is now in the vault@prod1",
    "use key1+key2 as the cache key",
    "use ops2@corp.io as the token's owner",
    "the deploy secret is now rotated every 30 days!",
  ]);
});

test("a password-like value assigned to a name ending in 'key' is a secret (LICENSE_KEY=, APP_KEY:, licenseKey=, quoted or not); keys that open nothing and shortcuts stay writable", () => {
  // gitleaks' generic rule reads only [\w.=-] after a key's name, so a value with #, $, @ or ! passed whole.
  assertCaught([
    ["Set LICENSE_KEY=Xk9#mP2$vL8@qR4! in the build environment before packaging.", "Xk9#mP2$vL8@qR4!"],
    ['Export LICENSE_KEY="Xk9#mP2$vL8@qR4!" before running the installer.', "Xk9#mP2$vL8@qR4!"],
    ["Set APP_KEY=Gr33n&Tea#42 for Laravel in staging.", "Gr33n&Tea#42"],
    ["Set ENCRYPTION_KEY=Gr33n&Tea#42 in the worker env.", "Gr33n&Tea#42"],
    ["master_key: p@ss-W0rd!x goes in the vault host's config.", "p@ss-W0rd!x"],
    ["Set licenseKey=Xk9#mP2$vL8@qR4! in config/app.json.", "Xk9#mP2$vL8@qR4!"],
    ["Pass --license-key=Zx9#mQ!2pL to the installer.", "Zx9#mQ!2pL"],
  ]);
  assertPasses([
    "The DynamoDB table uses PK=USER#1234 and SK=ORDER#2024 as keys.",
    "Set sort_key=ORDER#2024-01 for the single-table design.",
    "Use partitionKey=tenant#2024 for the Cosmos container.",
    "Set CACHE_KEY=deps-v2#node20 so the cache invalidates on Node upgrades.",
    "Bind shortcut_key=Ctrl+Alt+F5 to reload the preview.",
    "Set hotkey=Ctrl+Shift+F12 in keybindings.json for the palette.",
    "Set primary_key=user_id#v2 in the schema for the join.",
    "Use i18n_key=home.title#2 for the translated heading.",
  ]);
});

test("settings after a token's word (`token scope=repo2&read=yes`) are an OAuth scope, not a token; a random value among them still is one", () => {
  assertPasses([
    "The token scope=repo2&read=yes grants read access only.",
    "Our OAuth app requests token scope=repo2&read=yes for the mirror bot.",
    "The token type=bearer&expires_in=3600 comes back from /oauth/token.",
  ]);
  assertCaught([
    ["The token access_token=k3v9q1x7m2p8z4w6r5t0&scope=repo came back in the redirect.", "k3v9q1x7m2p8z4w6r5t0"],
    ["The token is Gr33n&Tea#42 for staging.", "Gr33n&Tea#42"],
  ]);
});

test("the reader of values assigned to a key's name stays linear: repeated names, one long name, values that never end", () => {
  const shapes: Array<[string, (n: number) => string]> = [
    ["repeated key names", (n) => "a_key=".repeat(n / 6)],
    ["repeated assignments", (n) => "LICENSE_KEY=Xk9#mP2$vL8@qR4! ".repeat(n / 29)],
    ["one long name", (n) => `${"a_".repeat(n / 2)}key=Xk9#mP2$vL8@qR4!`],
    ["a value that never ends", (n) => `app_key=${"x#1".repeat(n / 3)}`],
  ];
  for (const [name, make] of shapes) {
    const small = make(20_000);
    const large = make(80_000);
    const ratio = growth(() => findSecrets(small), () => findSecrets(large), { calls: 1, batches: 3 });
    assert.ok(ratio < 10, `${name}: 4× the text cost ${ratio.toFixed(1)}× as much`);
  }
});
