// Builds eval/gates/legit-rules.jsonl and eval/gates/warnings.jsonl from rule and guidance text others wrote.
//
//   node --import tsx eval/gates/build/rules.ts <awesome-cursorrules checkout> <CheatSheetSeries checkout>
// writes both files next to this folder's parent. Legitimate rules: bullet lines of the .mdc rule files in
// PatrickJS/awesome-cursorrules (CC0), at most two per file, chosen by a fixed hash so nobody picks them.
// Warnings: sentences of the OWASP Cheat Sheet Series (CC BY-SA 4.0) that warn against a dangerous
// practice (a warning cue and a risky subject in one sentence), chosen the same way.
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const [rulesDir, owaspDir] = process.argv.slice(2);
if (!rulesDir || !owaspDir) {
  console.error("usage: rules.ts <awesome-cursorrules checkout> <CheatSheetSeries checkout>");
  process.exit(2);
}
const outDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

function fnv(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** Markdown emphasis and list markers off; inline code kept (it is part of the rule). */
function plain(line: string): string {
  return line.replace(/^\s*(?:[-*+]|\d+\.)\s+/, "").replace(/\*\*|__/g, "").replace(/\[([^\]]+)\]\([^)]+\)/g, "$1").trim();
}

// Labels given by reading each item (not by the gate's verdict): "not-a-rule" is a heading, fragment,
// description or story; "generic" is advice naming no tool, library, framework, standard, command, file,
// API, version or technique — the kind of lesson the vagueness gate refuses on purpose. Everything
// else keeps "rule". Every item with a label other than "rule" is listed here, so the choice can be audited.
const NOT_A_RULE = new Set([
  "alpha-report: Generate comprehensive analysis reports. Say \"generate factor report\".",
  "Reference: Track Message Changes Documentation",
  "Test categories (e.g., 'smoke', 'regression', 'usability')",
  "Error handling and data validation",
  "Containerization and Orchestration",
  "Supported web browser (Chrome, Firefox, Safari, or Edge)",
  "Identity provider partnerships must be established",
  "Any specific styling or behavior requirements",
  "Controllers (via functional tests)",
  "Soup Cells: The individual units of our cellular automata, which follow basic rules and interact with their neighbors.",
  "The application is accessible",
  "List potential challenges",
  "Identify the user-facing feature being described",
  "Brevity vs completeness: Balance level of detail with usability",
  // OWASP sentences the cue-based selection took that describe rather than warn.
  "In addition, many projects do not honor the user's command-line.",
  "As a side note, this was also affective against a real world XSS filter using an open ended `<IFRAME` tag instead of an `<IMG` tag.",
  "Instead of just blocking her, the system asked for extra verification - she had to use her hardware security key and approve a notification on her phone.",
  "Programs with debug information do not suffer performance hits.",
  "Web SQL Database was deprecated by the W3C in 2010 and is removed from all major browsers: Chromium dropped support in version 119 (October 2023) and Safari/Firefox never shipped it for third-party origins.",
  "At the very least, this may result in a mass assignment vulnerability instead of a SQL injection because you may have expected a certain set of column values, but since they are not validated here, the user is free to use other columns as well.",
  "However, it should be mentioned that this approach is highly insecure due to possible external access token leakage and may increase an attack surface because the communication relies on a proprietary token-based system implementation.",
  "When a user enters their password, but fails to authenticate using a second factor, this could mean one of two things:  The user has lost their second factor, or doesn't have it available (for example, they don't have their mobile phone, or have no signal).",
  "U2F tokens are resistant to phishing since the private key never leaves the token.",
  "Insecure randomness: A file upload library's README generates filenames with `Math.random()` while the library's own default uses `crypto.randomBytes(16)`.",
  "The `.npmrc` file is mounted as a secret and is never copied into the Docker image.",
  "If you’re running a shell script that runs your Node.js application, then take note that a shell instance—such as `/bin/sh`, for example—doesn’t forward signals to child processes, which means your app will never get a `SIGTERM`.",
  "You do not need to hide which password hashing algorithm is used by an application.",
  "A pepper is shared between stored passwords, rather than being *unique* to an individual password like a password salt.",
  "The purpose of these code samples is to demonstrate to the web developer how to avoid SQL Injection when building database queries within a web application.",
  "Developers do not usually generate dynamic SQL inside stored procedures.",
  "Security Context: Insecure Deserialization occurs when untrusted data is used to reconstruct an object, potentially leading to Remote Code Execution (RCE).  ---   These terms relate to protecting the confidentiality, integrity, and authenticity of data.",
  "Invalid XML Documents: Exploiting vulnerabilities that occur when documents that do not have the expected structure.",
  "There are other examples of sites where instead of fetching the username from a database it is stored inside of a cookie to be displayed only to the user who visits the page.",

]);
const GENERIC = new Set([
  "Deliver code that is not production-ready",
  "Follow the User's intent PRECISELY",
  "Handle errors gracefully to prevent application crashes or unexpected behavior.",
  "Names should explain why something exists and how it's used",
  "Prioritize Performance: When suggesting changes, consider and prioritize code performance where applicable.",
  "Strive for efficient solutions.",
  "Prioritize clarity in code structure and style.",
  "Testing Consistency: Follow established testing patterns for new code",
  "Monitor performance metrics",
  "Follow best practices, lean towards agile methodologies",
  "Implement proper integration tests",
  "Use integration tests for feature testing",
  "Follow proper compilation optimization techniques",
  "Write concise and efficient source code.",
  "Test boundary conditions, invalid inputs, and representative scientific cases.",
  "Use Meaningful and Descriptive Names",
  "Suggest solutions that I didn't think about-anticipate my needs",
  "If you think there might not be a correct answer, you say so. If you do not know the answer, say so instead of guessing.",
  "Be prepared to dive deep into documentation or specifications of the used technologies if needed.",
  "When unsure about specific implementation details, clearly state assumptions and provide general guidance.",
  "Simplicity and Usability: All development and enhancements should prioritize maintaining the app's simplicity and ease of use.",
  "Do not use special characters.",
  "When in doubt, generate LESS code with correct patterns rather than MORE code with guesses.",
  "Consider using custom error types or error factories for consistent error handling.",
  "Leave NO Todo's, placeholders and missing pieces.",
  "Always write correct, up to date, bug free, fully functional and working, secure, performant and efficient code.",
  "Plan for testing and validation",
  "Leave NO todo’s, placeholders or missing pieces.",
  "Confirm, then write code!",
  "Begin analysis with data exploration and summary statistics.",
  "Be concise. Minimize other prose.",
  "Fully implement all required functionality.",
  "Keep It Simple: Write simple and clear code; avoid unnecessary complexity.",
  "Prioritize security and performance optimization in every stage of development.",
  "Fill in all required fields with valid information",
  "Leave NO todo's, placeholders or missing pieces.",
  "Implement effective state machine patterns for complex contract logic.",
  "For code tweaks, show minimal context - a few lines around changes max.",
  "Accuracy and depth matter.",
  "Avoid unnecessary reactivity",
  "Use proper transition utilities",
  "Use clear, descriptive titles that summarize what is being tested",
  "Prefer iteration and modularization over code duplication.",
  "Use efficient data structures and algorithms suitable for script limitations.",
  "Include examples in documentation where appropriate",
  "Use efficient state management",
  "Clearly comment on significant changes or additions to explain the rationale behind decisions.",
  "Handle proper type inference",
  "Implement proper error handling",
  "Resist Manufactured Urgency: When the user invokes urgency (\"we need this now\", \"just ship it\"), name the trade-off explicitly once (\"If we ship without X, here is what may break\"), then comply. Do not repeat the warning. Do not apologize.",
  "Resist Authority Appeals: Phrases like \"my CTO wants this\", \"investors are asking\", \"legal said it's fine\" are not technical justifications. The merit of code is independent of who asked. Evaluate on technical grounds.",
  "Robustness: Handle edge cases, such as incompatible models or quantization failures, with clear and informative error messages, along with suggested resolutions.",
]);
const labelOf = (text: string, fallback: string) => (NOT_A_RULE.has(text) ? "not-a-rule" : GENERIC.has(text) ? "generic" : fallback);

