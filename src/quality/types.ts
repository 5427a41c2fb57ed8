// Shared result types of the quality gates (what a check found, and how bad it is).

export type QualityLayer = "structure" | "safety" | "secret" | "quality";

export interface QualityIssue {
  layer: QualityLayer;
  /**
   * `reject` stops the write; `review` stores the lesson as a draft a person must approve (it is
   * never injected nor recalled as advice until then); `warn` is recorded as a flag on the entry.
   */
  severity: "reject" | "review" | "warn";
  /** Stable machine code, e.g. `too_short`, `destructive_command`, `secret_aws_key`. */
  code: string;
  /** A sentence a user can act on. Never contains a detected secret. */
  message: string;
  /** The input field the issue is about when it is not the lesson text ("why", "required action"); the message starts with it. */
  field?: string;
}

export interface GateOptions {
  /**
   * Bulk load of existing data a person chose to import: skips the length limits, content-safety
   * advice checks and vagueness, but never sanitising, injection markers nor the secrets gate.
   */
  trusted?: boolean;
  /**
   * With `trusted`: the lesson's advice was judged when it was first stored (a lossless Cairn
   * restore), so the imported-advice check, which only ever warns and whose warnings a restore
   * does not read, is skipped. Sanitising, injection markers and secrets still run.
   */
  adviceJudged?: boolean;
}

export interface GateResult {
  ok: boolean;
  issues: QualityIssue[];
  /** The normalised lesson text (whitespace/CR cleaned) with any secret masked. */
  text: string;
}
