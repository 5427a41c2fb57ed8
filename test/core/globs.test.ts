// File globs (a lesson's file_patterns, a glob detection pattern): .gitignore's meaning, and linear time whatever glob a lesson holds.
import { test } from "node:test";
import assert from "node:assert/strict";
import { anyGlobMatcher, compileGlob } from "../../src/core/globs.js";
import { compilePattern } from "../../src/governance/patterns.js";
import { growth } from "../helpers/cost.js";

test("a lesson's glob cannot stall a check on a long file name: matching stays linear in the name", () => {
  // picomatch turned "src/*a*a*a*a*a*b" into lazy [^/]*? runs that backtrack O(n^6) on a name of a's:
  // a 40-character name held `cairn check --files` for seconds. "*(*a)" nests stars and is exponential.
  const hostile = ["src/*a*a*a*a*a*b", "src/*(*a)b", "**/*a*a*a*a*a*a.ts", "src/{*a,*aa}{*a,*aa}{*a,*aa}{*a,*aa}b"];
  for (const glob of hostile) {
    const m = compileGlob(glob);
    const small = `src/${"a".repeat(12)}!`;
    const large = `src/${"a".repeat(48)}!`;
    const ratio = growth(() => m(small), () => m(large), { calls: 20, batches: 5 });
    assert.ok(ratio < 10, `${glob}: a name 4× as long cost ${ratio.toFixed(1)}× as much`);
    assert.equal(m(large), false);
  }
  // The same through a detection pattern written as a glob.
  const p = compilePattern("glob: src/*a*a*a*a*a*b")!;
  const ratio = growth(() => p.matchFile(`src/${"a".repeat(12)}!`), () => p.matchFile(`src/${"a".repeat(48)}!`), { calls: 20, batches: 5 });
  assert.ok(ratio < 10, `glob detection pattern: a name 4× as long cost ${ratio.toFixed(1)}× as much`);
});

test("globs keep their meaning: segments, globstars, classes, braces, extglobs, .gitignore forms, case", () => {
  const cases: Array<[string, string, boolean]> = [
    ["src/auth/**", "src/auth/session.ts", true],
    ["src/auth/**", "src/auth", true],
    ["src/auth/**", "src/authz/x.ts", false],
    ["src/services/auth*", "src/services/auth.ts", true],
    ["src/services/auth*", "src/services/auth/token.ts", false],
    ["**/*.ts", "a.ts", true],
    ["**/*.ts", "x/y/a.ts", true],
    ["**/*.ts", "x/y/a.tsx", false],
    ["src/**/test/*.ts", "src/test/a.ts", true],
    ["src/**/test/*.ts", "src/a/b/test/a.ts", true],
    ["src/**/test/*.ts", "src/a/btest/a.ts", false],
    ["*.config.ts", "vite.config.ts", true],
    ["*.config.ts", "apps/web/vite.config.ts", true],
    ["*.{ts,tsx}", "ui/Button.tsx", true],
    ["*.{ts,tsx}", "ui/Button.jsx", false],
    ["src/{auth,billing}/**", "src/billing/tax.ts", true],
    ["src/{auth,billing}/**", "src/users/tax.ts", false],
    ["src/file?.ts", "src/file1.ts", true],
    ["src/file?.ts", "src/file10.ts", false],
    ["src/[ab]*.ts", "src/beta.ts", true],
    ["src/[!ab]*.ts", "src/beta.ts", false],
    ["src/[!ab]*.ts", "src/gamma.ts", true],
    ["src/[a-c]x.ts", "src/bx.ts", true],
    ["src/@(api|web)/*.ts", "src/web/a.ts", true],
    ["src/@(api|web)/*.ts", "src/cli/a.ts", false],
    ["src/+(a|b).ts", "src/abba.ts", true],
    ["src/\\*.ts", "src/*.ts", true],
    ["src/\\*.ts", "src/a.ts", false],
    ["*", ".env", true],
    ["/Makefile", "Makefile", true],
    ["/Makefile", "sub/Makefile", false],
    ["Makefile", "sub/Makefile", true],
    ["src/billing/", "src/billing/invoice.ts", true],
    ["migrations/", "db/migrations/001.sql", true],
    ["!src/**", "lib/a.ts", true],
    ["!src/**", "src/a.ts", false],
    ["src/a.b+c(d).ts", "src/a.b+c(d).ts", true],
    ["src/a.b+c(d).ts", "src/axb+c(d).ts", false],
  ];
  for (const [glob, file, expected] of cases) assert.equal(compileGlob(glob)(file), expected, `${glob} on ${file}`);
  assert.equal(compileGlob("SRC/Auth/**", { nocase: true })("src/auth/a.ts"), true);
  assert.equal(compileGlob("SRC/Auth/**")("src/auth/a.ts"), false);
  assert.equal(anyGlobMatcher(["docs/**", "*.md"])("notes/todo.md"), true);
});
