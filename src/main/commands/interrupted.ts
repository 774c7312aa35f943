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
