// A reader that stops early (`lookout status --json | head`) is not an error: the command stops
// quietly, with the exit status it had.
export function exitQuietlyOnClosedPipe(): void {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(process.exitCode ?? 0);
  });
}
