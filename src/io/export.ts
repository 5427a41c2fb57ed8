// Writes entries as JSONL (optionally with a cairn_export header), atomically and without building one big string.
import { randomBytes } from "node:crypto";
import { open, rename, unlink, type FileHandle } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { SCHEMA_VERSION, type Entry } from "../core/entry.js";
import { CairnError } from "../errors.js";

export interface ExportOptions {
  /** `cairn` adds the header line the importer recognises; `jsonl` is bare entries. */
  format: "cairn" | "jsonl";
}

// Flushing in ~256 KiB batches keeps syscalls few while memory stays flat for any entry count.
const BATCH_BYTES = 256 * 1024;

/**
 * Each awaited write is the backpressure: the next batch is not built until the disk took
 * the last. The temp file sits beside the target so the final rename is atomic; it is
 * fsynced first so a crash leaves the old file or the new one, never half of one.
 */
export async function writeExport(
  path: string,
  entries: AsyncIterable<Entry> | Iterable<Entry>,
  opts: ExportOptions,
): Promise<{ written: number }> {
  const tmp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString("hex")}.tmp`);
  const fh = await open(tmp, "wx").catch((e: NodeJS.ErrnoException) => {
    throw cannotWrite(path, e);
  });
  let written = 0;
  try {
    let batch = "";
    if (opts.format === "cairn") {
      batch += JSON.stringify({ cairn_export: 1, schema_version: SCHEMA_VERSION, exported_at: new Date().toISOString() }) + "\n";
    }
    for await (const entry of entries) {
      batch += JSON.stringify(entry) + "\n";
      written++;
      if (batch.length >= BATCH_BYTES) {
        await writeAll(fh, batch);
        batch = "";
      }
    }
    await writeAll(fh, batch);
    await fh.sync();
    await fh.close();
    await rename(tmp, path);
  } catch (e) {
    await fh.close().catch(() => undefined);
    await unlink(tmp).catch(() => undefined);
    throw e;
  }
  return { written };
}

/** fh.write may write fewer bytes than asked; loop so no batch is ever cut short. */
async function writeAll(fh: FileHandle, text: string): Promise<void> {
  const buf = Buffer.from(text, "utf8");
  for (let off = 0; off < buf.length; ) off += (await fh.write(buf, off)).bytesWritten;
}

/** The user named `path`, not the temp file beside it: say why that path cannot be written. */
function cannotWrite(path: string, e: NodeJS.ErrnoException): CairnError {
  const dir = dirname(path);
  const why =
    e.code === "ENOENT" ? `the folder ${dir} does not exist`
    : e.code === "ENOTDIR" ? `${dir} is not a folder`
    : e.code === "EACCES" || e.code === "EPERM" ? `no permission to create files in ${dir}`
    : e.code === "EROFS" ? `${dir} is on a read-only file system`
    : e.message;
  return new CairnError("IO_ERROR", `Cannot write ${path}: ${why}.`, { path });
}
