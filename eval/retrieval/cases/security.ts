// Security contexts and the lessons each should surface.
import { caseFactory, type CaseSpec } from "../spec.js";

const c = caseFactory("sec", ["typescript", "node"]);

export const securityCases: CaseSpec[] = [
  c(1, "Phase 4: Security review", "Check the report endpoint that lets users choose the sort column", ["src/reports/query.ts"], "", ["sec.sql-injection"], { agent: "reviewer" }),
  c(2, "Phase 2: Auth service", "Implement token verification in the internal API gateway", ["gateway/auth/verify.ts"], "", ["sec.jwt-alg"]),
  c(3, "Phase 2: Auth service", "Move stored user passwords off the legacy hashing scheme", ["src/auth/passwords.ts"], "", ["sec.password-hash"]),
  c(4, "Phase 3: Outgoing webhooks", "Let customers register a URL that we POST their events to", ["src/webhooks/deliver.ts"], "", ["sec.ssrf-webhooks"]),
  c(5, "Phase 2: Sessions", "Set up the session cookie for the new login flow", ["src/auth/login/session.ts"], "", ["sec.cookie-flags"]),
  c(6, "Phase 3: Profiles", "Render the user's rich-text bio on their profile page", ["src/features/profile/Bio.tsx"], "", ["sec.xss-dangerously"], { stack: ["react", "typescript"] }),
  c(7, "Phase 4: Security review", "Audit the invoice download endpoint", ["src/routes/invoices.ts"], "", ["sec.idor"], { agent: "reviewer" }),
  c(8, "Phase 3: Abuse prevention", "Attackers are trying thousands of passwords against the sign-in endpoint", ["src/auth/login/handler.ts"], "", ["sec.rate-limit-login"]),
  c(9, "Phase 4: Logging", "Add request logging middleware to the payments API", ["src/middleware/request-log.ts"], "", ["sec.secrets-logs"]),
  c(10, "Phase 3: Public API", "Let the partner's web app call our API from the browser with cookies", ["src/middleware/cors.ts"], "", ["sec.cors-wildcard"]),
  c(11, "Phase 3: Downloads", "Serve user-uploaded attachments by file name", ["src/uploads/download.ts"], "", ["sec.path-traversal"]),
  c(12, "Phase 2: Password reset", "Build the forgot-password flow", ["src/auth/reset.ts"], "", ["sec.reset-token"]),
  c(13, "Phase 3: Profile editing", "PATCH /me should update the user with whatever fields the client sends", ["src/routes/me.ts"], "", ["sec.mass-assignment"]),
  c(14, "Phase 3: Inbound webhooks", "Verify the HMAC signature on incoming payment webhooks", ["src/webhooks/verify.ts"], "", ["sec.timing-compare"]),
  c(15, "Phase 2: Config import", "Let admins upload YAML config files for their workspace", ["workspaces/importers.py"], "", ["sec.yaml-load"], { stack: ["python", "django"] }),
  c(16, "Phase 2: Login", "After login, send the user back to the page they came from", ["src/auth/login/redirect.ts"], "", ["sec.open-redirect"]),
  c(17, "Phase 4: Dependencies", "Add a check that fails the build when a package has a known vulnerability", [".github/workflows/ci.yml"], "", ["sec.dependency-audit"], { context_only: true }),
];
