// The `lookout` executable: the command line itself lives in cli-main.cjs beside this file, run
// from the code cache the build made for it (src/main/code-cache.ts). A `status` is first asked of
// the running Lookout (issue 51): printed from there, it never loads the command line.
import { join } from 'node:path';
import { runBundle } from './code-cache';
import { type RunningStatus, runningStatus } from './running-status';

const writeCache = process.env.LOOKOUT_WRITE_CODE_CACHE === '1';
const commandLine = (): void => {
  runBundle(join(__dirname, 'cli-main.cjs'), require, writeCache);
};

if (process.argv[2] === 'status' && !writeCache) {
  runningStatus(process.argv.slice(2))
    .catch((): RunningStatus => ({ kind: 'command-line', cold: false }))
    .then((outcome) => {
      if (outcome.kind === 'printed') return process.exit(0);
      if (outcome.kind === 'cut') {
        process.stderr.write(
          '\nlookout: the running Lookout stopped answering mid-reply: what it printed is cut short; run `lookout status` again (or with --cold)\n',
        );
        return process.exit(1);
      }
      // The running Lookout kept silent within the bound: the files, without asking it twice.
      if (outcome.cold) process.argv.push('--cold');
      return commandLine();
    });
} else commandLine();
