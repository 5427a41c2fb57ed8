// The `cairn` command: global options, the command groups, and usage errors mapped to exit code 2.
import { Command, CommanderError, Option } from "commander";
import { nonEmpty } from "./non-empty.js";
import { registerEntryCommands } from "./commands/entries.js";
import { registerIoCommands } from "./commands/io.js";
import { registerLearningCommands } from "./commands/learning.js";
import { registerGovernanceCommands } from "./commands/governance.js";
import { registerHiveCommands } from "./commands/hive.js";
import { createMcpCommand } from "../mcp/command.js";
import { registerLifecycleCommands } from "./commands/lifecycle.js";
import { registerRecallCommand } from "./commands/recall.js";
import { registerSetupCommands } from "./commands/setup.js";
import { packageVersion } from "../../core/package-info.js";
import { createUiCommand } from "../web/command.js";
import { serverEnvironment, type GlobalOptions } from "./context.js";
import { EXIT, readableMessage } from "./errors.js";
import { visibleControls } from "../../quality/sanitize.js";
import { Output } from "./format.js";
import { nearestName } from "../../core/nearest-name.js";

export function buildProgram(): Command {
  const program = new Command("cairn")
    .description("Cairn: lessons for teams of AI coding agents — record, gate, recall, review.")
    .version(packageVersion(), "-V, --version")
    .addOption(new Option("--project <dir>", "project whose .swarm/cairn.db to use (default: current directory)").argParser(nonEmpty("--project", "a path")))
    .addOption(new Option("--hive <path|url>", "hive database file, or a team hive postgres://… URL (default: CAIRN_HIVE_URL / hive_url, else CAIRN_HIVE, hive_path, platform data dir)").argParser(nonEmpty("--hive", "a path or a postgres:// URL")))
    .addOption(new Option("--json", "print one JSON value on stdout (errors as {\"error\": {code, message}})"))
    .addOption(new Option("--config <file>", "user config file to read instead of the default (like CAIRN_CONFIG)").argParser(nonEmpty("--config", "a path")))
    .addOption(new Option("--actor <who>", "who performs writes, e.g. human:alice, agent:coder (default: $CAIRN_ACTOR, else human:cli)"))
    .showSuggestionAfterError(true)
    .exitOverride();
  program.addHelpText(
    "after",
    `
Examples:
  $ cairn init
  $ cairn add "Check for null before reading req.user in the auth middleware" --category security
  $ cairn recall "auth middleware null check" --explain
  $ cairn import .swarm/knowledge.jsonl --json
  $ cairn list --status quarantined

Exit codes: 0 ok, 1 failure, 2 invalid input or rejected, 3 not found, 4 needs --force or conflicts.`,
  );
  registerSetupCommands(program);
  registerEntryCommands(program);
  registerRecallCommand(program);
  registerLifecycleCommands(program);
  registerIoCommands(program);
  registerLearningCommands(program);
  registerGovernanceCommands(program);
  registerHiveCommands(program);
  // `cairn --project X mcp` and `cairn mcp --project X` mean the same project; --hive and --config hold for it too.
  program.addCommand(
    createMcpCommand("mcp", () => serverEnvironment(program.opts<GlobalOptions>())).hook("preAction", (_parent, cmd) => {
      const project = program.opts<{ project?: string }>().project;
      if (project && !cmd.opts<{ project?: string }>().project) cmd.setOptionValue("project", project);
    }),
  );
  // The web server loads only when `ui` runs (its action imports it).
  program.addCommand(createUiCommand());
  // Subcommands inherit the parent's error handling so every usage error reaches one place.
  for (const cmd of program.commands) cmd.exitOverride().showSuggestionAfterError(true);
  return program;
}

