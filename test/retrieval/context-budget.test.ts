// The context budget warns past its thresholds, as seed 002 words it ("when budget > warn_threshold"), not at them.
import { test } from "node:test";
import assert from "node:assert/strict";
import { contextBudget } from "../../src/retrieval/context-budget.js";

const config = {
  model_limits: { default: 100_000 },
  context_budget: { enabled: true, warn_threshold: 0.7, critical_threshold: 0.9 },
};

test("a context exactly at a threshold is still below it; one token past it crosses", () => {
  assert.equal(contextBudget(config, 69_999).level, "ok");
  assert.equal(contextBudget(config, 70_000).level, "ok", "at 70 % the warn threshold is reached, not passed");
  assert.equal(contextBudget(config, 70_001).level, "warn");
  assert.equal(contextBudget(config, 90_000).level, "warn", "at 90 % the critical threshold is reached, not passed");
  assert.equal(contextBudget(config, 90_001).level, "critical");
  assert.equal(contextBudget({ ...config, context_budget: { ...config.context_budget, enabled: false } }, 99_000).level, "ok");
});
