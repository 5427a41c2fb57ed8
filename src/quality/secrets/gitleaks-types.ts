// The shape of gitleaks' rule set as kept in gitleaks-rules.ts (the fields the detector reads).

export interface GitleaksAllowlist {
  regexes?: string[];
  stopwords?: string[];
  /** What `regexes` are tested against: the secret (default), the whole match, or the line. */
  regexTarget?: "secret" | "match" | "line";
  /** OR (default): either check allows the finding; AND: every configured check must. */
  condition?: "OR" | "AND";
}

export interface GitleaksRule {
  id: string;
  regex: string;
  keywords?: string[];
  /** Shannon entropy the secret must exceed; 0 or absent means no check. */
  entropy?: number;
  /** Capture group holding the secret; otherwise the first non-empty group, else the whole match. */
  secretGroup?: number;
  allowlists?: GitleaksAllowlist[];
}

export interface GitleaksConfig {
  version: string;
  allowlist: { regexes: string[]; stopwords: string[] };
  rules: GitleaksRule[];
}
