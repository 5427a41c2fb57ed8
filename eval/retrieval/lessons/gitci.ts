// git / CI lessons: hand-written facts, restatements, look-alike distractors, filler fragments.
import { factory, type StackData } from "../spec.js";

const f = factory(["git", "github-actions"], ["ci"]);

export const gitci: StackData = {
  stack: ["git", "github-actions"],
  facts: [
    f("ci.cache-key", "correction", "tooling", "The Actions dependency cache key used only the OS, so a stale node_modules survived a lockfile change and tests ran against old versions; key caches on hashFiles of the lockfile.", { globs: [".github/workflows/*.yml"], tags: ["github-actions", "cache"] }),
    f("ci.cache-key~2", "correction", "tooling", "A CI cache keyed without the lockfile hash restores outdated dependencies after an upgrade; include hashFiles('**/package-lock.json') in the key."),
    f("ci.pull-request-target", "commitment", "security", "Workflows triggered by pull_request_target must never check out and run the PR's code; a fork could read our secrets. Use pull_request for untrusted code.", { globs: [".github/workflows/*.yml"], priority: "critical", dont: ["checkout PR head in pull_request_target workflows"], tags: ["github-actions", "security"] }),
    f("ci.pin-actions", "decision", "security", "Third-party actions are pinned to a full commit SHA, not a tag; a retagged action release injected a crypto miner into a popular repo.", { globs: [".github/workflows/*.yml"], tags: ["supply-chain"] }),
    f("ci.concurrency-cancel", "learning", "tooling", "Add a concurrency group with cancel-in-progress on PR workflows; every push queued a full run and the runners backed up for an hour.", { globs: [".github/workflows/*.yml"] }),
    f("ci.force-push", "commitment", "process", "Never force-push to main or release branches; use --force-with-lease on your own feature branch only. A force push wiped two merged PRs last spring.", { priority: "high", dont: ["git push --force to shared branches"], do: ["use --force-with-lease on feature branches"], triggers: ["force push", "--force"] }),
    f("ci.rebase-vs-merge", "decision", "process", "Feature branches are squash-merged so main has one commit per PR; merge commits from long branches made bisect useless.", { tags: ["git"] }),
    f("ci.bisect", "workflow_note", "debugging", "For 'it worked last week' bugs, run git bisect with a script (git bisect run npm test -- the-failing-test); it found the culprit among 140 commits in minutes.", { tags: ["git"] }),
    f("ci.lfs-binaries", "decision", "tooling", "Large design assets and fixtures over 5 MB go through Git LFS; a 300 MB video committed directly made every clone slow forever, even after deletion.", { globs: [".gitattributes"], tags: ["git", "lfs"] }),
    f("ci.secrets-in-history", "correction", "security", "Deleting a leaked key in a follow-up commit does not remove it from history; rotate the key first, then rewrite history with git filter-repo if needed.", { priority: "critical", tags: ["secrets", "git"] }),
    f("ci.flaky-quarantine", "decision", "testing", "Flaky tests are quarantined with a tracking issue within a day instead of re-running CI until green; retries hid a real race for weeks.", { tags: ["flaky"] }),
    f("ci.matrix-fail-fast", "insight", "tooling", "A failing Node 18 job cancelled the Node 20 and 22 jobs because strategy.fail-fast defaults to true; set fail-fast: false to see all versions' results.", { globs: [".github/workflows/*.yml"] }),
    f("ci.required-checks", "decision", "process", "Branch protection requires the test, lint and typecheck jobs by name; renaming a job silently removed it from the required checks.", { tags: ["branch-protection"] }),
    f("ci.conventional-commits", "commitment", "process", "Commit messages follow Conventional Commits (feat:, fix:, chore:) because the release tool derives the version bump and changelog from them.", { tags: ["git", "release"] }),
    f("ci.gitignore-env", "correction", "security", "A new .env.local file was committed because .gitignore only listed .env; ignore .env* and keep .env.example tracked.", { globs: [".gitignore"], tags: ["git", "secrets"] }),
    f("ci.oidc-cloud", "decision", "security", "Deploy jobs authenticate to the cloud with OIDC (id-token: write) instead of long-lived access keys stored as repository secrets.", { globs: [".github/workflows/deploy*.yml"], tags: ["oidc"] }),
    f("ci.artifact-retention", "learning", "tooling", "Upload build artifacts with retention-days set; default 90-day retention filled the organisation's storage quota and blocked uploads.", { tags: ["artifacts"] }),
    f("ci.pre-commit-hooks", "decision", "tooling", "Pre-commit hooks run only fast checks (format, lint staged files); the full test suite in the hook made people commit with --no-verify.", { globs: [".husky/**", ".pre-commit-config.yaml"] }),
    f("ci.monorepo-paths", "learning", "tooling", "Path filters on workflow triggers skip the backend suite when only docs change; CI minutes dropped by 40 percent.", { globs: [".github/workflows/*.yml"], tags: ["monorepo"] }),
    f("ci.line-endings", "correction", "tooling", "Shell scripts checked out on Windows got CRLF endings and failed in the Linux container with '/bin/sh^M: bad interpreter'; set *.sh text eol=lf in .gitattributes.", { globs: [".gitattributes", "**/*.sh"], triggers: ["bad interpreter"] }),
    // Distractors
    f("ci.x-cache-cdn", "decision", "performance", "Static assets are cached at the CDN for a year with hashed filenames; HTML is never cached there."),
    f("ci.x-branch-office", "workflow_note", "other", "The Berlin branch office handles support for German-speaking customers on weekdays."),
    f("ci.x-pipeline-sales", "workflow_note", "other", "The sales pipeline dashboard refreshes from the CRM every hour; deals closed today may lag."),
    f("ci.x-commit-budget", "decision", "process", "Quarterly commitments for the platform team are agreed with product before the planning week."),
    f("ci.x-merge-accounts", "workflow_note", "other", "Support can merge duplicate customer accounts from the admin panel; the older account keeps its id."),
  ],
  modules: [
    { name: "the main CI workflow", glob: ".github/workflows/ci.yml" },
    { name: "the release workflow", glob: ".github/workflows/release.yml" },
    { name: "the nightly workflow", glob: ".github/workflows/nightly.yml" },
    { name: "the git hooks", glob: ".husky/**" },
  ],
  atoms: [
    { advice: "keep each workflow job under ten minutes", reason: "long jobs discouraged small pull requests", category: "process" },
    { advice: "print tool versions at the start of each job", reason: "a runner image update changed behaviour without a trace", category: "debugging" },
    { advice: "run the linter before the tests", reason: "developers waited for tests to learn about a lint error", category: "tooling" },
    { advice: "store test reports as artifacts", reason: "failures could not be investigated after the logs expired", category: "testing" },
    { advice: "use reusable workflows for shared steps", reason: "copied steps drifted between repositories", category: "tooling" },
    { advice: "give jobs least-privilege permissions", reason: "the default token could push to the repository", category: "security" },
    { advice: "tag releases from CI only", reason: "a manual tag pointed at an unreviewed commit", category: "process" },
    { advice: "write PR descriptions that explain why", reason: "reviewers could not judge the trade-off", category: "process" },
    { advice: "keep pull requests under four hundred changed lines", reason: "large reviews missed obvious bugs", category: "process" },
    { advice: "run the build once and reuse the artifact for deploys", reason: "staging and production ran different builds", category: "integration" },
    { advice: "schedule dependency updates with Renovate", reason: "updates piled up into a painful big bang", category: "tooling" },
    { advice: "require one approving review from a code owner", reason: "changes to billing merged without the owners knowing", category: "process" },
    { advice: "set timeouts on every workflow job", reason: "a hung job burned six hours of runner time", category: "tooling" },
    { advice: "delete merged branches automatically", reason: "hundreds of stale branches cluttered the repository", category: "process" },
    { advice: "run end-to-end tests on the merge queue", reason: "two green PRs broke main together", category: "testing" },
  ],
};
