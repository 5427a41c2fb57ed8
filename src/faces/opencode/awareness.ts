// Agent awareness: which agent did what (bounded, in memory), summarised for the orchestrator's system prompt.
import path from "node:path";

interface ToolUse {
  tool: string;
  target?: string;
  at: number;
}

const MAX_SESSIONS = 500;
const MAX_AGENTS = 30;
const TOOLS_PER_AGENT = 12;
const MAX_FILES = 12;

/** Map with insertion-order eviction: the oldest key goes when the cap is reached. */
function setBounded<K, V>(map: Map<K, V>, key: K, value: V, cap: number): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > cap) map.delete(map.keys().next().value as K);
}

export class AgentActivity {
  private readonly sessions = new Map<string, string>();
  private readonly agents = new Map<string, ToolUse[]>();
  private readonly files: string[] = [];

  constructor(private readonly projectDir: string) {}

  noteSession(sessionID: string, agent: string | undefined): void {
    if (sessionID && agent) setBounded(this.sessions, sessionID, agent, MAX_SESSIONS);
  }

  agentOf(sessionID: string | undefined): string | undefined {
    return sessionID ? this.sessions.get(sessionID) : undefined;
  }

  /** Cheap by design: runs on every tool call, so it only reads a path-like argument. */
  noteTool(sessionID: string, tool: string, args: unknown): void {
    const agent = this.sessions.get(sessionID) ?? "unknown";
    const a = (args && typeof args === "object" ? args : {}) as Record<string, unknown>;
    const raw = [a.filePath, a.path, a.file_path].find((v): v is string => typeof v === "string" && v.length > 0);
    const target = raw ? this.relative(raw) : undefined;
    const uses = this.agents.get(agent) ?? [];
    uses.push({ tool, ...(target ? { target } : {}), at: Date.now() });
    if (uses.length > TOOLS_PER_AGENT) uses.shift();
    setBounded(this.agents, agent, uses, MAX_AGENTS);
    if (target) {
      const i = this.files.indexOf(target);
      if (i >= 0) this.files.splice(i, 1);
      this.files.push(target);
      if (this.files.length > MAX_FILES) this.files.shift();
    }
  }

  /** Files touched recently by any agent, newest last: part of the retrieval context. */
  recentFiles(): string[] {
    return [...this.files];
  }

  /** "coder: edit src/a.ts, bash ×2 · reviewer: read src/b.ts" for agents other than `self`, newest first, ≤ maxChars. */
  summary(maxChars: number, self?: string): string {
    if (maxChars <= 0) return "";
    const others = [...this.agents.entries()].filter(([agent]) => agent !== self && agent !== "unknown").reverse();
    if (others.length === 0) return "";
    const parts = others.map(([agent, uses]) => {
      const counts = new Map<string, { n: number; targets: string[] }>();
      for (const u of uses) {
        const c = counts.get(u.tool) ?? { n: 0, targets: [] };
        c.n++;
        if (u.target && !c.targets.includes(u.target)) c.targets.push(u.target);
        counts.set(u.tool, c);
      }
      const tools = [...counts.entries()].map(([tool, c]) => `${tool}${c.targets.length ? ` ${c.targets.slice(-2).join(", ")}` : ""}${c.n > 1 ? ` ×${c.n}` : ""}`);
      return `${agent}: ${tools.join(", ")}`;
    });
    const head = "Recent activity of other agents: ";
    let text = head;
    for (const p of parts) {
      const next = text === head ? text + p : `${text} · ${p}`;
      if (next.length > maxChars) break;
      text = next;
    }
    return text === head ? "" : text;
  }

  private relative(p: string): string {
    const rel = path.isAbsolute(p) ? path.relative(this.projectDir, p) : p;
    return (rel.startsWith("..") ? p : rel).split(path.sep).join("/").slice(0, 200);
  }
}
