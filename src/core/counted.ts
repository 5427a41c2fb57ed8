// A count with its noun in the right number: "1 entry", "3 entries".

/** `n` and the noun for it: `counted(1, "entry", "entries")` is "1 entry"; the plural defaults to the noun plus "s". */
export function counted(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
