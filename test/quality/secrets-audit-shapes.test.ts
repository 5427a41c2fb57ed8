// Secrets written in shapes the last audit found passing: a key element in XML, a `*pass:` YAML field, a Yoda or `.equals` comparison, a Go multi-assignment, a value on the line after its name.
import { test } from "node:test";
import { assertCaught, assertPasses } from "../helpers/secret-verdicts.js";

const PW = "Xq7mZ2wK1";

test("an XML element whose name ends in Key holds a password-like value; a sort, cache or primary key element holds a name", () => {
  assertCaught([
    ["<licenseKey>Xk9#mP2$vL8@qR4!</licenseKey>", "Xk9#mP2$vL8@qR4!"],
    ["<signingKey>Gr33n&Tea#42x</signingKey>", "Gr33n&Tea#42x"],
    ["<masterKey>q8ZtR2vLm9XwK4pN7sYb</masterKey>", "q8ZtR2vLm9XwK4pN7sYb"],
  ]);
  assertPasses(["<sortKey>created_at</sortKey>", "<cacheKey>user:42:name</cacheKey>", "<primaryKey>id</primaryKey>", "<hotKey>Ctrl+Alt+F5</hotKey>", "<licenseKey>${LICENSE_KEY}</licenseKey>"]);
});

test("a YAML field whose name ends in pass without a separator (`dbpass:`, `smtppass:`, `pass:`) holds a password; bypass, compass and plain settings do not", () => {
  assertCaught([
    [`dbpass: ${PW}`, PW],
    [`smtppass: ${PW}`, PW],
    [`pass: ${PW}`, PW],
  ]);
  assertPasses(["bypass: true", "compass: north", "pass: 3", "dbpass: ${DB_PASS}", "onepass: enabled", "surpass: expectations", "pass: complete"]);
});

test("a password compared with the literal first (`\"…\" == password`) or through `.equals(…)` / strcmp is a password", () => {
  assertCaught([
    [`if "${PW}" == password:`, PW],
    [`if (${JSON.stringify(PW)}.equals(userPassword)) {`, PW],
    [`if (password.equals("${PW}")) {`, PW],
    [`if (strcmp(passwd, "${PW}") == 0)`, PW],
  ]);
  assertPasses([
    'if "" == password:',
    'if (secretName.equals("db-credentials")) {',
    'if (password.equals(confirmPassword)) {',
    'if ("admin".equals(user.role)) {',
    'if (strcmp(passwd_field, "password") == 0)',
  ]);
});

test("a Go or Python multi-assignment binds a password by position: `user, pass := \"admin\", \"…\"`", () => {
  assertCaught([
    [`user, pass := "admin", "${PW}"`, PW],
    [`user, password = "admin", "${PW}"`, PW],
    [`password, user := "${PW}", "admin"`, PW],
  ]);
  assertPasses(['user, pass := "admin", ""', 'user, pass := os.Getenv("USER"), os.Getenv("PASS")', 'name, passwordField := "admin", "password"', 'ok, bypass := "yes", "Xq7mZ2wK1"']);
});

test("a value on the indented line after its name (YAML's continued plain scalar) is the field's value", () => {
  assertCaught([
    [`password:\n  ${PW}`, PW],
    [`db_pass:\n  ${PW}`, PW],
    [`secret:\n  Gr33n&Tea#42x`, "Gr33n&Tea#42x"],
  ]);
  assertPasses(["db_pass:\n  ${DB_PASS}", "secret:\n  name: app-secret\n  key: token", "bypass:\n  enabled", "password:\n  required: true"]);
});

test("a verdict or a step headed `Pass:` and a namespaced `<a:Key>` element are not credentials", () => {
  assertPasses([
    "Pass: Least-privilege scopes, per-request authorization. Fail: Broad scopes.",
    "  - Evidence: On fail: screenshots + trace + logs. On pass: baselines.",
    "Pass: Static server-controlled definitions and data-only outputs.",
    "<a:Key>TH117{source-guid}{flow-guid}{target-guid}</a:Key>",
  ]);
});
