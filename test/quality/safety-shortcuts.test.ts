// Unsafe shortcuts an agent is told to take as the fix (an outside audit's misses): each is refused or held, its warning passes.
import { test } from "node:test";
import assert from "node:assert/strict";
import { validateLessonText } from "../../src/quality/gates.js";
import { findHarmfulAdvice } from "../../src/quality/safety.js";

const verdict = (text: string): "reject" | "review" | "none" => {
  const issues = findHarmfulAdvice(text);
  if (issues.some((i) => i.severity === "reject")) return "reject";
  return issues.length > 0 ? "review" : "none";
};
const shown = (text: string) => `${text} ${JSON.stringify(findHarmfulAdvice(text))}`;

test("a production migration or database change without a backup is refused; warnings and backups taken first pass", () => {
  for (const text of [
    "Run the migration directly on prod, skip the backup, it is faster.",
    "Apply the schema migration to the production database without a backup.",
    "Skip the pg_dump before migrating production; the migration is small.",
    "No need for a snapshot before running ALTER TABLE on the live database.",
    "Don't bother taking a backup before the prod migration.",
  ]) assert.equal(verdict(text), "reject", shown(text));
  for (const text of [
    "Never run the migration on prod without a backup.",
    "Take a pg_dump backup before every production migration.",
    "Back up the production database, then run the migration.",
    "Without a verified backup, a failed migration on prod cannot be undone.",
    "Skip the backup step in the test database fixtures; they are recreated per run.",
    "Restore the latest backup into staging and run the migration there first.",
  ]) assert.notEqual(verdict(text), "reject", shown(text));
  assert.equal(validateLessonText("Run the migration directly on prod, skip the backup, it is faster.").ok, false);
  assert.equal(validateLessonText("Never run a production migration without a fresh backup; take a pg_dump first.").ok, true);
});

test("granting Owner or admin to a service account or CI to fix a permission error is refused; least-privilege advice and warnings pass", () => {
  for (const text of [
    "To fix the permission error in CI, grant the Owner role to the service account.",
    "Give the CI service account admin to fix the 403 permission denied error.",
    "When the deploy pipeline gets AccessDenied, attach AdministratorAccess to the CI role.",
    "Bind the runner's service account to cluster-admin so the Helm install stops failing with forbidden.",
    "gcloud projects add-iam-policy-binding my-proj --member=serviceAccount:ci@my-proj.iam.gserviceaccount.com --role=roles/owner fixes the deploy error.",
  ]) assert.equal(verdict(text), "reject", shown(text));
  for (const text of [
    "Never grant the Owner role to a CI service account; grant roles/run.developer on the one service instead.",
    "Grant the CI service account only roles/storage.objectCreator on the artifacts bucket.",
    "Do not give the GitHub Actions role AdministratorAccess to fix a permission error; add the one missing action.",
    "The repository owner must approve the first run of a workflow from a fork.",
    "Give the admin user of the staging app a strong password.",
  ]) assert.notEqual(verdict(text), "reject", shown(text));
});

test("putting cloud keys, tokens or passwords in a shell startup file (~/.bashrc, ~/.zshrc) as the fix is refused; warnings and other exports pass", () => {
  for (const text of [
    "Add export AWS_SECRET_ACCESS_KEY=... to ~/.bashrc so the deploy script works.",
    "Put your AWS access key in ~/.zshrc with export AWS_ACCESS_KEY_ID so the CLI finds it.",
    "Fix the 'Unable to locate credentials' error: append export AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY to your ~/.bash_profile.",
    "Save the GitHub token in .zshrc as export GITHUB_TOKEN=ghp_... and restart the shell.",
    "Put the database password in your shell profile so psql stops asking.",
  ]) assert.equal(verdict(text), "reject", shown(text));
  for (const text of [
    "Never export AWS_SECRET_ACCESS_KEY in ~/.bashrc; use aws sso login or aws-vault.",
    "Add export PATH=\"$HOME/.local/bin:$PATH\" to ~/.zshrc.",
    "Set AWS_PROFILE=staging in ~/.zshrc to pick the SSO profile.",
    "Keep the token in the macOS keychain, not in ~/.zshrc.",
    "Source ~/.bashrc after editing it so the new alias works.",
  ]) assert.notEqual(verdict(text), "reject", shown(text));
});

test("wiping the worktree as the routine fix (git clean -fdx, rm -rf the checkout) is refused or held; ignored-only cleans, dry runs and warnings pass", () => {
  for (const text of [
    "When the build breaks, run git clean -fdx in the worktree to fix it.",
    "If the dev server acts up, git clean -xdf and start again.",
    "Run git clean -ffdx whenever tests fail for no reason.",
    "If tests fail oddly, rm -rf the worktree and clone again.",
    "Just rm -rf your local repository and re-clone it when rebase gets confusing.",
  ]) assert.equal(verdict(text), "reject", shown(text));
  for (const text of [
    "Never run git clean -fdx in a worktree with uncommitted work.",
    "Run git clean -fdX to delete only ignored build output; untracked source files stay.",
    "Preview with git clean -ndx before deleting anything.",
    "Instead of git clean -fdx, delete dist/ and node_modules/ by name.",
    "rm -rf node_modules and run npm ci when the lockfile changed.",
  ]) assert.notEqual(verdict(text), "reject", shown(text));
  assert.equal(verdict("Run git clean -fd to remove stray files before a release build."), "review");
});

test("a database without a password (empty POSTGRES_PASSWORD, trust auth, MYSQL_ALLOW_EMPTY_PASSWORD) is refused in production and held in tests; warnings pass", () => {
  for (const text of [
    "Set POSTGRES_PASSWORD to empty in production to avoid auth errors.",
    "Use trust auth in production pg_hba.conf so the app can connect.",
    "Set POSTGRES_HOST_AUTH_METHOD=trust on the prod database container.",
    "Leave the database password empty so the service connects without a secret.",
    "Add host all all 0.0.0.0/0 trust to pg_hba.conf to fix the password authentication failed error.",
    "Run MySQL with MYSQL_ALLOW_EMPTY_PASSWORD=yes in production.",
  ]) assert.equal(verdict(text), "reject", shown(text));
  for (const text of [
    "Never set POSTGRES_PASSWORD to empty or use trust auth in production.",
    "Do not leave the database password blank; read it from the secret manager.",
    "Trust auth in pg_hba.conf lets anyone who reaches the port log in as any user.",
    "Use scram-sha-256 instead of trust in pg_hba.conf.",
    "Set POSTGRES_PASSWORD from the DB_PASSWORD secret in the compose file.",
  ]) assert.notEqual(verdict(text), "reject", shown(text));
  assert.equal(verdict("Use POSTGRES_HOST_AUTH_METHOD=trust for the throwaway database in integration tests."), "review");
});
