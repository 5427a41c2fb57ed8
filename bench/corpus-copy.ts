// A throwaway copy of a seeded bench corpus and the engine options that open it: a run's adds and shown counters never drift the cache.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { OpenCairnOptions } from "../src/index.js";

/** Caps raised so the corpus keeps its size: at the default swarm cap (10,000) a 100k tier would be evicted on the first add. */
export const BENCH_CAPS = { swarm_max_entries: 10_000_000, hive_max_entries: 10_000_000 };

export interface CorpusCopy {
  dir: string;
  /** The copy's project, hive and a sandboxed environment (HOME and XDG inside the copy); add config and actor. */
  open: Required<Pick<OpenCairnOptions, "projectDir" | "hivePath" | "env">>;
  remove(): void;
}

export function copyCorpus(corpusDir: string, prefix: string): CorpusCopy {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const remove = () => fs.rmSync(dir, { recursive: true, force: true });
  try {
    fs.cpSync(corpusDir, dir, { recursive: true });
  } catch (e) {
    remove();
    throw e;
  }
  const env = { PATH: process.env.PATH ?? "", HOME: dir, XDG_DATA_HOME: path.join(dir, "xdg-data"), XDG_CONFIG_HOME: path.join(dir, "xdg-config") };
  return { dir, open: { projectDir: path.join(dir, "project"), hivePath: path.join(dir, "hive", "hive.db"), env }, remove };
}
