// The vagueness gate on shapes of rule found in other people's rule collections (eval/gates/vague-sample.ts): generic ones refused, specific ones kept.
import { test } from "node:test";
import assert from "node:assert/strict";
import { checkVagueness, isPlaceholderText } from "../../src/quality/vague.js";

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

test("a rule tying labels to form controls, or keeping placeholders from standing in for them, is specific: \"Label every input; placeholders are not labels.\"", () => {
  // Refused as vague before: "label" and "placeholder" are everyday words, and the accessibility phrases knew only an
  // "associated", "visible", "form", "field" or "input" label, so the verb "label" on a control and a placeholder
  // against a label named nothing.
  for (const text of [
    "Label every input; placeholders are not labels.", "Never use placeholders as labels.",
    "Use labels, not placeholders, on form inputs.", "Label each form field.", "Label all checkboxes.",
    "Give every icon button an accessible name.", "Don't use the placeholder attribute instead of a label.",
    "Label icon-only buttons.",
  ]) assert.deepEqual(checkVagueness(text), [], text);
  // Labels only wished for, or named without a control, name nothing.
  for (const text of ["Use proper labels.", "Use clear labels everywhere.", "Label things clearly.", "Keep labels consistent.", "Use good placeholders."]) {
    assert.deepEqual(codes(checkVagueness(text)), ["vague"], text);
  }
});

test("a rule about placeholder text is not placeholder text: \"Do not leave placeholder text in the UI copy.\"", () => {
  // Refused as placeholder_text before: "placeholder text" anywhere in a lesson made the whole lesson a placeholder.
  for (const text of [
    "Do not leave placeholder text in the UI copy.", "Never rely on placeholder text as a label.",
    "Replace placeholder content before the page ships.", "Never ship a form whose only label is its placeholder text.",
  ]) {
    assert.equal(isPlaceholderText(text), false, text);
    assert.deepEqual(checkVagueness(text), [], text);
  }
  // A text that is itself the placeholder still is.
  for (const text of ["placeholder text goes here", "This is placeholder text.", "Placeholder content", "Just some placeholder text for now"]) {
    assert.equal(isPlaceholderText(text), true, text);
  }
});

test("a rule about writing prompts for a model, in plain words, is specific: \"Never include personal information in prompts\", \"Write in second person\"", () => {
  // Refused as vague before (awesome-copilot's prompt-writing rules): "prompt", "second person", "few-shot", "personal
  // information" were in no list, so a rule about what goes in a prompt and how it is written named nothing.
  for (const text of [
    "Do not rely on prompt text for access control.", "Never include personal information in prompts",
    "Write in second person (\"You are...\")", "Give two few-shot examples in the prompt.", "Address the model in the second person.",
    "Never put personal data in prompts.", "Ask for chain-of-thought only when the answer needs reasoning.",
  ]) assert.deepEqual(checkVagueness(text), [], text);
  // Prompts only wished well, and "prompt" the adjective, name nothing.
  for (const text of ["Write good prompts.", "Use clear prompts.", "Use proper prompts.", "Write prompts properly.", "Always be prompt.", "Be prompt and polite in replies."]) {
    assert.deepEqual(codes(checkVagueness(text)), ["vague"], text);
  }
});

test("a term named in its own clause, after \"and\" with a verb or after \"using\", is not hidden by a wish in another: \"Use appropriate color schemes and consider color-blindness accessibility.\"", () => {
  // Refused as vague before (awesome-cursorrules): the wish ("appropriate", "proper", "correct") of one clause was read as said
  // of the whole rule, since only ; : ( ) dashes and ", <participle>" cut clauses, so the named term beside it counted for nothing.
  for (const text of [
    "Use appropriate color schemes and consider color-blindness accessibility.",
    "Use complete words instead of abbreviations and ensure correct spelling.",
    "Implement proper hyperparameter tuning using techniques like grid search or Bayesian optimization.",
    "Write readable tests and keep pure functions apart from side effects.",
  ]) assert.deepEqual(checkVagueness(text), [], text);
  // A wish over one list stays one clause: still vague.
  for (const text of [
    "Use proper padding, margins and borders.", "Implement proper error handling using good practices.",
    "Use appropriate controllers and write clean code.", "Use meaningful identifiers and good names.",
  ]) assert.deepEqual(codes(checkVagueness(text)), ["vague"], text);
});

test("a rule ordering kinds of declaration is specific: \"Place required attributes before optional ones\"", () => {
  // Refused as vague before (awesome-copilot, awesome-cursorrules): attributes, properties, members and props were no term,
  // so a rule saying which of them come first named nothing. ("parameters" is a domain word: "Put required parameters before
  // optional ones" passed already.)
  for (const text of [
    "Place required attributes before optional ones, and comment each section accordingly.",
    "Keep layout properties such as width, height, alignment, and layout weight grouped before visual properties.",
    "List public members before private ones.", "Declare static fields before instance fields.",
    "Put required props first, optional props after.", "Order attributes alphabetically.",
  ]) assert.deepEqual(checkVagueness(text), [], text);
  for (const text of ["Put the important things first.", "Keep properties clean.", "Use proper attributes.", "Place things in a logical order."]) {
    assert.deepEqual(codes(checkVagueness(text)), ["vague"], text);
  }
});

