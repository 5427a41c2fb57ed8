// One open Cairn per project directory, shared by every session on it; and the project a client's roots name.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { openCairn, type Cairn } from "../../engine.js";
import { errorText, log } from "./log.js";

export interface Root {
  uri: string;
  name?: string;
}

/** The first `file://` root that is an existing directory; other roots (remote, missing) cannot hold a project. */
export function projectDirFromRoots(roots: readonly Root[]): string | undefined {
  for (const root of roots) {
    if (!root.uri.startsWith("file://")) continue;
    let dir: string;
    try {
      dir = fileURLToPath(root.uri);
    } catch {
      continue;
    }
    try {
      if (fs.statSync(dir).isDirectory()) return fs.realpathSync(dir);
    } catch {
      // A root that does not exist here is not a project we may create files in.
    }
  }
  return undefined;
}

export function canonicalDir(dir: string): string {
  const abs = path.resolve(dir);
  try {
    return fs.realpathSync(abs);
  } catch {
    return abs;
  }
}

type Listener = (projectDir: string) => void;

/** After the request that opened the project has its answer, so warming never delays it. */
const WARM_DELAY_MS = 250;

/** A server lives long: the first call of each kind should cost what later ones do (issue 16.2). */
function warmSoon(c: Cairn): void {
  setTimeout(() => void c.warm(), WARM_DELAY_MS).unref();
}

export class ProjectPool {
  private readonly open = new Map<string, Promise<Cairn>>();
  private readonly listeners = new Set<Listener>();

  constructor(private readonly env: NodeJS.ProcessEnv = process.env) {}

  /** The engine for `dir`, opened once; a failed open is not cached so a fixed config can be retried. */
  get(dir: string): Promise<Cairn> {
    const key = canonicalDir(dir);
    let cairn = this.open.get(key);
    if (!cairn) {
      cairn = openCairn({ projectDir: key, actor: "mcp:server", env: this.env });
      this.open.set(key, cairn);
      cairn.then(
        (c) => {
          log(`opened project ${c.project.name} (${key})`);
          warmSoon(c);
        },
        () => this.open.delete(key),
      );
    }
    return cairn;
  }

  /** Sessions subscribe so a change made through one session is announced to every session on that project. */
  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  notifyChanged(projectDir: string): void {
    for (const l of this.listeners) {
      try {
        l(projectDir);
      } catch (e) {
        log(`change listener failed: ${errorText(e)}`);
      }
    }
  }

  async closeAll(): Promise<void> {
    const all = [...this.open.values()];
    this.open.clear();
    await Promise.all(all.map(async (p) => (await p.catch(() => undefined))?.close()));
  }
}
