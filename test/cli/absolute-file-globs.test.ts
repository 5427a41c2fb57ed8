// A file glob written as an absolute path inside the project (tab completion, $PWD/…) applies to the project's files.
import assert from "node:assert/strict";
import path from "node:path";
import { after, test } from "node:test";
import { sandbox } from "../helpers/cli.js";

const sb = sandbox();
after(() => sb.cleanup());

test("add --files <project>/src/**/*.ts is stored relative to the project and then matches src/ files", async () => {
  const p = sb.project("abs");
  const added = await sb.json(p, "add", "Run tsc --noEmit in the pre-push hook so type errors never reach CI", "--files", `${path.join(p, "src")}/**/*.ts`);
  assert.equal(added.code, 0, added.stderr);
  assert.equal((await sb.run(p, "approve", added.body.handle)).code, 0);

  const shown = await sb.json(p, "show", added.body.handle);
  assert.deepEqual(shown.body.entry.applicability.file_globs, ["src/**/*.ts"]);
  const related = await sb.json(p, "related", "--files", "src/api/user.ts");
  assert.equal(related.code, 0, related.stderr);
  assert.match(JSON.stringify(related.body), /tsc --noEmit/, "the lesson applies to the project's src/ files");
});

test("a root-anchored glob (/src/**, .gitignore's anchor at the project root) is kept as written", async () => {
  const p = sb.project("anchored");
  const anchored = await sb.json(p, "add", "Keep the auth middleware free of database calls; read the session from the signed cookie", "--files", "/src/auth/**");
  assert.equal(anchored.code, 0, anchored.stderr);
  const shown = await sb.json(p, "show", anchored.body.handle);
  assert.deepEqual(shown.body.entry.applicability.file_globs, ["/src/auth/**"]);
});
