// Long-running commands (watch, serve) stop on Ctrl-C or SIGTERM, then dispose what they hold.
export function untilInterrupted(): Promise<void> {
  return new Promise((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

/** `--now` for a command that keeps running: time starts there and flows on. */
export function flowingClock(start: number): () => number {
  const offset = start - Date.now();
  return () => Date.now() + offset;
}
