// Writes entries as JSONL (optionally with a cairn_export header), atomically and without building one big string.
import { randomBytes } from "node:crypto";
import { link, open, realpath, rename, stat, unlink, type FileHandle } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { SCHEMA_VERSION, type Entry } from "../core/entry.js";
import { CairnError } from "../errors.js";
import { sqliteKindOfFile } from "../store/sqlite-file.js";

export interface ExportOptions {
  /** `cairn` adds the header line the importer recognises; `jsonl` is bare entries. */
  format: "cairn" | "jsonl";
  /** Stops the export between two entries (Ctrl-C): a file being replaced is left as it was, its temp file removed. */
  signal?: AbortSignal;
  /** Replace a file that is already there (`cairn export --force`); without it, an existing file is refused and left as it was. */
  overwrite?: boolean;
}

// Flushing in ~256 KiB batches keeps syscalls few while memory stays flat for any entry count.
const BATCH_BYTES = 256 * 1024;

/**
 * Writes `entries` to the file at `path`. A regular file (or a new one) is replaced atomically: the
 * entries go to a temp file beside it, fsynced, then renamed over it, so a crash leaves the old file
 * or the new one, never half of one; through a symlink, the file it names is replaced. Anything else
 * (a FIFO, /dev/stdout, a terminal) is written in place: renaming over it would put a regular file
 * where the device or pipe was.
 */
export async function writeExport(
  path: string,
  entries: AsyncIterable<Entry> | Iterable<Entry>,
  opts: ExportOptions,
): Promise<{ written: number }> {
  const existing = await stat(path).catch(() => undefined);
  if (existing?.isDirectory()) throw new CairnError("IO_ERROR", `Cannot write ${path}: it is a folder; name a file in it.`, { path });
  if (existing && !existing.isFile()) {
    const fh = await open(path, "w").catch((e: NodeJS.ErrnoException) => {
      throw cannotWrite(path, e);
    });
    try {
      return await writeEntries((text) => writeAll(fh, text), entries, opts);
    } finally {
      await fh.close().catch(() => undefined);
    }
  }
  const target = existing ? await realpath(path) : path;
  if (existing) assertNotDatabase(path, target);
  // Refused before a byte is written, so a user's file is never replaced by a command that did not say so.
  if (existing && !opts.overwrite) throw alreadyExists(path);
  const tmp = join(dirname(target), `.${basename(target)}.${randomBytes(6).toString("hex")}.tmp`);
  const fh = await open(tmp, "wx").catch((e: NodeJS.ErrnoException) => {
    throw cannotWrite(path, e);
  });
  try {
    const result = await writeEntries((text) => writeAll(fh, text), entries, opts);
    await fh.sync();
    await fh.close();
    await publish(tmp, target, opts.overwrite === true, path);
    return result;
  } catch (e) {
    await fh.close().catch(() => undefined);
    await unlink(tmp).catch(() => undefined);
    if (opts.signal?.aborted) {
      throw new CairnError("INTERRUPTED", `The export was stopped before it finished: ${existing ? `${path} was left as it was` : `nothing was written to ${path}`}.`, { path });
    }
    throw e;
  }
}

function alreadyExists(path: string): CairnError {
  return new CairnError("FORCE_REQUIRED", `Cannot write ${path}: it already exists, and an export does not replace a file unless told to. Pass --force to replace it, or name a new file.`, { path });
}

/**
 * Puts the finished temp file at `target`. Replacing: a rename, atomic. Not replacing: a hard link, which fails if a
 * file appeared there while the export ran (so it is never clobbered); where links are not supported, a last check and a rename.
 */
async function publish(tmp: string, target: string, overwrite: boolean, path: string): Promise<void> {
  if (overwrite) return rename(tmp, target);
  try {
    await link(tmp, target);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "EEXIST") throw alreadyExists(path);
    if (code !== "EPERM" && code !== "ENOTSUP" && code !== "EOPNOTSUPP" && code !== "EXDEV") throw e;
    if (await stat(target).catch(() => undefined)) throw alreadyExists(path);
    return rename(tmp, target);
  }
  await unlink(tmp);
}

/** Writes `entries` to a stream (stdout for `cairn export -`), waiting whenever it asks to. */
export async function writeExportTo(
  out: NodeJS.WritableStream,
  entries: AsyncIterable<Entry> | Iterable<Entry>,
  opts: ExportOptions,
): Promise<{ written: number }> {
  return writeEntries((text) => writeToStream(out, text), entries, opts);
}

/**
 * Each awaited write is the backpressure: the next batch is not built until the last one was taken.
 */
async function writeEntries(
  write: (text: string) => Promise<void>,
  entries: AsyncIterable<Entry> | Iterable<Entry>,
  opts: ExportOptions,
): Promise<{ written: number }> {
  let written = 0;
  let batch = "";
  if (opts.format === "cairn") {
    batch += JSON.stringify({ cairn_export: 1, schema_version: SCHEMA_VERSION, exported_at: new Date().toISOString() }) + "\n";
  }
  for await (const entry of entries) {
    if (opts.signal?.aborted) throw new CairnError("INTERRUPTED", "The export was stopped before it finished.");
    batch += JSON.stringify(entry) + "\n";
    written++;
    if (batch.length >= BATCH_BYTES) {
      await write(batch);
      batch = "";
    }
  }
  if (batch) await write(batch);
  return { written };
}

/** fh.write may write fewer bytes than asked; loop so no batch is ever cut short. */
async function writeAll(fh: FileHandle, text: string): Promise<void> {
  const buf = Buffer.from(text, "utf8");
  for (let off = 0; off < buf.length; ) off += (await fh.write(buf, off)).bytesWritten;
}

function writeToStream(out: NodeJS.WritableStream, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = (e?: Error | null) => (e ? reject(e) : resolve());
    out.write(text, done);
  });
}

/**
 * `cairn export .swarm/cairn.db` reads like "export the database" and would replace the lessons
 * with their JSON Lines: a database (or its write-ahead log) is never an export's target.
 */
function assertNotDatabase(path: string, target: string): void {
  const kind = sqliteKindOfFile(target);
  if (kind !== "database" && kind !== "wal") return;
  const instead = join(dirname(path), "cairn-export.jsonl");
  throw new CairnError(
    "INVALID_INPUT",
    `Cannot write ${path}: it is an SQLite database (or its log), and an export would replace it with JSON Lines. Name a new file, e.g. ${instead}.`,
    { path },
  );
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
