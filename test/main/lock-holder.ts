// A test helper process: waits for a start signal, then takes a folder lock and notes whether
// anyone else was inside meanwhile (bundled by the global setup).
import { appendFileSync, existsSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { withLock } from '../../src/providers/system/folder-lock';
import { errorCode } from '../../src/providers/problems';

const [lockDir = '', marks = '', holdText = '0', roundsText = '1'] = process.argv.slice(2);
const nap = new Int32Array(new SharedArrayBuffer(4));
const sleep = (ms: number): void => void Atomics.wait(nap, 0, 0, ms);

writeFileSync(join(marks, `ready-${process.pid}`), '');
const waitUntil = Date.now() + 60_000;
while (!existsSync(join(marks, 'go')) && Date.now() < waitUntil) sleep(2);
for (let round = 0; round < Number(roundsText); round += 1) {
  withLock(lockDir, () => {
    const inside = join(marks, 'inside');
    try {
      writeFileSync(inside, String(process.pid), { flag: 'wx' });
    } catch (error) {
      if (errorCode(error) !== 'EEXIST') throw error;
      appendFileSync(join(marks, 'overlaps'), `${process.pid}\n`);
    }
    appendFileSync(join(marks, 'entries'), `${process.pid} ${Date.now()} in\n`);
    sleep(Number(holdText));
    appendFileSync(join(marks, 'entries'), `${process.pid} ${Date.now()} out\n`);
    try {
      unlinkSync(inside);
    } catch {
      // Another, inside at the same time, removed it first: already counted as an overlap.
    }
  });
}
