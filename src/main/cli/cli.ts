// The `lookout` command line: parses arguments and dispatches; exit 2 on usage errors (cli.md).
import { runCommand } from '../commands/dispatch';
import { UsageError } from './usage-error';

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    return await runCommand(command, rest);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`lookout: ${error.message}\n`);
      return 2;
    }
    if (isParseArgsError(error)) {
      process.stderr.write(`lookout: ${(error as Error).message.split('\n')[0]}\n`);
      return 2;
    }
    process.stderr.write(`lookout: ${error instanceof Error ? error.message : String(error)}\n`);
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
    process.stderr.write(`lookout: ${String(error)}\n`);
    process.exitCode = 1;
  },
);
