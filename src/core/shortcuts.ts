// The switch for exact shortcuts (prefilters, plain-ASCII paths): a test turns them off to prove every answer is the same without them.

/**
 * Each shortcut skips work that provably changes nothing (a scan for a literal every match carries,
 * steps that leave plain ASCII as it is). Only tests set `enabled` to false, to compare answers.
 */
export const shortcuts = { enabled: true };
