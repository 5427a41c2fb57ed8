// The package's OpenCode entry (`exports["./server"]`): OpenCode ≥ 1.x loads `{ id, server }` from here for `"plugin": ["cairn"]`.
import type { PluginModule } from "@opencode-ai/plugin";
import { CairnPlugin } from "./plugin.js";

// The library entry (".") exports functions and classes that an older loader would call as plugins; this module exports only the plugin.
const entry: PluginModule = { id: "cairn", server: CairnPlugin };
export default entry;
