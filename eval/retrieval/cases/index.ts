// Every labelled case, grouped by the file (slice) it was written in.
import type { CaseSpec } from "../spec.js";
import { containerCases } from "./containers.js";
import { gitciCases } from "./gitci.js";
import { goCases } from "./go.js";
import { holdoutCases } from "./holdout.js";
import { memoryCases } from "./memories.js";
import { paraphraseCases } from "./paraphrase.js";
import { postgresCases } from "./postgres.js";
import { pythonCases } from "./python.js";
import { reactCases } from "./react.js";
import { rustCases } from "./rust.js";
import { securityCases } from "./security.js";
import { typescriptCases } from "./typescript.js";

export const CASE_SLICES: Readonly<Record<string, CaseSpec[]>> = {
  typescript: typescriptCases,
  react: reactCases,
  python: pythonCases,
  go: goCases,
  rust: rustCases,
  postgres: postgresCases,
  containers: containerCases,
  gitci: gitciCases,
  security: securityCases,
  memories: memoryCases,
  holdout: holdoutCases,
  paraphrase: paraphraseCases,
};

export function allCases(): Array<CaseSpec & { slice: string }> {
  const out = Object.entries(CASE_SLICES).flatMap(([slice, cases]) => cases.map((c) => ({ ...c, slice })));
  const seen = new Set<string>();
  for (const c of out) {
    if (seen.has(c.id)) throw new Error(`duplicate case id ${c.id}`);
    seen.add(c.id);
  }
  return out;
}