/** Runs the CLI on `argv` (process.argv shape) and returns the exit code. */
export async function run(argv: string[]): Promise<number> {
  const program = buildProgram();
  const args = argv.slice(2);
  const json = args.includes("--json");
  const out = new Output(json);
  // Help someone asked for is printed as Commander writes it; everything else Commander would print on an
  // error (its message, its "(Did you mean …?)" on a line of its own, a group's whole help when its
  // subcommand is missing) is said once below, as one line (one JSON value with --json).
  const asked = args.some((a) => a === "--help" || a === "-h" || a === "help");
  const bare = args.length === 0;
  const quiet = {
    outputError: () => {},
    ...(asked || bare ? {} : { writeErr: () => {} }),
    // The version, under --json, is printed as JSON below.
    ...(json && !asked ? { writeOut: () => {} } : {}),
  };
  for (const cmd of everyCommand(program)) cmd.configureOutput(quiet);
  // Help asked for a command that does not exist (`cairn help nope`, `cairn nope --help`): Commander shows the
  // whole help (on stderr, exit 2, or as if asked, exit 0) and never names the word it did not know.
  const unknown = asked ? unknownCommandAsked(program, args) : undefined;
  if (unknown) {
    const help = `cairn ${commandPath(unknown.under)}--help`.replace("cairn cairn ", "cairn ");
    const meant = nearestName(unknown.name, unknown.under.commands.map((c) => c.name()));
    return usage(out, `unknown command '${unknown.name}'.${meant ? ` Did you mean ${meant}?` : ""} Run \`${help}\` for ${unknown.under === program ? "every command" : "its subcommands"}.`);
  }
  try {
    await program.parseAsync(argv);
    return typeof process.exitCode === "number" ? process.exitCode : EXIT.OK;
  } catch (e) {
    if (!(e instanceof CommanderError)) throw e;
    if (json && e.code === "commander.version") {
      out.print({ version: e.message });
      return EXIT.OK;
    }
    // Help shown because it was asked for (`cairn help list`) succeeded; so did the version.
    if (e.exitCode === 0) return EXIT.OK;
    const group = groupNamed(program, args);
    if (e.code === "commander.help" || e.code === "commander.helpDisplayed") {
      // A bare `cairn` in a terminal showed the whole help (what a first run wants to see), as did `cairn help <unknown>`;
      // with --json either is an error.
      if ((bare || asked) && !json) return EXIT.USAGE;
      const message = group
        ? `A subcommand of cairn ${group.name()} is required (${group.commands.map((c) => c.name()).join(", ")}); cairn ${group.name()} --help says what each does.`
        : "A command is required, e.g. cairn recall \"<query>\"; cairn --help lists them.";
      return usage(out, message);
    }
    const message = readableMessage(e.message.replace(/^error: /, "")).trim();
    if (json) return usage(out, message);
    const where = e.code === "commander.unknownCommand" ? (group ?? program) : commandNamed(program, args);
    const help = `cairn ${commandPath(where)}--help`.replace("cairn cairn ", "cairn ");
    const pointer = where === program ? "Run `cairn --help` for every command." : where.commands.length > 0 && e.code === "commander.unknownCommand" ? `Run \`${help}\` for its subcommands.` : `See \`${help}\`.`;
    return usage(out, `${message.replace(/\.?$/, ".")} ${pointer}`);
  }
}

/** A usage error said once: one line on stderr, or one JSON value with --json. */
function usage(out: Output, message: string): number {
  if (out.json) out.print({ error: { code: "INVALID_INPUT", message } });
  else process.stderr.write(`error: ${visibleControls(message)}\n`);
  return EXIT.USAGE;
}

/** `hive pull ` for the command `cairn hive pull`, "" for the program itself. */
function commandPath(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c?.parent; c = c.parent) names.unshift(c.name());
  return names.length ? `${names.join(" ")} ` : "";
}

/** The deepest command the arguments name (`cairn hive pull --to x` → pull), else the program. */
function commandNamed(program: Command, args: string[]): Command {
  let cmd = program;
  for (const arg of args) {
    const sub = cmd.commands.find((c) => c.name() === arg || c.aliases().includes(arg));
    if (sub) cmd = sub;
  }
  return cmd;
}

/**
 * The first word naming no command where a command must stand, when help is asked for: positional words are
 * walked from the program through its groups (`help` itself passes), options and their values skipped; a
 * command with no subcommands ends the walk (what follows is its own arguments).
 */
function unknownCommandAsked(program: Command, args: string[]): { name: string; under: Command } | undefined {
  let cmd = program;
  for (let i = 0; i < args.length && cmd.commands.length > 0; i++) {
    const arg = args[i]!;
    if (arg.startsWith("-")) {
      const option = cmd.options.find((o) => o.long === arg || o.short === arg);
      if (option && (option.required || option.optional) && !arg.includes("=")) i++;
      continue;
    }
    if (arg === "help") continue;
    const sub = cmd.commands.find((c) => c.name() === arg || c.aliases().includes(arg));
    if (!sub) return { name: arg, under: cmd };
    cmd = sub;
  }
  return undefined;
}

/** The program and every command under it, nested groups' subcommands too. */
function everyCommand(cmd: Command): Command[] {
  return [cmd, ...cmd.commands.flatMap(everyCommand)];
}

/** The command group (one with subcommands, such as `hive`) the arguments name, if any. */
function groupNamed(program: Command, args: string[]): Command | undefined {
  const cmd = commandNamed(program, args);
  return cmd !== program && cmd.commands.length > 0 ? cmd : undefined;
}

// `cairn list | head` closes the pipe early: that is the reader's choice, not an error.
process.stdout.on("error", (e: NodeJS.ErrnoException) => {
  if (e.code === "EPIPE") process.exit(0);
  throw e;
});

run(process.argv).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`error: ${visibleControls(e instanceof Error ? e.message : String(e))}\n`);
    if (process.env.CAIRN_DEBUG === "1" && e instanceof Error) process.stderr.write(`${e.stack}\n`);
    process.exitCode = EXIT.FAILURE;
  },
);
