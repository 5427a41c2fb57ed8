// A file's size for polls that race the process under test: 0 once the file is gone.
import fs from "node:fs";

/** The file's size in bytes, or 0 if it does not exist (any more): a poll's listing can name a file the process removes before the stat. */
export function sizeOrZero(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
}
