// A project's tech stack, read from the manifests at its root (package.json, pyproject.toml, go.mod, …), for faces that cannot ask the agent.
import fs from "node:fs";
import path from "node:path";

/** Packages in package.json that name a stack a lesson may be declared for, by the name lessons use. */
const NPM_STACKS: Readonly<Record<string, string>> = {
  typescript: "typescript", react: "react", vue: "vue", svelte: "svelte", "@angular/core": "angular", next: "nextjs",
  nuxt: "nuxt", express: "express", fastify: "fastify", hono: "hono", "@nestjs/core": "nestjs", prisma: "prisma",
  "drizzle-orm": "drizzle", vitest: "vitest", jest: "jest", playwright: "playwright", "@playwright/test": "playwright",
  tailwindcss: "tailwind", electron: "electron", "react-native": "react-native", bun: "bun",
};

/** Python frameworks named in pyproject.toml or requirements.txt. */
const PYTHON_STACKS = ["django", "flask", "fastapi", "pytest", "pandas", "numpy", "pydantic", "sqlalchemy"];

/** Files whose presence alone names a stack. */
const MARKER_FILES: ReadonlyArray<[string, string]> = [
  ["tsconfig.json", "typescript"], ["go.mod", "go"], ["Cargo.toml", "rust"], ["Gemfile", "ruby"], ["pom.xml", "java"],
  ["build.gradle", "java"], ["build.gradle.kts", "kotlin"], ["composer.json", "php"], ["Dockerfile", "docker"],
  ["docker-compose.yml", "docker"], ["compose.yaml", "docker"], ["deno.json", "deno"], ["mix.exs", "elixir"],
];

const MAX_MANIFEST_BYTES = 512 * 1024;

function read(dir: string, name: string): string | undefined {
  try {
    const file = path.join(dir, name);
    return fs.statSync(file).size <= MAX_MANIFEST_BYTES ? fs.readFileSync(file, "utf8") : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The stacks `dir` is built on, lower-case, in a fixed order: what a lesson's `tech_stack` is matched
 * against when the caller (the OpenCode plugin) has no stack to give. Only the root's manifests are
 * read — never a walk of the tree — and an unreadable or odd manifest names nothing.
 */
export function detectTechStack(dir: string): string[] {
  const found = new Set<string>();
  const pkg = read(dir, "package.json");
  if (pkg !== undefined) {
    found.add("node");
    try {
      const j = JSON.parse(pkg) as Record<string, unknown>;
      const deps = ["dependencies", "devDependencies", "peerDependencies"].flatMap((k) => {
        const v = j[k];
        return v && typeof v === "object" ? Object.keys(v) : [];
      });
      for (const d of deps) if (NPM_STACKS[d]) found.add(NPM_STACKS[d]);
      if (!found.has("typescript")) found.add("javascript");
    } catch {
      // A package.json that is not JSON still says node.
    }
  }
  const python = [read(dir, "pyproject.toml"), read(dir, "requirements.txt"), read(dir, "setup.py")].filter((t): t is string => t !== undefined);
  if (python.length) {
    found.add("python");
    const text = python.join("\n").toLowerCase();
    for (const p of PYTHON_STACKS) if (new RegExp(`(?:^|[^a-z0-9_-])${p}(?:$|[^a-z0-9_-])`, "m").test(text)) found.add(p);
  }
  for (const [file, stack] of MARKER_FILES) if (fs.existsSync(path.join(dir, file))) found.add(stack);
  if (found.has("typescript")) found.delete("javascript");
  return [...found];
}
