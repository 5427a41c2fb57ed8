// Where the shared test data lives: ../shared/data beside the repository (as in CI), whatever the checkout path.
import { fileURLToPath } from "node:url";

export const MEMORIES_FILE = fileURLToPath(new URL("../../../shared/data/swarm-tools-memories.jsonl", import.meta.url));
