// Typed errors with a stable code and a message a user can act on.

export type CairnErrorCode =
  | "INVALID_INPUT"
  | "INVALID_ID"
  | "NOT_FOUND"
  | "REJECTED"
  | "FORCE_REQUIRED"
  | "INVALID_CONFIG"
  | "STORE_ERROR"
  | "IMPORT_ERROR"
  | "CONFLICT"
  /** The actor may not do this (only a person approves). */
  | "FORBIDDEN"
  /** The team hive (PostgreSQL) cannot be reached or did not answer in time. */
  | "UNAVAILABLE"
  /** knowledge.enabled is false: nothing is recorded. */
  | "DISABLED"
  /** A database file is damaged (truncated, overwritten, not a database): `cairn doctor --repair` salvages it. */
  | "DAMAGED"
  /** A database file or its folder is not writable by this user: reads work, writes are refused. */
  | "READ_ONLY"
  /** The file system holding a database is full (or the database hit its page limit). */
  | "DISK_FULL"
  /** A file Cairn was asked to write cannot be (no such folder, no permission). */
  | "IO_ERROR"
  /** Stopped by Ctrl-C (or SIGTERM) before it finished; what it was writing was left as it was. */
  | "INTERRUPTED";

export class CairnError extends Error {
  readonly code: CairnErrorCode;
  readonly details: Record<string, unknown> | undefined;
  constructor(code: CairnErrorCode, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = "CairnError";
    this.code = code;
    this.details = details;
  }
}

/** No entry by that id or handle. Each face adds where its user finds the ids (`cairn list`, knowledge_query, `/swarm knowledge`). */
export class NotFoundError extends CairnError {
  /** `where`: the tiers searched, when that is not both (the hive switched off). */
  constructor(id: string, where = "in either tier") {
    super("NOT_FOUND", `No entry with id or handle "${id}" ${where}.`, { id });
    this.name = "NotFoundError";
  }
}

export class InvalidConfigError extends CairnError {
  constructor(message: string, details?: Record<string, unknown>) {
    super("INVALID_CONFIG", message, details);
    this.name = "InvalidConfigError";
  }
}

export function isCairnError(e: unknown): e is CairnError {
  return e instanceof CairnError;
}

/** The team hive could not answer (down, unreachable, too slow): the caller falls back or queues. */
export function isUnavailable(e: unknown): boolean {
  return e instanceof CairnError && e.code === "UNAVAILABLE";
}

export const DISABLED_MESSAGE = "Knowledge is disabled for this project (knowledge.enabled = false): nothing was recorded. Set knowledge.enabled to true to use it.";

/** Every write of lessons, feedback or outcomes refuses with this while the master switch is off. */
export class KnowledgeDisabledError extends CairnError {
  constructor() {
    super("DISABLED", DISABLED_MESSAGE);
    this.name = "KnowledgeDisabledError";
  }
}

/** What the store-fault errors carry: the file, and what the user can do about it. */
export interface StoreFaultDetails extends Record<string, unknown> {
  path: string;
  /** What is wrong with it, in words (a damaged file), for advice worded where it is said. */
  damage?: string;
}

/** A database that SQLite reports as malformed or not a database. Nothing is written to it. */
export class DatabaseDamagedError extends CairnError {
  declare readonly details: StoreFaultDetails;
  constructor(message: string, details: StoreFaultDetails) {
    super("DAMAGED", message, details);
    this.name = "DatabaseDamagedError";
  }
}

/** A write to a database this user may only read (file or folder permissions). */
export class ReadOnlyDatabaseError extends CairnError {
  declare readonly details: StoreFaultDetails;
  constructor(message: string, details: StoreFaultDetails) {
    super("READ_ONLY", message, details);
    this.name = "ReadOnlyDatabaseError";
  }
}

/** A write that found no room: the transaction was rolled back, what was saved before is intact. */
export class DiskFullError extends CairnError {
  declare readonly details: StoreFaultDetails & { free_bytes: number | null; needed_bytes: number };
  constructor(message: string, details: StoreFaultDetails & { free_bytes: number | null; needed_bytes: number }) {
    super("DISK_FULL", message, details);
    this.name = "DiskFullError";
  }
}
