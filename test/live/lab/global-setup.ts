// The lab runs the built command line: build it once, as the unit suite does.
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';

export default function setup(): void {
  execFileSync(process.execPath, [resolve(__dirname, '../../../scripts/build.mjs')], { stdio: 'inherit' });
}
