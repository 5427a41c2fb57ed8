// Who may do what under governance: only people approve, reject or edit; other writers start drafts when approval is on.
import type { CairnConfig } from "../config.js";
import type { Tier } from "../core/entry.js";
import { CairnError } from "../errors.js";

export function isHumanActor(actor: string | undefined): boolean {
  return typeof actor === "string" && /^human:\S+$/.test(actor);
}

/**
 * Agents (`agent:*`), MCP clients (`mcp:*`), the curator, outcome extraction and automatic
 * promotion all write drafts under approval; imports and restores carry data a person already chose.
 */
export function needsApproval(config: CairnConfig, tier: Tier, actor: string, source: string): boolean {
  if (!config.governance.require_approval[tier]) return false;
  // An import carries what a person chose, when a person runs it (`import:human:…`); one an agent runs
  // (`cairn import` in its shell: `import:agent:…`) waits for a person like anything else it writes.
  if (source === "import" || source === "restore") return actor.startsWith("import:") && !isHumanActor(actor.slice("import:".length));
  return !isHumanActor(actor);
}

export class NotPermittedError extends CairnError {
  constructor(actor: string, what: string) {
    super("FORBIDDEN", `Only a person can ${what}: "${actor.slice(0, 80)}" is not a human:* actor.`, { actor });
    this.name = "NotPermittedError";
  }
}

export function assertHuman(actor: string, what: string): void {
  if (!isHumanActor(actor)) throw new NotPermittedError(actor, what);
}
