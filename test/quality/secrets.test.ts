// Secrets: every planted secret is found, masked, and never echoed in any message.
import { test } from "node:test";
import assert from "node:assert/strict";
import { findSecrets } from "../../src/quality/secrets.js";
import { validateLessonText } from "../../src/quality/gates.js";
import { hostileLessons, SECRET_VALUES } from "../fixtures/hostile-lessons.js";

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
