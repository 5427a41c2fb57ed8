// Singulars and plurals the Porter stemmer (the index's, FTS5's `porter`) files under two stems: "index" and "indices", "mouse" and "mice", "status" and "statuses".
import { porterStem } from "./porter.js";

/**
 * Singular:plural(,plural). English's irregular classes, as dictionaries and the `pluralize` package list
 * them (Latin -ix/-ex → -ices, -um → -a, -us → -i, Greek -is → -es, -on → -a; child, mouse), and the
 * singulars ending in one s whose -es plural Porter stems apart ("status" → "statu", "statuses" → "status").
 * Only pairs seen in engineering text, each stemmed apart (a test checks it: a pair stemmed alike needs no entry).
 */
const PAIRS =
  "index:indices matrix:matrices vertex:vertices appendix:appendices child:children mouse:mice " +
  "analysis:analyses hypothesis:hypotheses parenthesis:parentheses diagnosis:diagnoses ellipsis:ellipses " +
  "synopsis:synopses emphasis:emphases crisis:crises axis:axes " +
  "criterion:criteria automaton:automata phenomenon:phenomena polyhedron:polyhedra " +
  "schema:schemata datum:data corpus:corpora maximum:maxima minimum:minima optimum:optima spectrum:spectra " +
  "radius:radii nucleus:nuclei stimulus:stimuli locus:loci fungus:fungi focus:foci,focuses " +
  "leaf:leaves half:halves shelf:shelves quiz:quizzes " +
  "status:statuses alias:aliases bus:buses virus:viruses canvas:canvases bonus:bonuses bias:biases gas:gases";

/**
 * Forms never added to a query: their index stem is another common word's too, so they would bring in lessons
 * about that ("indices" is stored as "indic", the stem of "indicate"; "vertices" as "vertic", of "vertical";
 * "leaves" as "leav", of "leave"). Asked for themselves, they still bring in the singular.
 */
const NEVER_ADDED: ReadonlySet<string> = new Set(["indices", "vertices", "leaves"]);

/**
 * The plurals of NEVER_ADDED that are nouns wherever they stand: the index keeps their singular beside them
 * (indexedSingulars), so a query for the singular meets them with no word of the query that also means
 * "indicate". "leaves" is mostly the verb ("the job leaves a lock"), so "leaf" is not indexed for it.
 */
const SINGULAR_INDEXED = new Map([["indices", "index"], ["vertices", "vertex"]]);
const SINGULAR_INDEXED_RE = /(?<![\p{L}\p{N}])(?:indices|vertices)(?![\p{L}\p{N}])/giu;

/**
 * The singulars a lesson's search text carries beside the plurals the index stems as another word ("the
 * Indices" → "index"), once each; empty for a text without them. Rows written before migrations 18 (SQLite)
 * and 16 (PostgreSQL) get theirs there.
 */
export function indexedSingulars(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(SINGULAR_INDEXED_RE)) out.add(SINGULAR_INDEXED.get(m[0].toLowerCase())!);
  return [...out];
}
/** Forms that bring in no other: "data" is a word of its own (a lesson about data is not about a datum), while "datum" is one of the data. */
const NEVER_READ: ReadonlySet<string> = new Set(["data"]);

/** Every pair, for the test that each is stemmed apart. */
export const IRREGULAR_PLURALS: ReadonlyArray<{ singular: string; plurals: readonly string[] }> = PAIRS.split(" ").map((pair) => {
  const [singular, plurals] = pair.split(":") as [string, string];
  return { singular, plurals: plurals.split(",") };
});

/** A word (the singular, its regular plural, or an irregular plural) → the pair's forms. */
const FORMS = new Map<string, readonly string[]>();
for (const { singular, plurals } of IRREGULAR_PLURALS) {
  const forms = [singular, ...plurals];
  for (const w of [...forms, `${singular}s`, `${singular}es`]) if (!NEVER_READ.has(w)) FORMS.set(w, forms);
}

/**
 * The other forms of a lower-case word's number that the index stems apart from it: "indices" → "index",
 * "matrix" → "matrices", "schemas" → "schemata". Empty for any word not in the table: a regular plural needs
 * none (Porter stems "tables" as "table").
 */
export function otherNumberForms(word: string): string[] {
  const forms = FORMS.get(word);
  if (!forms) return [];
  const stems = new Set([porterStem(word)]);
  const out: string[] = [];
  for (const f of forms) {
    if (NEVER_ADDED.has(f)) continue;
    const stem = porterStem(f);
    if (stems.has(stem)) continue;
    stems.add(stem);
    out.push(f);
  }
  return out;
}