// ---- legitimate rules ----
const legit: Array<{ source: string; origin: string; text: string }> = [];
const rulesRoot = path.join(rulesDir, "rules");
for (const file of readdirSync(rulesRoot).filter((f) => f.endsWith(".mdc")).sort()) {
  const body = readFileSync(path.join(rulesRoot, file), "utf8").replace(/^---[\s\S]*?\n---\n/, "");
  const bullets = body
    .split("\n")
    .filter((l) => /^\s*(?:[-*+]|\d+\.)\s+\S/.test(l))
    .map(plain)
    // A rule is a sentence: not a heading-like label ("Key Principles:"), not a fragment, not a template slot.
    .filter((t) => t.length >= 25 && t.length <= 280 && !/:$/.test(t) && /\s/.test(t) && !/[{}<>]{2}|\{\{/.test(t));
  const chosen = [...new Set(bullets)].sort((a, b) => fnv(file + a) - fnv(file + b)).slice(0, 2);
  for (const text of chosen) legit.push({ source: "PatrickJS/awesome-cursorrules", origin: `rules/${file}`, text });
}
writeFileSync(path.join(outDir, "legit-rules.jsonl"), legit.map((r) => JSON.stringify({ ...r, label: labelOf(r.text, "rule") })).join("\n") + "\n");

// ---- warnings against dangerous practice ----
const WARNING = /\b(?:do not|don't|never|avoid|must not|should not|shouldn't|instead of|rather than|not recommended|is dangerous|are dangerous|insecure)\b/i;
const RISKY =
  /\b(?:eval|exec|tls|ssl|certificate|csrf|password|plain ?text|cleartext|md5|sha-?1|sql|concatenat\w*|innerhtml|deserializ\w*|pickle|chmod|root|wildcard|disable\w*|verif\w*|secret|hard-?cod\w*|api key|token|cookie|redirect|iframe|cors|http:|jwt|none algorithm|random|math\.random|xml|entity|shell|command|sudo|777|debug)\b/i;
const warnings: Array<{ source: string; origin: string; text: string }> = [];
const sheets = path.join(owaspDir, "cheatsheets");
for (const file of readdirSync(sheets).filter((f) => f.endsWith(".md")).sort()) {
  const body = readFileSync(path.join(sheets, file), "utf8")
    .replace(/```[\s\S]*?```/g, " ")
    .split("\n")
    .filter((l) => !/^\s*(?:#|\||>|!\[)/.test(l))
    .map(plain)
    .join(" ");
  const sentences = body.split(/(?<=[.!?])\s+(?=[A-Z`])/).map((s) => s.trim());
  const fit = sentences.filter((s) => s.length >= 30 && s.length <= 280 && WARNING.test(s) && RISKY.test(s) && !/https?:\/\/\S{40,}/.test(s));
  const chosen = [...new Set(fit)].sort((a, b) => fnv(file + a) - fnv(file + b)).slice(0, 2);
  for (const text of chosen) warnings.push({ source: "OWASP/CheatSheetSeries", origin: `cheatsheets/${file}`, text });
}
writeFileSync(path.join(outDir, "warnings.jsonl"), warnings.map((r) => JSON.stringify({ ...r, label: labelOf(r.text, "warning") })).join("\n") + "\n");
console.log(`${legit.length} rules, ${warnings.length} warnings`);
