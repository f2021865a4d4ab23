/**
 * Graceful shutdown for long-running commands: the first SIGTERM/SIGINT runs `stop` (stop taking jobs,
 * finish or hand back active ones, close Redis); a second signal exits at once.
 */
export function onShutdownSignal(stop: (signal: NodeJS.Signals) => Promise<void>): void {
  let stopping = false;
  const handler = (signal: NodeJS.Signals) => {
    if (stopping) {
      process.stderr.write(`${signal} again: exiting without waiting\n`);
      process.exit(130);
    }
    stopping = true;
    process.stderr.write(`${signal}: finishing active work, then exiting (send it again to exit at once)\n`);
    stop(signal).then(
      () => process.exit(signal === 'SIGINT' ? 130 : 0),
      (error: unknown) => {
        process.stderr.write(`shutdown failed: ${error instanceof Error ? error.message : String(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', handler);
  process.on('SIGINT', handler);
}
