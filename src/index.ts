// Public library API of Cairn: openCairn and the types a caller needs.
export { openCairn, Cairn, resolveHivePath } from "./engine.js";
export type { OpenCairnOptions, AddOptions, RecallHit, ListFilter, Stats, TierStats, PhaseCompleteReport } from "./engine.js";
export * from "./core/entry.js";
export { CairnError, NotFoundError, InvalidConfigError, isCairnError } from "./errors.js";
export type { CairnErrorCode } from "./errors.js";
export { ConfigSchema, loadConfig, configReference, platformDataDir } from "./config.js";
export type { CairnConfig, ConfigInput, KnowledgeConfig } from "./config.js";
export type { WriteResult } from "./lifecycle/write.js";
export type { SweepReport } from "./lifecycle/sweep.js";
export type { PromotionResult } from "./lifecycle/promote.js";
export { VERDICTS, type Verdict } from "./lifecycle/feedback.js";
export type { RetrievalContext } from "./retrieval/context.js";
export type { InjectResult } from "./retrieval/inject.js";
export { INJECTION_SENTINEL } from "./retrieval/render.js";
export type { ImportReport, ImportOptions } from "./io/import-file.js";
export type { QualityIssue } from "./quality/types.js";
export type { Store } from "./store/store.js";
