// The `lookout` command line: parses arguments and dispatches; exit 2 on usage errors (cli.md).
import { runCommand } from '../commands/dispatch';
import { printError } from './terminal-text';
import { UsageError } from './usage-error';

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    return await runCommand(command, rest);
  } catch (error) {
    if (error instanceof UsageError) {
      printError(error.message);
      return 2;
    }
    if (isParseArgsError(error)) {
      printError((error as Error).message);
      return 2;
    }
    printError(error instanceof Error ? error.message : String(error));
    return 1;
  }
}

function isParseArgsError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS');
}

// A reader that stops early (`lookout status --json | head`) is not an error: stop quietly.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(process.exitCode ?? 0);
});

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    printError(String(error));
    process.exitCode = 1;
  },
);
