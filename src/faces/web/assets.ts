// The browser assets Vite built into dist/web (shipped in the package): which files a page links, and serving them.
import fs from "node:fs";
import path from "node:path";
import { packageRoot } from "../../core/package-info.js";
import { CairnError } from "../../errors.js";

/** Client entries (src/faces/web/client), as named in vite.config.ts. */
export type AssetEntry = "main" | "dashboard";

interface ManifestChunk {
  file: string;
  name?: string;
  isEntry?: boolean;
  css?: string[];
  imports?: string[];
}

export interface PageAssets {
  scripts: string[];
  styles: string[];
  /** Chunks the entry scripts import: preloaded so the browser fetches them at once. */
  preloads: string[];
}

export interface AssetFile {
  body: Buffer;
  type: string;
}

const TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".woff2": "font/woff2",
};

/** dist/web of this package, where `npm run build` puts the Vite output (src/, dist/ and chunks all find it). */
function assetDir(): string | undefined {
  const dir = path.join(packageRoot(), "dist", "web");
  return fs.existsSync(path.join(dir, ".vite", "manifest.json")) ? dir : undefined;
}

export class Assets {
  private readonly files = new Map<string, AssetFile>();
  private readonly entries = new Map<AssetEntry, PageAssets>();

  /** Reads every built file once at start: serving is a map lookup, and nothing else on disk is reachable. */
  constructor(dir = assetDir()) {
    if (!dir) {
      throw new CairnError("INVALID_CONFIG", "The web UI's assets are missing (dist/web). In a source checkout run `npm run build` first.");
    }
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, ".vite", "manifest.json"), "utf8")) as Record<string, ManifestChunk>;
    for (const chunk of Object.values(manifest)) {
      for (const f of [chunk.file, ...(chunk.css ?? [])]) this.load(dir, f);
    }
    const byKey = (key: string) => manifest[key];
    for (const [key, chunk] of Object.entries(manifest)) {
      if (!chunk.isEntry || !chunk.name) continue;
      const styles = new Set<string>();
      const preloads = new Set<string>();
      // Imported chunks' CSS belongs to the page too; their JS is imported by the entry itself.
      const walk = (k: string, seen: Set<string>) => {
        const ch = byKey(k);
        if (!ch || seen.has(k)) return;
        seen.add(k);
        if (k !== key) preloads.add(`/${ch.file}`);
        for (const css of ch.css ?? []) styles.add(`/${css}`);
        for (const imp of ch.imports ?? []) walk(imp, seen);
      };
      walk(key, new Set());
      this.entries.set(chunk.name as AssetEntry, { scripts: [`/${chunk.file}`], styles: [...styles], preloads: [...preloads] });
    }
  }

  private load(dir: string, file: string): void {
    const type = TYPES[path.extname(file)];
    if (!type || this.files.has(`/${file}`)) return;
    this.files.set(`/${file}`, { body: fs.readFileSync(path.join(dir, file)), type });
  }

  /** Script and stylesheet URLs a page using these entries must link. */
  tags(...names: AssetEntry[]): PageAssets {
    const out: PageAssets = { scripts: [], styles: [], preloads: [] };
    for (const n of names) {
      const e = this.entries.get(n);
      if (!e) throw new CairnError("INVALID_CONFIG", `The web UI's build has no "${n}" entry; run \`npm run build\`.`);
      for (const k of ["scripts", "styles", "preloads"] as const) for (const f of e[k]) if (!out[k].includes(f)) out[k].push(f);
    }
    return out;
  }

  get(urlPath: string): AssetFile | undefined {
    return this.files.get(urlPath);
  }

  /** Bytes of JS and CSS a first load of these entries transfers (uncompressed), for the size budget. */
  weight(...names: AssetEntry[]): number {
    const t = this.tags(...names);
    return [...t.scripts, ...t.styles, ...t.preloads].reduce((n, f) => n + (this.files.get(f)?.body.length ?? 0), 0);
  }
}
