import { compareLessons } from "../../../src/quality/similarity.js";
import { corpusLesson } from "../fixtures/corpus.js";
const n = 2000;
const L = Array.from({ length: n }, (_, i) => corpusLesson(i).text);
let dups = 0, contra = 0; const ex: string[] = [];
for (let i = 0; i < n; i++) for (let k = i + 10; k < n; k += 10) {
  const c = compareLessons(L[i]!, L[k]!, 0.6);
  if (c.duplicate) { dups++; if (ex.length < 4) ex.push(`${c.similarity}\n  ${L[i]}\n  ${L[k]}`); }
  if (c.contradiction) contra++;
}
console.log({ dups, contra }); console.log(ex.join("\n"));
