// A path flag given as "" (or blanks) is refused: an empty value would silently mean the default.
import { InvalidArgumentError } from "commander";

/** A commander parser for `flag`, saying what it needs (`--hive needs a path`). */
export function nonEmpty(flag: string, what: string): (value: string) => string {
  return (value: string) => {
    if (value.trim() === "") throw new InvalidArgumentError(`${flag} needs ${what}; leave the flag out to use the default.`);
    return value;
  };
}

/** A comma-separated flag whose every item is blank (`--status ""`, `--status " , "`) is refused the same way. */
export function nonEmptyList(flag: string, what: string): (value: string) => string {
  return (value: string) => {
    if (!value.split(",").some((item) => item.trim() !== "")) throw new InvalidArgumentError(`${flag} needs ${what}; leave the flag out to use the default.`);
    return value;
  };
}
