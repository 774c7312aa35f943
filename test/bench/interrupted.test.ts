// A bench stopped before its end leaves no history under the temp folder and no `watch` running
// (scripts/bench/interrupted.ts): a slope to 20,000 sessions writes ~11 GB there.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { until, waitFor } from '../wait';

const BENCH = resolve(__dirname, '../../dist/bench.cjs');
let temp: string;
let bench: ChildProcessWithoutNullStreams | null = null;

beforeEach(() => {
  temp = mkdtempSync(join(tmpdir(), 'lookout-bench-stop-'));
});
afterEach(() => {
  // A failed test leaves neither the bench nor a watch of its running (what the bench was to stop).
  if (bench !== null && bench.exitCode === null && bench.signalCode === null) {
    for (const pid of childrenOf(bench.pid ?? 0)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Ended meanwhile.
      }
    }
    bench.kill('SIGKILL');
  }
  bench = null;
  rmSync(temp, { recursive: true, force: true });
});

/** The bench's watch section over the quick history, its temp folder inside `temp`. */
function startBench(): { bench: ChildProcessWithoutNullStreams; out: () => string } {
  const child = spawn(process.execPath, [BENCH, '--only', 'watch', '--quick'], { env: { ...process.env, TMPDIR: temp } });
  bench = child;
  let out = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (text: string) => {
    out += text;
  });
  child.stderr.resume();
  return { bench: child, out: () => out };
}

/** The processes whose parent is `pid` (Linux's /proc). */
function childrenOf(pid: number): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // The command may hold spaces and parentheses: the fields after its last ')' are plain.
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) found.push(Number(name));
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}

function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    return '';
  }
}

function alive(pid: number): boolean {
  try {
    // A zombie still answers signal 0: its state says it has ended.
    return !/^\S+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

const benchFolders = (): string[] => readdirSync(temp).filter((name) => name.startsWith('lookout-bench-'));

function exited(child: ChildProcessWithoutNullStreams): Promise<number | null> {
  return new Promise((done) => {
    if (child.exitCode !== null) done(child.exitCode);
    else child.once('exit', (code) => done(code));
  });
}

describe.skipIf(process.platform !== 'linux')('a bench stopped before its end', () => {
  it('by a signal: its watch is stopped, its history removed, and it exits as the signal would have it', async () => {
    const { bench: child, out } = startBench();
    const watches = await waitFor(
      'the bench running a watch over its history',
      () => {
        const running = childrenOf(child.pid ?? 0).filter((pid) => commandOf(pid).includes('watch'));
        return running.length > 0 ? running : undefined;
      },
      out,
    );
    expect(benchFolders()).toHaveLength(1);
    child.kill('SIGTERM');
    expect(await exited(child)).toBe(143);
    expect(benchFolders()).toEqual([]);
    for (const pid of watches) await until(`the bench's child ${pid} ended`, () => !alive(pid));
  }, 180_000);

  it('by its reader going away (`npm run bench | head`): the same, with the status of a closed pipe', async () => {
    const { bench: child } = startBench();
    await until(
      'the bench writing its history',
      () => benchFolders().length === 1,
      () => '',
      { timeout: 60_000 },
    );
    // The reader closes its end: the bench's next line meets no reader.
    child.stdout.destroy();
    expect(await exited(child)).toBe(141);
    expect(benchFolders()).toEqual([]);
  }, 180_000);
});
