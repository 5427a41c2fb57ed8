// Writes src/quality/cue-literals.ts: the literals each injection cue requires, read from its regexes' syntax trees once here, not at run time.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { cueLiteralsModule } from "../src/quality/required-literals.js";

const out = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "src", "quality", "cue-literals.ts");
fs.writeFileSync(out, await cueLiteralsModule());
console.log(`wrote ${path.relative(process.cwd(), out)}`);
