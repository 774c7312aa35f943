// Builds the bundles once before the suite, so process-level tests run the code under test.
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';

export default function setup(): void {
  execFileSync(process.execPath, [resolve(__dirname, '../scripts/build.mjs')], { stdio: 'inherit' });
}
