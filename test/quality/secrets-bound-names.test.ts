// Secrets bound to their name other than by `name = value`: a subscript, a call, a Dockerfile's ENV, a name/value pair.
// The class was found running the fixtures of Skyscanner/whispers @ 5832bf74dcb127128ba653ed87601c927124b5aa (Apache-2.0,
// tests/fixtures/language.php, language.py, language.sh, Dockerfile, integration.json) through the gate with their "hardcoded" stand-ins replaced
// by made-up values; the sentences here are written for this test, none is copied.
import { test } from "node:test";
import assert from "node:assert/strict";
import { growth } from "../helpers/cost.js";
import { findSecrets } from "../../src/quality/secrets.js";
import { assertCaught, assertPasses } from "../helpers/secret-verdicts.js";

test("a secret bound to its name by a subscript, a call, a Dockerfile's ENV or a name/value pair is refused and masked", () => {
  assertCaught([
    ["In wp-config.php we had define( 'DB_PASSWORD', 'Xq7mZ2wK1' ); until the rotation.", "Xq7mZ2wK1"],
    ["The legacy code set $config['db_password'] = 'Xq7mZ2wK1'; in config.php.", "Xq7mZ2wK1"],
    ['The script did os.environ["API_TOKEN"] = "q8Zt3LmW9xKp2VbN7rYc" at import time.', "q8Zt3LmW9xKp2VbN7rYc"],
    ["The Rakefile did ENV['SECRET_KEY'] = 'Gr33n&Tea#42' before the tasks.", "Gr33n&Tea#42"],
    ['The test called os.Setenv("GITHUB_TOKEN", "q8Zt3LmW9xKp2VbN7rYc") in setup.', "q8Zt3LmW9xKp2VbN7rYc"],
    ['The loader did os.environ.setdefault("DB_PASSWORD", "Xq7mZ2wK1") at import.', "Xq7mZ2wK1"],
    ["The image had ENV DRONE_TOKEN q8Zt3LmW9xKp2VbN7rYc in its Dockerfile.", "q8Zt3LmW9xKp2VbN7rYc"],
    ["The image had ENV DB_PASSWORD Xq7mZ2wK1 in its Dockerfile.", "Xq7mZ2wK1"],
    ['The pod spec had {"name": "DB_PASSWORD", "value": "Xq7mZ2wK1"} in env.', "Xq7mZ2wK1"],
    ['The parameter list held {"key": "api_token", "value": "q8Zt3LmW9xKp2VbN7rYc"} for the job.', "q8Zt3LmW9xKp2VbN7rYc"],
  ]);
});

test("a secret's name bound to a lookup, a variable, a stand-in or a setting that is no secret stays writable", () => {
  assertPasses([
    "Use define('DB_PASSWORD', getenv('DB_PASSWORD')) in wp-config.php.",
    "Use define('WP_DEBUG', true) and define('DB_NAME', 'wordpress') in wp-config.php.",
    "Set $config['db_password'] = getenv('DB_PASSWORD'); in config.php.",
    'Read os.environ["API_TOKEN"] at startup, never a literal.',
    "Set $config['token_ttl'] = '3600'; for short sessions.",
    "Keep define('DB_PASSWORD', 'password_here'); from the sample wp-config.php out of production.",
    'Call os.Setenv("GITHUB_TOKEN", token) in tests, never a literal.',
    "The Dockerfile sets ENV NODE_ENV production and ENV PORT 8080.",
    "The Dockerfile sets ENV API_TOKEN_FILE /run/secrets/api_token for the app.",
    'The pod spec had {"name": "DB_PASSWORD", "valueFrom": {"secretKeyRef": {"name": "db"}}} in env.',
    'The pod spec had {"name": "DB_PASSWORD_FILE", "value": "/run/secrets/db"} in env.',
  ]);
});

test("curl's other credential flags take the secret itself: --proxy-user/-U user:password, --tlspassword, --proxy-tlspassword, --proxy-pass, --pass", () => {
  assertCaught([
    ["Use curl --proxy-user admin:Xq7mZ2wK1 https://proxy.internal to test the proxy.", "Xq7mZ2wK1"],
    ["Use curl -U admin:Xq7mZ2wK1 -x proxy.internal:3128 https://example.com to test.", "Xq7mZ2wK1"],
    ["Use curl --tlspassword Xq7mZ2wK1 https://localhost for the SRP test server.", "Xq7mZ2wK1"],
    ["Use curl --proxy-tlspassword=Xq7mZ2wK1 https://localhost behind the TLS-SRP proxy.", "Xq7mZ2wK1"],
    ["Run curl --cert client.pem --pass Gr33n&Tea#42 https://mtls.internal/health for the check.", "Gr33n&Tea#42"],
  ]);
  assertPasses([
    'Use curl --proxy-user "$PROXY_USER:$PROXY_PASS" https://example.com behind the proxy.',
    "Use curl --proxy-user admin https://example.com and type the password when asked.",
    "Pass --tlspassword from a file, never on the command line.",
    "Run curl with --tlspassword from a vault lookup, not a literal.",
    "Run curl --tlspassword https://localhost and type the SRP password at the prompt.",
    "Use curl --pass $KEY_PASSPHRASE --cert client.pem for mTLS.",
    "Use -U unique to sort and deduplicate in the report script.",
  ]);
});

test("the readers of bound names stay linear: repeated subscripts, calls and ENV lines", () => {
  const shapes: Array<[string, (n: number) => string]> = [
    ["repeated subscripts", (n) => "x['db_password'] = '".repeat(n / 20)],
    ["repeated calls", (n) => "define('DB_PASSWORD', '".repeat(n / 23)],
    ["repeated ENV", (n) => "ENV API_TOKEN ".repeat(n / 14)],
    ["repeated pairs", (n) => '{"name": "DB_PASSWORD", "value": "'.repeat(n / 34)],
    ["repeated curl flags", (n) => "curl --pass --tlspassword ".repeat(n / 26)],
  ];
  for (const [name, make] of shapes) {
    const small = make(20_000);
    const large = make(80_000);
    const ratio = growth(() => findSecrets(small), () => findSecrets(large), { calls: 1, batches: 3 });
    assert.ok(ratio < 10, `${name}: 4× the text cost ${ratio.toFixed(1)}× as much`);
  }
});
