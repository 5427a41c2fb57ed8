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
import { EXIT } from "./errors.js";
import { Output } from "./format.js";

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
  const json = argv.slice(2).includes("--json");
  const out = new Output(json);
  if (json) {
    // Commander's own text (errors, the help it shows for a missing command, the version) would break
    // the one-JSON-value rule; the catch below prints each as JSON. `--help` itself is still text.
    const asked = argv.slice(2).some((a) => a === "--help" || a === "-h" || a === "help");
    // A group run bare (`cairn hive`) writes its help as an error, to stderr: that is the JSON error's too.
    const quiet = { outputError: () => {}, ...(asked ? {} : { writeOut: () => {}, writeErr: () => {} }) };
    for (const cmd of everyCommand(program)) cmd.configureOutput(quiet);
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
    const group = groupNamed(program, argv.slice(2));
    // Help shown because it was asked for (`cairn help list`) succeeded; only help shown in place of a missing command is an error.
    if (json && e.code === "commander.help" && e.exitCode !== 0) {
      const message = group
        ? `A subcommand of cairn ${group.name()} is required (${group.commands.map((c) => c.name()).join(", ")}); cairn ${group.name()} --help says what each does.`
        : "A command is required, e.g. cairn recall \"<query>\"; cairn --help lists them.";
      out.print({ error: { code: "INVALID_INPUT", message } });
      return EXIT.USAGE;
    }
    if (e.exitCode === 0) return EXIT.OK;
    // Commander printed the error and its "(Did you mean …?)"; a pointer beats the whole help after a typo.
    if (e.code === "commander.unknownCommand" && !json) {
      process.stderr.write(group ? `Run \`cairn ${group.name()} --help\` for its subcommands.\n` : "Run `cairn --help` for every command.\n");
    }
    if (json) out.print({ error: { code: "INVALID_INPUT", message: e.message.replace(/^error: /, "") } });
    return EXIT.USAGE;
  }
}

/** The program and every command under it, nested groups' subcommands too. */
function everyCommand(cmd: Command): Command[] {
  return [cmd, ...cmd.commands.flatMap(everyCommand)];
}

/** The command group (one with subcommands, such as `hive`) the arguments name, if any. */
function groupNamed(program: Command, args: string[]): Command | undefined {
  let cmd = program;
  for (const arg of args) {
    const sub = cmd.commands.find((c) => c.name() === arg || c.aliases().includes(arg));
    if (sub) cmd = sub;
  }
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
    process.stderr.write(`error: ${e instanceof Error ? e.message : String(e)}\n`);
    if (process.env.CAIRN_DEBUG === "1" && e instanceof Error) process.stderr.write(`${e.stack}\n`);
    process.exitCode = EXIT.FAILURE;
  },
);
