// Dropping root to nobody for one child process: tests run as root here, where file permissions never bite.
import { execFileSync } from "node:child_process";

/** Whether this process is root and `setpriv` can run a child as nobody (read-only tests need a user mode bits stop). */
export function canDropPrivileges(): boolean {
  if (process.getuid?.() !== 0) return false;
  try {
    execFileSync("setpriv", ["--reuid=nobody", "--regid=nogroup", "--clear-groups", "true"]);
    return true;
  } catch {
    return false;
  }
}
