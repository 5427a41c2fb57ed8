// Where the shared test data lives: ../shared/data beside the repository (as in CI), whatever the checkout path.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** 730 real agent memories (swarm-tools format); not vendored, as its source repository carries no licence. */
export const MEMORIES_FILE = process.env.CAIRN_MEMORIES_FILE ?? fileURLToPath(new URL("../../../shared/data/swarm-tools-memories.jsonl", import.meta.url));

/** For `test(name, { skip: WITHOUT_MEMORIES }, …)`: false when the file is there, else the one line saying why and how. */
export const WITHOUT_MEMORIES: string | false = existsSync(MEMORIES_FILE)
  ? false
  : `needs ${MEMORIES_FILE} (the shared data folder beside the repository, or CAIRN_MEMORIES_FILE)`;
