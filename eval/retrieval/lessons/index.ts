// The whole written corpus: every stack's hand-written facts plus the generated filler.
import type { LessonSpec, StackData } from "../spec.js";
import { containers } from "./containers.js";
import { expandFiller } from "./filler.js";
import { gitci } from "./gitci.js";
import { go } from "./go.js";
import { postgres } from "./postgres.js";
import { python } from "./python.js";
import { react } from "./react.js";
import { rust } from "./rust.js";
import { security } from "./security.js";
import { typescript } from "./typescript.js";

export const STACKS: Readonly<Record<string, StackData>> = { typescript, react, python, go, rust, postgres, containers, gitci, security };

const PAIRS_PER_STACK = 18;

export function writtenLessons(): LessonSpec[] {
  const all = Object.entries(STACKS).flatMap(([name, data]) => [...data.facts, ...expandFiller(name, data, PAIRS_PER_STACK)]);
  const seen = new Set<string>();
  for (const l of all) {
    if (seen.has(l.id)) throw new Error(`duplicate lesson id ${l.id}`);
    seen.add(l.id);
  }
  return all;
}
