// The flag a hive lesson carries once a project it came from superseded its original there (no dependency: recall reads it on the hot path).

/** Set by supersedeEntry on the hive copy of a promoted original it supersedes, taken back by its restore. */
export const ORIGIN_SUPERSEDED = "origin-superseded:";

/**
 * The start of the flag one project leaves (a hive lesson may hold several: a promotion that reinforced
 * it pairs it with another project's original too). Each project replaces and takes back its own only.
 */
export function originFlagPrefix(projectName: string): string {
  return `${ORIGIN_SUPERSEDED} its origin project ${projectName} superseded it`;
}

/** Whether `flag` is the one `projectName` left: compared on a start a 200-character flag always keeps whole, however long the name. */
export function isOriginFlagOf(flag: string, projectName: string): boolean {
  return flag.startsWith(originFlagPrefix(projectName).slice(0, 180));
}
