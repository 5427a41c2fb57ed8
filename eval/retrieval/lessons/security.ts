// Security lessons across stacks: hand-written facts, restatements, look-alike distractors, filler fragments.
import { factory, type StackData } from "../spec.js";

// Security advice applies whatever the stack, so most of these lessons declare none.
const f = factory([], ["security"]);

export const security: StackData = {
  stack: [],
  facts: [
    f("sec.sql-injection", "correction", "security", "The report filter built SQL with string interpolation of the sort column and was injectable; bind values as parameters and map sort fields through an allow-list.", { priority: "critical", tags: ["sql", "injection"], dont: ["interpolate user input into SQL"] }),
    f("sec.jwt-alg", "correction", "security", "The JWT verifier accepted whatever algorithm the token header named, including none; pin the expected algorithm and key when verifying.", { priority: "critical", tags: ["jwt", "auth"], triggers: ["alg"] }),
    f("sec.jwt-alg~2", "correction", "security", "Token verification must fix the signing algorithm on our side; trusting the alg field in the token header let forged tokens through."),
    f("sec.password-hash", "decision", "security", "Passwords are hashed with argon2id (or bcrypt cost 12 in the legacy service); the old SHA-256 with a global salt was migrated on next login.", { tags: ["passwords", "auth"] }),
    f("sec.ssrf-webhooks", "correction", "security", "User-configured webhook URLs could target 169.254.169.254 and internal services; resolve the host and block private, loopback and link-local ranges before fetching.", { priority: "high", tags: ["ssrf", "webhooks"] }),
    f("sec.cookie-flags", "commitment", "security", "Session cookies are HttpOnly, Secure and SameSite=Lax; the old cookie was readable by scripts and stolen through an XSS in the comments widget.", { tags: ["cookies", "sessions"], do: ["set HttpOnly, Secure and SameSite on session cookies"] }),
    f("sec.xss-dangerously", "correction", "security", "Rendering user bios with dangerouslySetInnerHTML allowed stored XSS; sanitise with DOMPurify on render or render as text.", { tags: ["xss", "react"], stack: ["react"], triggers: ["dangerouslySetInnerHTML"] }),
    f("sec.idor", "correction", "security", "GET /invoices/:id returned any invoice to any logged-in user; every lookup by id must also check that the record belongs to the caller's account.", { priority: "critical", tags: ["authorization", "idor"] }),
    f("sec.rate-limit-login", "decision", "security", "Login and password-reset endpoints are rate limited per account and per IP; a credential-stuffing run tried 200k passwords in a night.", { tags: ["rate-limiting", "auth"] }),
    f("sec.secrets-logs", "correction", "security", "Request logging printed Authorization headers and the payment token into the log store; redact sensitive headers and fields in the logger config.", { tags: ["logging", "secrets"], priority: "high" }),
    f("sec.dependency-audit", "commitment", "security", "npm audit / pip-audit / cargo audit run in CI and high-severity advisories block merges unless an exception with an expiry date is recorded.", { tags: ["dependencies"], globs: [".github/workflows/*.yml"] }),
    f("sec.cors-wildcard", "correction", "security", "Access-Control-Allow-Origin reflected any origin together with credentials, so any site could read user data; allow-list the known front-end origins.", { tags: ["cors"] }),
    f("sec.path-traversal", "correction", "security", "The file download endpoint joined the user-supplied name onto the uploads directory, so ../ reached config files; resolve the path and check it stays inside the base directory.", { priority: "high", tags: ["path-traversal"] }),
    f("sec.csp", "decision", "security", "The web app ships a Content-Security-Policy without unsafe-inline; inline scripts moved to files with nonces for the two that must stay.", { tags: ["csp", "headers"] }),
    f("sec.reset-token", "correction", "security", "Password reset tokens never expired and were stored in plain text; store a hash, expire them after 30 minutes and invalidate on use.", { tags: ["auth", "tokens"] }),
    f("sec.mass-assignment", "correction", "security", "Updating the user from the request body let a user set is_admin=true; whitelist updatable fields explicitly.", { tags: ["mass-assignment"], priority: "high" }),
    f("sec.timing-compare", "insight", "security", "Webhook signatures were compared with ===, which leaks timing; use crypto.timingSafeEqual (or hmac.compare_digest in Python).", { tags: ["webhooks", "crypto"] }),
    f("sec.yaml-load", "correction", "security", "yaml.load on uploaded config files could instantiate arbitrary Python objects; use yaml.safe_load.", { tags: ["yaml", "deserialization"], stack: ["python"] }),
    f("sec.open-redirect", "correction", "security", "The login page redirected to any ?next= URL, which phishing mails abused; only allow relative paths or known hosts.", { tags: ["redirects"] }),
    f("sec.2fa-backup", "decision", "security", "Admins must use WebAuthn or TOTP; backup codes are hashed and single-use.", { tags: ["mfa"] }),
    // Distractors
    f("sec.x-security-training", "workflow_note", "process", "Annual security awareness training is due in March; HR sends the links."),
    f("sec.x-token-design", "decision", "other", "Design tokens (colours, spacing) are exported from Figma into tokens.json and consumed by the CSS build."),
    f("sec.x-cookie-banner", "workflow_note", "other", "The cookie consent banner text is owned by legal; do not edit the copy without their review."),
    f("sec.x-password-manager", "workflow_note", "process", "Shared team credentials live in the password manager vault for the team, never in chat."),
    f("sec.x-redirect-marketing", "workflow_note", "other", "Marketing short links redirect through the link service; campaign owners manage them in its UI."),
  ],
  modules: [
    { name: "the login flow", glob: "src/auth/login/**" },
    { name: "the file upload endpoint", glob: "src/uploads/**" },
    { name: "the webhook receiver", glob: "src/webhooks/**" },
    { name: "the admin console", glob: "src/admin/**" },
    { name: "the public API gateway", glob: "gateway/**" },
  ],
  atoms: [
    { advice: "log authentication failures with the account id but never the password", reason: "an incident review found passwords in the logs", category: "security" },
    { advice: "check authorization in the service layer, not only in the UI", reason: "a hidden button still worked through the API", category: "security" },
    { advice: "limit request body size", reason: "a huge JSON body exhausted memory", category: "security" },
    { advice: "use a vetted library for crypto instead of writing it", reason: "a hand-rolled token scheme was predictable", category: "security" },
    { advice: "rotate signing keys on a schedule", reason: "a key shared with a former vendor stayed valid for years", category: "security" },
    { advice: "set security headers in one middleware", reason: "new routes shipped without them", category: "security" },
    { advice: "threat-model new integrations before building them", reason: "a partner callback allowed unauthenticated writes", category: "process" },
    { advice: "expire sessions after inactivity", reason: "shared computers kept users logged in for weeks", category: "security" },
    { advice: "return the same error for unknown user and wrong password", reason: "attackers enumerated registered emails", category: "security" },
    { advice: "validate content types on upload", reason: "an HTML file was served from the uploads domain", category: "security" },
    { advice: "keep an audit log of admin actions", reason: "nobody could say who changed a customer's plan", category: "process" },
    { advice: "encrypt backups and test restoring them", reason: "an unencrypted backup sat in a public bucket", category: "security" },
    { advice: "review access to production quarterly", reason: "former contractors still had database access", category: "process" },
    { advice: "disable directory listings on static hosts", reason: "a backup archive was downloadable", category: "security" },
    { advice: "use short-lived credentials for automation", reason: "a leaked CI token stayed valid for a year", category: "security" },
  ],
};
