// The `ui` command: its flags, and the web server imported only when the command runs (other commands never load it).
import { Command, InvalidArgumentError, Option } from "commander";
import { PORT_RULE, portNumber } from "../../core/port.js";
import { nonEmpty } from "../cli/non-empty.js";

interface UiFlags {
  port?: number;
  host?: string;
  token?: string;
  name?: string;
  open?: boolean;
}

function port(v: string): number {
  const n = portNumber(v);
  if (n === undefined) throw new InvalidArgumentError(`${PORT_RULE}.`);
  return n;
}

export function createUiCommand(): Command {
  return new Command("ui")
    .description("serve the web UI: review queue, lessons, dashboard, advisories (local only unless you configure a token)")
    .option("--port <port>", "port (default 7392; 0 picks a free one)", port)
    .addOption(new Option("--host <host>", "interface to bind (default 127.0.0.1; anything else needs a configured token)").argParser(nonEmpty("--host", "an interface, e.g. 127.0.0.1")))
    .addOption(new Option("--token <token>", "sign-in token instead of a random one (prefer env CAIRN_UI_TOKEN: flags show in ps)").argParser(nonEmpty("--token", "a secret")))
    .addOption(new Option("--name <name>", "your name for the sign-in link's session, recorded as human:<name> (default: your OS user)").argParser(nonEmpty("--name", "a name")))
    .option("--open", "open the sign-in link in your browser")
    .addHelpText(
      "after",
      `
Prints a sign-in link with a random token (like Jupyter); the browser keeps a cookie session after that.
Every change is made as human:<name> and goes through the same engine and rules as the CLI.

Examples:
  $ cairn ui --open
  $ cairn ui --port 0 --project ~/code/shop
  $ CAIRN_UI_TOKEN="$(openssl rand -hex 24)" cairn ui --host 0.0.0.0`,
    )
    .action(async (flags: UiFlags, cmd: Command) => {
      const [{ runUiServer }, { assertProjectExists, invocation }, { reportError }, { Output }, { assertHuman }, { closeOnSignal }] = await Promise.all([
        import("./server.js"),
        import("../cli/context.js"),
        import("../cli/errors.js"),
        import("../cli/format.js"),
        import("../../governance/actors.js"),
        import("../cli/interrupt.js"),
      ]);
      try {
        // The global flags as every command reads them: a postgres:// --hive is a URL, not a file path.
        const inv = invocation(cmd);
        // Every change on the page is a person's (approve, reject, edit): an agent's shell (CAIRN_ACTOR=agent:…,
        // as the plugin sets it) may no more serve it than run `cairn approve` or claim --actor human:….
        assertHuman(inv.actor, "serve the review page, where every change is made as a person");
        assertProjectExists(inv.projectDir);
        const handle = await runUiServer({
          projectDir: inv.projectDir,
          ...(inv.hivePath ? { hivePath: inv.hivePath } : {}),
          env: inv.env,
          ...flags,
          json: inv.out.json,
        });
        // Closed (connections, engine, stores), then exits 128 + the signal: SIGTERM 143, Ctrl-C 130.
        closeOnSignal(
          () => handle.close(),
          (signal) => {
            const busy = handle.inFlight();
            process.stderr.write(`cairn ui: ${signal}: stopping${busy ? `; finishing ${busy} request${busy === 1 ? "" : "s"} in flight first` : ""}\n`);
          },
        );
        await handle.closed;
      } catch (e) {
        // As every command reports: with --json, the error is the one JSON value on stdout.
        process.exitCode = reportError(e, new Output(Boolean(cmd.optsWithGlobals<{ json?: boolean }>().json)));
      }
    });
}
