// A lesson's origin (derived_from) as a person reads it: one label for the CLI, the mirror and the page.
/** How a lesson's origin reads to a person: "issue #12", not "issue issue #12" when the reference names its kind already. */
export function derivedFromLabel(df: { kind?: string | undefined; ref?: string | undefined }): string | undefined {
  const ref = df.ref?.replace(/\s+/g, " ").trim();
  if (!ref) return df.kind;
  if (!df.kind || ref.toLowerCase().startsWith(df.kind)) return ref;
  return `${df.kind} ${ref}`;
}
