// Reads an import file in a known format and yields one ParseItem per record or bad line.
import { basename } from "node:path";
import { CairnError } from "../errors.js";
import { parseCairnLine } from "./formats/cairn.js";
import { parseContextMd } from "./formats/context-md.js";
import type { LineContext } from "./formats/json.js";
import { parseOpencodeSwarmLine } from "./formats/opencode-swarm.js";
import { parseSwarmToolsLine } from "./formats/swarm-tools.js";
import { NOT_UTF8_LINE, readLines, type Line } from "./lines.js";
import type { ImportFormat, ParseItem } from "./types.js";

type LineParser = (text: string, line: number, ctx: LineContext) => ParseItem | undefined;

const LINE_PARSERS: Readonly<Record<Exclude<ImportFormat, "context-md">, LineParser>> = {
  cairn: parseCairnLine,
  "opencode-swarm": parseOpencodeSwarmLine,
  "swarm-tools": parseSwarmToolsLine,
};

/**
 * Bad lines come back as `{ ok: false }` items and parsing carries on; only an unreadable
 * file (missing, a directory, no permission) throws, as a CairnError("IMPORT_ERROR").
 */
export async function* parseFile(path: string, format: ImportFormat): AsyncGenerator<ParseItem> {
  const ctx: LineContext = { basename: basename(path) };
  const lines = readable(path);
  if (format === "context-md") {
    yield* parseContextMd(lines, basename(path));
    return;
  }
  const parseLine = LINE_PARSERS[format];
  for await (const { line, text, notUtf8 } of lines) {
    if (text.trim() === "") continue;
    if (notUtf8) {
      yield { ok: false, bad: { line, error: NOT_UTF8_LINE } };
      continue;
    }
    const item = parseLine(text, line, ctx);
    if (item) yield item;
  }
}

async function* readable(path: string): AsyncGenerator<Line> {
  try {
    yield* readLines(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (typeof code !== "string") throw e;
    throw new CairnError("IMPORT_ERROR", `Cannot read ${path} (${code}). Check the path and permissions.`, { path, code });
  }
}
