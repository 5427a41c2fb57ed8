// Global options, opening the engine for one command, and the run wrapper every action goes through.
import fs from "node:fs";
import path from "node:path";
import { InvalidArgumentError, type Command } from "commander";
import { CairnError } from "../../errors.js";
import type { Cairn } from "../../engine.js";
import { nameProblem } from "../../governance/actor-name.js";
import { isHumanActor } from "../../governance/actors.js";
import { assertHiveFileNotUrl, isPostgresUrl } from "../../store/pg/url.js";
import { reportError } from "./errors.js";
import { Output } from "./format.js";

export interface GlobalOptions {
  project?: string;
  hive?: string;
  json?: boolean;
  config?: string;
  actor?: string;
}

const ACTOR = /^(human|agent|import|curator|mcp):(.+)$/s;

/** `raw` as an actor, its name NFC (the same person however the accent was typed); refused with what is wrong. */
function validActor(raw: string, where: string): string {
  const m = ACTOR.exec(raw.normalize("NFC"));
  if (!m) throw new CairnError("INVALID_INPUT", `Invalid ${where} "${raw.slice(0, 80)}": use <human|agent|import|curator|mcp>:<name>, e.g. human:alice.`);
  const problem = nameProblem(m[2]!);
  if (problem) throw new CairnError("INVALID_INPUT", `Invalid ${where} "${raw.slice(0, 80)}": ${problem}`);
  return `${m[1]}:${m[2]}`;
}

export interface Invocation {
  out: Output;
  projectDir: string;
  actor: string;
  hivePath: string | undefined;
  /** The environment the engine sees: `--config` travels as CAIRN_CONFIG, like a user setting it. */
  env: NodeJS.ProcessEnv;
}

/**
 * `--actor`, else `CAIRN_ACTOR` (the OpenCode plugin sets it to `agent:<name>` for an agent's shell
 * commands), else `human:cli`. Under an agent's CAIRN_ACTOR a `--actor human:*` is refused: an agent
 * must not be able to approve lessons by claiming to be a person.
 */
export function resolveActor(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env.CAIRN_ACTOR?.trim() ? validActor(env.CAIRN_ACTOR.trim(), "CAIRN_ACTOR") : undefined;
  const actor = flag !== undefined ? validActor(flag, "--actor") : (fromEnv ?? "human:cli");
  if (fromEnv?.startsWith("agent:") && isHumanActor(actor)) {
    throw new CairnError("FORBIDDEN", `--actor ${actor} refused: CAIRN_ACTOR=${fromEnv} says an agent runs this command, and an agent cannot act as a person.`, { actor: fromEnv });
  }
  return actor;
}

/** `--config` travels as CAIRN_CONFIG, like a user setting it. */
function environment(g: GlobalOptions): NodeJS.ProcessEnv {
  const env = { ...process.env };
  if (g.config) env.CAIRN_CONFIG = path.resolve(g.config);
  return env;
}

/** `--hive` as given: a team database URL passes through untouched; a file path is made absolute. */
function hiveLocation(hive: string): string {
  if (isPostgresUrl(hive)) return hive.trim();
  assertHiveFileNotUrl(hive, "--hive");
  return path.resolve(hive);
}

/**
 * The global flags as a server that opens its own engines sees them (`cairn --hive X mcp`): the
 * environment, with `--hive` as CAIRN_HIVE_URL or CAIRN_HIVE (which win over the config, as the flag does).
 */
export function serverEnvironment(g: GlobalOptions): NodeJS.ProcessEnv {
  const env = environment(g);
  if (g.hive) {
    const [set, unset] = isPostgresUrl(g.hive) ? ["CAIRN_HIVE_URL", "CAIRN_HIVE"] : ["CAIRN_HIVE", "CAIRN_HIVE_URL"];
    delete env[unset];
    env[set] = hiveLocation(g.hive);
  }
  return env;
}

export function invocation(cmd: Command): Invocation {
  const g = cmd.optsWithGlobals<GlobalOptions>();
  const out = new Output(Boolean(g.json));
  const actor = resolveActor(g.actor);
  const env = environment(g);
  return {
    out,
    projectDir: path.resolve(g.project ?? process.cwd()),
    actor,
    hivePath: g.hive ? hiveLocation(g.hive) : undefined,
    env,
  };
}

