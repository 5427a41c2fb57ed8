// The vagueness gate on shapes of rule found in other people's rule collections (eval/gates/vague-sample.ts): generic ones refused, specific ones kept.
import { test } from "node:test";
import assert from "node:assert/strict";
import { checkVagueness } from "../../src/quality/vague.js";

const codes = (issues: { code: string }[]) => issues.map((i) => i.code);

test("a routine check on a common object of the trade, saying neither which nor against what, is vague: \"Always validate the request.\"", () => {
  // Accepted before: "request", "payload", "exception" are domain words, so the rule read as specific, while "Always validate
  // inputs." was refused. Which request, validated against what, is the rule; the same verb on "the request" is the same wish.
  for (const text of [
    "Always validate the request.", "Validate requests.", "Always validate the payload.", "Validate all parameters.",
    "Check the response.", "Verify responses.", "Log exceptions.", "Handle exceptions.", "Always sanitize request parameters.",
    "Validate arguments.",
  ]) assert.deepEqual(codes(checkVagueness(text)), ["vague"], text);
  // Which part, against what, when, or a verb that chooses how to treat them: rules.
  for (const text of [
    "Validate the request body against the schema before use.", "Validate the request's Content-Type header.",
    "Retry the request once on a 503.", "Compress responses.", "Stream responses.", "Paginate responses.",
    "Never log requests.", "Log exceptions with their stack trace.", "Validate webhook payloads.", "Handle the callback.",
    "Always validate the request signature.", "Check the response status.",
  ]) assert.deepEqual(checkVagueness(text), [], text);
});
