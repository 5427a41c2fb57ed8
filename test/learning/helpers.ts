// Opens a Cairn in a temp sandbox with a movable clock and foreground reflection, for the learning-loop tests.
import { openCairn, type Cairn, type ConfigInput } from "../../src/index.js";
import { makeSandbox, removeSandbox, type Sandbox } from "../fixtures/workers/sandbox.js";

export const DAY = 86_400_000;
export const T0 = Date.parse("2026-03-02T09:00:00Z");

export interface Clock {
  t: number;
}

export interface LearningWorld {
  cairn: Cairn;
  sb: Sandbox;
  clock: Clock;
}

/** Config for tests: reflection only when a test calls `reflect()`, so nothing races the assertions. */
export function testConfig(extra: ConfigInput = {}): ConfigInput {
  return { ...extra, learning: { reflect_in_background: false, ...extra.learning } };
}

export async function openWorld(config: ConfigInput = {}, sb: Sandbox = makeSandbox()): Promise<LearningWorld> {
  const clock: Clock = { t: T0 };
  const cairn = await openCairn({
    projectDir: sb.projectDir,
    hivePath: sb.hivePath,
    env: sb.env,
    config: testConfig(config),
    now: () => new Date(clock.t),
  });
  return { cairn, sb, clock };
}

/** Runs `fn` against a fresh world and always removes the sandbox. */
export async function withWorld(fn: (w: LearningWorld) => Promise<void>, config: ConfigInput = {}): Promise<void> {
  const w = await openWorld(config);
  try {
    await fn(w);
  } finally {
    await w.cairn.close();
    removeSandbox(w.sb);
  }
}

/** Outcome fields that score as clearly helpful (1.0) or clearly harmful (0.14) under the document's weights. */
export const GOOD_RUN = { success: true, duration_ms: 3 * 60_000, error_count: 0, retry_count: 0 } as const;
export const BAD_RUN = { success: false, duration_ms: 40 * 60_000, error_count: 4, retry_count: 2 } as const;
