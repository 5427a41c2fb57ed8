// git / CI contexts and the lessons each should surface.
import { caseFactory, type CaseSpec } from "../spec.js";

const c = caseFactory("ci", ["git", "github-actions"]);

export const gitciCases: CaseSpec[] = [
  c(1, "Phase 2: CI speed", "Tests in CI still use the old dependency versions after the upgrade PR merged", [".github/workflows/ci.yml", "package-lock.json"], "", ["ci.cache-key"]),
  c(2, "Phase 3: External contributors", "Let CI run with secrets on pull requests from forks so the integration tests pass", [".github/workflows/integration.yml"], "", ["ci.pull-request-target"], { agent: "coder" }),
  c(3, "Phase 3: Supply chain", "Tighten how our workflows reference third-party actions", [".github/workflows/ci.yml", ".github/workflows/release.yml"], "", ["ci.pin-actions"], { context_only: true }),
  c(4, "Phase 2: CI speed", "Runners are backed up because every push starts another full run", [".github/workflows/ci.yml"], "", ["ci.concurrency-cancel"]),
  c(5, "Phase 4: Release prep", "Clean up the messy history on the release branch before tagging", [], "can I just git push --force after the rebase?", ["ci.force-push"]),
  c(6, "Phase 5: Regression hunt", "The export stopped working at some point in the last two weeks; find the commit that did it", [], "", ["ci.bisect"]),
  c(7, "Phase 2: Assets", "Add the product demo videos and the large test fixtures to the repository", [".gitattributes", "fixtures/"], "", ["ci.lfs-binaries"]),
  c(8, "Phase 4: Incident", "An AWS key was committed to the repo; get rid of it", ["config/aws.json"], "I'll just delete the file in a new commit", ["ci.secrets-in-history"]),
  c(9, "Phase 3: Test stability", "The checkout end-to-end test fails one run in five and people keep pressing re-run", ["e2e/checkout.spec.ts"], "", ["ci.flaky-quarantine"]),
  c(10, "Phase 2: Node matrix", "Only the Node 18 result is visible when the matrix build fails", [".github/workflows/ci.yml"], "", ["ci.matrix-fail-fast"]),
  c(11, "Phase 3: Branch protection", "A PR merged with failing lint after we renamed the workflow jobs", [".github/workflows/ci.yml"], "", ["ci.required-checks"]),
  c(12, "Phase 5: Release automation", "Automate version bumps and changelog generation", [".releaserc.json"], "", ["ci.conventional-commits"]),
  c(13, "Phase 1: Repository setup", "Make sure local environment files can never be committed", [".gitignore"], "", ["ci.gitignore-env"], { context_only: true }),
  c(14, "Phase 4: Deploy pipeline", "Stop using the long-lived AWS access keys stored in repository secrets for deploys", [".github/workflows/deploy.yml"], "", ["ci.oidc-cloud"]),
  c(15, "Phase 2: Windows contributors", "Setup scripts fail in the container after a teammate on Windows edited them", ["scripts/setup.sh", ".gitattributes"], "/bin/sh^M: bad interpreter: No such file or directory", ["ci.line-endings"]),
  c(16, "Phase 2: Hooks", "The pre-commit hook takes four minutes and people skip it", [".husky/pre-commit"], "", ["ci.pre-commit-hooks"]),
];