test("a principle named by its name is specific: \"Use a single level of abstraction.\"", () => {
  // Refused as vague before (awesome-cursorrules): the principle of one level of abstraction a function was in no list.
  for (const text of ["Use a single level of abstraction.", "Keep each function at one level of abstraction.", "Don't mix levels of abstraction in one function."]) {
    assert.deepEqual(checkVagueness(text), [], text);
  }
  for (const text of ["Use the right level of abstraction.", "Use proper abstraction.", "Keep abstractions clean."]) assert.deepEqual(codes(checkVagueness(text)), ["vague"], text);
});

test("a rule keeping text out of images is specific: \"Do not put essential text only inside an image.\"", () => {
  // Refused as vague before (awesome-cursorrules): text carried by an image, unreadable to screen readers and search, was in no list.
  for (const text of ["Do not put essential text only inside an image.", "Never use images of text.", "Avoid text in images; use real text styled with fonts."]) {
    assert.deepEqual(checkVagueness(text), [], text);
  }
  for (const text of ["Use good images.", "Keep text clear.", "Use proper images and text."]) assert.deepEqual(codes(checkVagueness(text)), ["vague"], text);
});

test("a rule opening with \"placeholder text\" or \"example text\" and a modal is a rule, not a placeholder: \"Placeholder text must never stand in for a label.\"", () => {
  // Refused as placeholder_text before: a text opening with "placeholder|sample|example text" was a placeholder whatever followed.
  for (const text of [
    "Placeholder text must never stand in for a field's label.", "Example text in the docs should compile as written.",
    "Sample text must not ship in release builds.",
  ]) assert.equal(isPlaceholderText(text), false, text);
  for (const text of ["Placeholder text for the onboarding lesson", "Sample text about caching", "Example text", "Test lesson on retries"]) {
    assert.equal(isPlaceholderText(text), true, text);
  }
});

test("\"rest\" names REST only in capitals, as RESTful or before an API's noun: \"Take a rest between long refactors\" is vague, \"Use REST verbs for CRUD routes\" is not", () => {
  // Accepted before: "rest" was a domain word in any case, so "the rest of the code" named a thing.
  for (const text of [
    "Take a rest between long refactors.", "Clean up the rest of the code.", "Document the rest later.",
    "Keep the rest of the code clean.", "Handle the rest properly.",
  ]) assert.deepEqual(codes(checkVagueness(text)), ["vague"], text);
  for (const text of [
    "Use REST verbs for CRUD routes.", "Follow REST conventions.", "Follow rest conventions for every public route.",
    "Expose a RESTful interface for the billing service.", "Call the rest API with a retry budget of 3.",
    "Rest the fixture data between tests.",
  ]) assert.deepEqual(codes(checkVagueness(text)), [], text);
});

test("a test written first, before the fix or the change, names a practice and its order: \"Write tests before fixing bugs.\"", () => {
  // Refused before: "tests" and "bugs" are the generic words every rule has, and no list knew test-first as a practice.
  for (const text of [
    "Write tests before fixing bugs.", "Write a test before you fix a bug.", "Write tests first.", "Add a failing test before the fix.",
    "Write the test before changing the code.", "Work test-first on the parser.",
  ]) assert.deepEqual(codes(checkVagueness(text)), [], text);
  // Tests wished for, with no order or with only a routine step after them, stay vague.
  for (const text of ["Always write tests.", "Write good tests.", "Write tests properly.", "Make sure tests pass before merging."]) {
    assert.deepEqual(codes(checkVagueness(text)), ["vague"], text);
  }
});

test("a unit of code wished small and focused, naming no measure or boundary, is vague: \"Keep functions short and focused on one task.\"", () => {
  // Accepted before: "functions" is a domain word. Short, small, focused on one task: every style guide's wish, with no limit
  // ("under 40 lines"), no principle by its name ("single responsibility") and no boundary ("one robot capability") to check it by.
  for (const text of [
    "Keep functions short and focused on one task.", "Keep methods small and focused.", "Keep classes small, simple and focused.",
    "Make components small and focused on a single purpose.", "Keep your functions focused on one thing.",
  ]) assert.deepEqual(codes(checkVagueness(text)), ["vague"], text);
  for (const text of [
    "Keep functions under 40 lines.", "Keep functions short.", "Keep controllers thin.", "Keep methods focused on a single responsibility.",
    "Keep packages focused on one robot capability or integration boundary.", "Keep React components small and focused on one prop shape.",
  ]) assert.deepEqual(codes(checkVagueness(text)), [], text);
});
