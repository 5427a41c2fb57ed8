// Expands each stack's advice atoms into module-specific lessons: realistic bulk that shares vocabulary with the gold.
import type { Kind } from "../../../src/core/entry.js";
import { defaultMeta, unitHash, type Atom, type LessonSpec, type Module, type StackData } from "../spec.js";

type Template = { kind: Kind; render: (m: string, a: Atom) => string };

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

// Eight phrasings so one atom placed in several modules does not read as the same sentence.
const TEMPLATES: readonly Template[] = [
  { kind: "correction", render: (m, a) => `In ${m}, ${a.advice}: ${a.reason}.` },
  { kind: "decision", render: (m, a) => `Decided for ${m}: ${a.advice}, because ${a.reason}.` },
  { kind: "insight", render: (m, a) => `Found while working on ${m}: ${a.reason}, so we now ${a.advice}.` },
  { kind: "commitment", render: (m, a) => `Team agreement for ${m}: ${a.advice} (${a.reason}).` },
  { kind: "learning", render: (m, a) => `Learned in ${m}: ${a.reason}. The fix was to ${a.advice}.` },
  { kind: "pattern", render: (m, a) => `Pattern used in ${m}: ${a.advice}. Without it ${a.reason}.` },
  { kind: "workflow_note", render: (m, a) => `When changing ${m}, remember to ${a.advice}; ${a.reason}.` },
  { kind: "gap", render: (m, a) => `${cap(m)} had no rule to ${a.advice}, and ${a.reason}.` },
];

const ROLE_ONLY = ["reviewer", "test_engineer", "architect"];

function fillerLesson(id: string, data: StackData, mod: Module, atom: Atom, text: string, kind: Kind): LessonSpec {
  const meta = defaultMeta(id);
  const r = unitHash(`${id}#shape`);
  return {
    id,
    lesson: text,
    kind,
    category: atom.category,
    stack: data.stack,
    tags: [...data.stack.slice(0, 1), atom.category],
    globs: r < 0.6 ? [mod.glob] : [],
    triggers: [],
    required: kind === "commitment" && r < 0.5 ? [atom.advice] : [],
    forbidden: [],
    agents: r > 0.95 ? [ROLE_ONLY[Math.floor(r * 1000) % ROLE_ONLY.length]!] : [],
    scope: "global",
    ...meta,
  };
}

/** Every atom in every module of its stack, plus a few two-atom lessons per stack. */
export function expandFiller(name: string, data: StackData, pairs: number): LessonSpec[] {
  const out: LessonSpec[] = [];
  data.atoms.forEach((atom, ai) => {
    data.modules.forEach((mod, mi) => {
      const id = `fill.${name}.${ai}.${mi}`;
      const t = TEMPLATES[Math.floor(unitHash(id) * TEMPLATES.length)]!;
      out.push(fillerLesson(id, data, mod, atom, t.render(mod.name, atom), t.kind));
    });
  });
  for (let i = 0; i < pairs; i++) {
    const id = `fill.${name}.pair.${i}`;
    const a = data.atoms[Math.floor(unitHash(`${id}a`) * data.atoms.length)]!;
    const b = data.atoms[Math.floor(unitHash(`${id}b`) * data.atoms.length)]!;
    if (a === b) continue;
    const mod = data.modules[Math.floor(unitHash(`${id}m`) * data.modules.length)]!;
    const text = `Review notes for ${mod.name}: ${a.advice}, since ${a.reason}; also ${b.advice}.`;
    out.push(fillerLesson(id, data, mod, a, text, "workflow_note"));
  }
  return out;
}
