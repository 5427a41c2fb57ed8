// A stored lesson the schema no longer accepts (hand-edited, or written before a limit): the next write of it fails validation the engine did not word.
import Database from "libsql";

/** Gives the entry a 100-character title (the schema allows 80) straight in the SQLite file. */
export function storeOverlongTitle(dbFile: string, entryId: string): void {
  const db = new Database(dbFile);
  try {
    // The server under test may hold the write lock a moment after answering (its idle checkpoint): wait for it as Cairn does.
    db.exec("PRAGMA busy_timeout = 30000");
    db.prepare("UPDATE entries SET data = json_set(data, '$.title', ?) WHERE id = ?").run("T".repeat(100), entryId);
  } finally {
    db.close();
  }
}
