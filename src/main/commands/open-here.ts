// `lookout open-here <key> [--print]`: what another machine's `open` runs here over `ssh -t`
// (issue 25). The key is the only word that crossed a login shell (checked plain there and here);
// this machine's Lookout finds the session and runs, argv only, what here-plan.ts decides, in the
// terminal ssh gave it, handing on its exit status.
import { spawn } from 'node:child_process';
import { parseArgs } from 'node:util';
import { constants } from 'node:os';
import { resolveNow } from '../cli/now-option';
import { UsageError } from '../cli/usage-error';
import { jsonLine, printError } from '../text/terminal-text';
import { PLAIN_WORD } from '../hosts/ssh-command';
import { planHere } from '../open/here-plan';
import { systemProbes } from '../open/probes';
import { openTarget } from '../open/session-process';
import { evaluateFromDisk } from './one-shot';

/** Signals the terminal sends its whole foreground group: the program run here answers them, not Lookout. */
const LEFT_TO_THE_PROGRAM = ['SIGINT', 'SIGQUIT', 'SIGTSTP'] as const;
/** Signals meant for Lookout (a hang-up, a stop): passed on to the program it runs. */
const PASSED_ON = ['SIGHUP', 'SIGTERM'] as const;

export async function openHereCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args, options: { now: { type: 'string' }, print: { type: 'boolean' } }, strict: true, allowPositionals: true });
  const [key, ...extra] = positionals;
  if (key === undefined || extra.length > 0) throw new UsageError("open-here takes one session key (another machine's `open` runs it over ssh)");
  if (!PLAIN_WORD.test(key)) throw new UsageError('open-here takes a plain session key (letters, digits and . _ : -)');
  const context = await evaluateFromDisk(resolveNow(values.now));
  const derived = context.evaluation.derived.get(key);
  if (derived === undefined) throw new UsageError(`no session ${key} on this machine`);
  const plan = planHere(openTarget(derived.evidence, derived.observed.state, context.state.roots), systemProbes(), process.env.SHELL);
  if (values.print === true) {
    process.stdout.write(`${jsonLine(plan)}\n`);
    return 0;
  }
  // The visit is recorded by the machine that asked (its `open` sends one), not twice.
  if (plan.kind === 'none') throw new Error(`${key}: ${plan.reason}`);
  return run(plan.argv, plan.cwd);
}

/** Runs the program in this terminal, as an exec would: its input, output and exit status are the session's. */
function run(argv: readonly string[], cwd: string | null): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined) return Promise.resolve(1);
  return new Promise((resolve) => {
    const child = spawn(command, rest, { cwd: cwd ?? undefined, stdio: 'inherit', shell: false });
    const ignore = (): void => undefined;
    const pass = (signal: NodeJS.Signals): void => {
      child.kill(signal);
    };
    for (const signal of LEFT_TO_THE_PROGRAM) process.on(signal, ignore);
    for (const signal of PASSED_ON) process.on(signal, pass);
    const done = (code: number): void => {
      for (const signal of LEFT_TO_THE_PROGRAM) process.off(signal, ignore);
      for (const signal of PASSED_ON) process.off(signal, pass);
      resolve(code);
    };
    child.once('error', (error) => {
      printError(`could not run ${command} (${error.message})`);
      done(127);
    });
    child.once('exit', (code, signal) => done(code ?? 128 + (signal === null ? 0 : constants.signals[signal])));
  });
}
