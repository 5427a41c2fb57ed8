// Test helpers for the io layer: temp dirs and draining a parse stream.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { BadLine, ParsedRecord, ParseItem } from "../../src/io/types.js";

export function tmpDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), "cairn-"));
}

export function writeTmp(name: string, content: string | Buffer): string {
  const file = path.join(tmpDir(), name);
  fs.writeFileSync(file, content);
  return file;
}

export async function collect(items: AsyncIterable<ParseItem>): Promise<{ ok: ParsedRecord[]; bad: BadLine[] }> {
  const ok: ParsedRecord[] = [];
  const bad: BadLine[] = [];
  for await (const it of items) {
    if (it.ok) ok.push(it.record);
    else bad.push(it.bad);
  }
  return { ok, bad };
}
