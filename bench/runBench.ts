/**
 * Runs a bench's `main` as its npm script does: exit 0 when it ends, 1 with the error's stack (the
 * benches leave servers and timers behind them that would keep the process alive).
 */
export function runBench(name: string, main: (argv: string[]) => Promise<void>): void {
  main(process.argv.slice(2)).then(
    () => process.exit(0),
    (error: Error) => {
      process.stderr.write(`${name} failed: ${error.stack}\n`);
      process.exit(1);
    },
  );
}
