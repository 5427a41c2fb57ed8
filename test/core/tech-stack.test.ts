// A project's tech stack from its root manifests: what the OpenCode plugin matches lessons' tech_stack against.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { detectTechStack } from "../../src/core/tech-stack.js";

function project(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cairn-stack-"));
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  return dir;
}

test("stacks come from package.json dependencies, Python manifests and marker files, in a fixed order", () => {
  assert.deepEqual(
    detectTechStack(project({ "package.json": JSON.stringify({ dependencies: { react: "^19", "@prisma/client": "6" }, devDependencies: { typescript: "5", vitest: "3", prisma: "6" } }), Dockerfile: "FROM node:20" })),
    ["node", "react", "typescript", "vitest", "prisma", "docker"],
  );
  assert.deepEqual(detectTechStack(project({ "package.json": "{}" })), ["node", "javascript"], "no TypeScript: JavaScript");
  assert.deepEqual(detectTechStack(project({ "package.json": "{not json" })), ["node"], "a broken manifest still says node");
  assert.deepEqual(detectTechStack(project({ "pyproject.toml": '[project]\ndependencies = ["fastapi>=0.110", "pydantic"]\n', "go.mod": "module x" })), ["python", "fastapi", "pydantic", "go"]);
  // A framework's name inside another package's name is not the framework.
  assert.deepEqual(detectTechStack(project({ "requirements.txt": "mypandas==1\ndjangorestish\n" })), ["python"]);
  assert.deepEqual(detectTechStack(project({})), []);
});
