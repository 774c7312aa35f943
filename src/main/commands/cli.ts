// The `lookout` command line: parses arguments and dispatches; exit 2 on usage errors (cli.md).
import { runCommand } from './dispatch';
import { printError } from '../text/terminal-text';
import { UsageError } from '../cli/usage-error';
import { exitQuietlyOnClosedPipe } from '../cli/closed-pipe';
import { lookoutHome } from '../store/home';
import { lookoutHomeProblem } from '../store/private-home';

/** Commands that use no Lookout home, or check it themselves (the hook fails open). */
const NO_STATE = new Set(['hook', 'help', '--help', '-h', 'version', '--version']);

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  // The hook fails open (it checks for itself and does nothing); help and the version read no state;
  // every other command refuses a home not yours (issue 47 item 4).
  const homeProblem = command === undefined || NO_STATE.has(command) ? null : lookoutHomeProblem(lookoutHome());
  if (homeProblem !== null) {
    printError(homeProblem);
    return 1;
  }
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

exitQuietlyOnClosedPipe();

/**
 * Commands that are done when they return and leave nothing running: they exit once their output
 * is out, instead of waiting for V8's collection in idle time (time a big `status` would wait; `npm run bench`).
 */
const DONE_WHEN_RETURNED = new Set(['status', 'explain']);

function exitOnceWritten(code: number): void {
  process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
    if (DONE_WHEN_RETURNED.has(process.argv[2] ?? '')) exitOnceWritten(code);
  },
  (error: unknown) => {
    printError(String(error));
    process.exitCode = 1;
  },
);
