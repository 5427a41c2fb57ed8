// Which project one MCP session works on: its client's roots when offered, else --project / cwd; re-read when roots change.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import { RootsListChangedNotificationSchema, type ServerNotification, type ServerRequest } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { Cairn } from "../../engine.js";
import { CairnError } from "../../errors.js";
import { errorText, log } from "./log.js";
import { canonicalDir, projectDirFromRoots, type ProjectPool } from "./projects.js";

export type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

export interface ResolvedProject {
  dir: string;
  cairn: Cairn;
  /** Where the choice came from, for logs and the stats resource. */
  source: "roots" | "default";
}

const ROOTS_TIMEOUT_MS = 10_000;

/**
 * The client's roots, any URI scheme: the SDK's own schema refuses a root that is not file:// (a remote
 * workspace's vscode-remote://), which failed every call; projectDirFromRoots skips such a root instead.
 */
const RootsAnyScheme = z.looseObject({ roots: z.array(z.looseObject({ uri: z.string(), name: z.string().optional() })) });

export class SessionProject {
  private current: Promise<ResolvedProject> | undefined;
  private resolvedDir: string | undefined;

  constructor(
    private readonly server: McpServer,
    private readonly pool: ProjectPool,
    private readonly fallbackDir: string,
  ) {
    server.server.setNotificationHandler(RootsListChangedNotificationSchema, () => {
      this.current = undefined;
      this.resolvedDir = undefined;
      // Entry resources now belong to another project; clients should list them again.
      if (server.isConnected()) server.sendResourceListChanged();
    });
  }

  /** The project the session's last call resolved to, if any (for change announcements). */
  get dir(): string | undefined {
    return this.resolvedDir;
  }

  /**
   * Resolved lazily, from inside a request, so the roots request travels on that request's
   * stream — over HTTP a server-initiated request outside one may have nowhere to go.
   */
  resolve(extra: Extra): Promise<ResolvedProject> {
    if (!this.current) {
      const attempt = this.compute(extra);
      this.current = attempt;
      attempt.then(
        (p) => {
          if (this.current === attempt) this.resolvedDir = p.dir;
        },
        () => {
          if (this.current === attempt) this.current = undefined;
        },
      );
    }
    return this.current;
  }

  private async compute(extra: Extra): Promise<ResolvedProject> {
    const offersRoots = Boolean(this.server.server.getClientCapabilities()?.roots);
    if (offersRoots) {
      let roots;
      try {
        roots = (await extra.sendRequest({ method: "roots/list" }, RootsAnyScheme, { timeout: ROOTS_TIMEOUT_MS })).roots;
      } catch (e) {
        // Guessing another project here could show this client someone else's lessons; fail the call instead.
        throw new CairnError("INVALID_INPUT", `Could not read the client's workspace roots (${errorText(e)}); retry the call.`);
      }
      const dir = projectDirFromRoots(roots);
      if (dir) return { dir, cairn: await this.pool.get(dir), source: "roots" };
      log(`client roots name no local directory (${roots.map((r) => r.uri).join(", ") || "none"}); using ${this.fallbackDir}`);
    }
    const dir = canonicalDir(this.fallbackDir);
    return { dir, cairn: await this.pool.get(dir), source: "default" };
  }
}