export interface OpenOptions {
  /** A command that only reads: a project with no `.swarm/cairn.db` gets none (its tier reads as empty). */
  read?: boolean;
  /** Open past an invalid config layer, leaving it out (doctor reports it as a finding). */
  lenientConfig?: boolean;
  /** The command reports damaged databases itself (doctor): no notice on stderr. */
  quietDamage?: boolean;
  /** Create the missing folders of the hive path the settings name (`init` only: elsewhere a typo is refused). */
  createHiveFolder?: boolean;
}

/**
 * No command conjures a project out of a typo'd path, `init` and `ui` included: `.swarm/` is made in a
 * folder that exists. A file is no project either (read commands used to answer "no entries", doctor "ok").
 */
export function assertProjectExists(projectDir: string): void {
  // ENOTDIR (a path through a file) reads as "does not exist", as ENOENT does.
  const stat = (() => {
    try {
      return fs.statSync(projectDir);
    } catch {
      return undefined;
    }
  })();
  if (stat?.isDirectory()) return;
  if (stat) {
    throw new CairnError("INVALID_INPUT", `Project directory ${projectDir} is a file, not a folder. Give --project the project's folder, e.g. ${path.dirname(projectDir)}.`);
  }
  throw new CairnError(
    "INVALID_INPUT",
    `Project directory ${projectDir} does not exist. Check the --project path, or create the folder first (mkdir -p ${/^[\w./:\\-]+$/.test(projectDir) ? projectDir : JSON.stringify(projectDir)}).`,
  );
}

export async function open(inv: Invocation, opts: OpenOptions = {}): Promise<Cairn> {
  assertProjectExists(inv.projectDir);
  // Loaded on demand: `cairn --help` and usage errors never pay for the engine.
  const { openCairn } = await import("../../engine.js");
  return openCairn({
    projectDir: inv.projectDir,
    ...(inv.hivePath ? { hivePath: inv.hivePath } : {}),
    actor: inv.actor,
    env: inv.env,
    ...(opts.read ? { createSwarm: false } : {}),
    ...(opts.lenientConfig ? { lenientConfig: true } : {}),
    ...(opts.quietDamage ? { quietDamage: true } : {}),
    // A path typed in a shell: a typo's folder is refused, not made (init alone makes it).
    createHiveFolder: opts.createHiveFolder ?? false,
  });
}

/** An action body: returns the exit code (0 when nothing is returned). */
type Body<A extends unknown[]> = (inv: Invocation, ...args: A) => Promise<number | void>;

/** Wraps a command action: parses globals, reports errors, sets the exit code. Never throws. */
export function action<A extends unknown[]>(body: Body<A>): (...args: unknown[]) => Promise<void> {
  return async (...args: unknown[]) => {
    const cmd = args[args.length - 1] as Command;
    let out = new Output(Boolean(cmd.optsWithGlobals<GlobalOptions>().json));
    try {
      const inv = invocation(cmd);
      out = inv.out;
      const code = await body(inv, ...(args.slice(0, -1) as A));
      process.exitCode = code ?? 0;
    } catch (e) {
      process.exitCode = reportError(e, out);
    }
  };
}

/** Opens the engine, runs `fn`, and always closes it. */
export async function withCairn<T>(inv: Invocation, fn: (cairn: Cairn) => Promise<T>, opts: OpenOptions = {}): Promise<T> {
  const cairn = await open(inv, opts);
  try {
    return await fn(cairn);
  } finally {
    await cairn.close();
  }
}

/** `withCairn` for commands that only read: they never create the project's database. */
export function readCairn<T>(inv: Invocation, fn: (cairn: Cairn) => Promise<T>): Promise<T> {
  return withCairn(inv, fn, { read: true });
}

export function int(name: string, min = 0): (v: string) => number {
  return (v: string) => {
    const digits = /^\d+$/.test(v.trim());
    const n = Number(v);
    // A whole number past 2^53 is one still: saying "must be a whole number" would not tell what is wrong with it.
    if (digits && !Number.isSafeInteger(n)) throw new InvalidArgumentError(`${name} is too large: at most ${Number.MAX_SAFE_INTEGER}.`);
    if (!digits || n < min) throw new InvalidArgumentError(`${name} must be a whole number ≥ ${min}.`);
    return n;
  };
}
