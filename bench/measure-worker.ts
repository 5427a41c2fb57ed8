// Child-process entry for one size: a fresh process per size, so its resident memory is that size's alone.
const baselineRssMb = process.memoryUsage().rss / 1048576;

function arg(name: string, def: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : def;
}

async function main(): Promise<void> {
  // Loaded only now: the baseline above is the process before any store is opened (bundled by bench/run.ts, the code is already parsed).
  const { measureSize } = await import("./measure.js");
  const result = await measureSize({
    size: arg("size", 1000),
    seed: arg("seed", 42),
    counts: { add: arg("add", 300), recall: arg("recall", 500), inject: arg("inject", 500) },
    baselineRssMb,
    vectors: process.argv[process.argv.indexOf("--vectors") + 1] !== "off",
  });
  process.stdout.write(`RESULT ${JSON.stringify(result)}\n`);
}

main().catch((e: unknown) => {
  process.stderr.write(`${(e as Error)?.stack ?? String(e)}\n`);
  process.exit(1);
});
