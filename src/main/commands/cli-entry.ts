// The `lookout` executable: the command line itself lives in cli-main.cjs beside this file, run
// from the code cache the build made for it (src/main/code-cache.ts).
import { join } from 'node:path';
import { runBundle } from './code-cache';

runBundle(join(__dirname, 'cli-main.cjs'), require, process.env.LOOKOUT_WRITE_CODE_CACHE === '1');
