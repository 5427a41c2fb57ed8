// A schema that bulk paths parse thousands of times, swapped for zod's compiled copy (z.compile) once it has been used enough to pay for compiling.
import { z } from "zod";
import { shortcuts } from "./shortcuts.js";

/**
 * Parses before the compiled copy is built. z.compile costs ~15-45 ms once (the entry schema) and
 * saves ~13 µs a parse of a stored entry (~6 µs of a new-entry input): a one-row command never pays
 * it, a bulk import pays it back within a few thousand rows (its worker compiles at once: shortcuts.eager).
 */
export const COMPILE_AFTER = 1000;

/**
 * A getter for `schema` or its compiled copy. The copy gives the same answers: its generated code
 * only decides the values that pass, and hands every other input to `schema` itself, so failures
 * and their messages are the runtime's (test/core/compiled-schema.test.ts compares the two).
 */
export function compiledWhenBusy<T extends z.ZodType>(schema: T, after = COMPILE_AFTER): { get(): T; compiled(): T } {
  let uses = 0;
  let copy: T | undefined;
  const compiled = (): T => (copy ??= z.compile(schema));
  return {
    get: () => (!shortcuts.enabled ? schema : (copy ?? (shortcuts.eager || ++uses > after ? compiled() : schema))),
    compiled,
  };
}
