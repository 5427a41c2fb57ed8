// The switch for exact shortcuts (prefilters, plain-ASCII paths): a test turns them off to prove every answer is the same without them.

/**
 * Each shortcut skips work that provably changes nothing (a scan for a literal every match carries,
 * steps that leave plain ASCII as it is). Only tests set `enabled` to false, to compare answers.
 */
export const shortcuts = {
  enabled: true,
  /**
   * Set by a thread that does bulk work only (an import's worker): shortcuts that pay for their building
   * over hundreds of calls are built at their first use instead (a command gating one lesson never builds them).
   */
  eager: false,
};
