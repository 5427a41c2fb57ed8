// Runs a bench worker in a new Node process and reads the one `RESULT {json}` line it prints.
import { spawn } from "node:child_process";

export function runResultWorker<T>(args: readonly string[], cwd: string, label: string, tail = 2000): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...args], { cwd, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (out += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (err += d));
    child.on("close", (code) => {
      const line = out.split("\n").find((l) => l.startsWith("RESULT "));
      if (code === 0 && line) resolve(JSON.parse(line.slice("RESULT ".length)) as T);
      else reject(new Error(`${label} exited ${code}: ${err.slice(-tail)}`));
    });
  });
}
