// An engine on real SQLite files in a throwaway sandbox, closed (once) and removed after the test body.
import { openCairn, type Cairn, type OpenCairnOptions } from "../../src/index.js";
import { makeSandbox, removeSandbox, type Sandbox } from "../fixtures/workers/sandbox.js";

/** `close` lets a test inspect the files after the engine let go of them; it closes once. */
export async function withCairn(
  fn: (c: Cairn, sb: Sandbox, close: () => Promise<void>) => Promise<void>,
  opts: Pick<OpenCairnOptions, "actor" | "config"> = {},
): Promise<void> {
  const sb = makeSandbox();
  const cairn = await openCairn({ projectDir: sb.projectDir, hivePath: sb.hivePath, env: sb.env, ...opts });
  let closed: Promise<void> | undefined;
  const close = () => (closed ??= cairn.close());
  try {
    await fn(cairn, sb, close);
  } finally {
    await close();
    removeSandbox(sb);
  }
}
