// The flag a hive lesson carries once a project it came from superseded its original there (no dependency: recall reads it on the hot path).

/** Set by supersedeEntry on the hive copy of a promoted original it supersedes, taken back by its restore. */
export const ORIGIN_SUPERSEDED = "origin-superseded:";
