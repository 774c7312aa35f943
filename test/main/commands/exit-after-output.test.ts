// `status` and `explain` exit as soon as they are done, without waiting for V8's idle-time
// collection (docs/performance.md, run Z), but never before their output has reached the reader:
// a pipe the reader is slow to drain holds only part of a big line, the rest waits in the process.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES } from '../../providers/fixture-roots';
import { waitFor } from '../../wait';
import { CLI } from '../cli-process';
import { fixtureHomes } from '../fixture-home';

const homes = fixtureHomes('lookout-exit-output-');
const SESSIONS = 600;
const ID = 'c1a00000-0000-4000-8000-000000000001';

/** A home with many copies of one Claude session: a `status --json --all` line of ~400 KB, more than a pipe holds. */
function manySessions(): Record<string, string> {
  const env = homes.home([]);
  const project = join(env.CLAUDE_CONFIG_DIR ?? '', 'projects', '-home-me-app');
  mkdirSync(project, { recursive: true });
  const transcript = readFileSync(join(FIXTURES, 'claude', 'working', 'projects', '-home-me-app', `${ID}.jsonl`), 'utf8');
  for (let n = 0; n < SESSIONS; n += 1) {
    const id = `c1a00000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
    writeFileSync(join(project, `${id}.jsonl`), transcript.replaceAll(ID, id));
  }
  return env;
}

describe('a one-shot command exits once its output is out', () => {
  it('cli.md status --json: the whole line reaches a reader that drains the pipe only later', async () => {
    const env = manySessions();
    const child = spawn(process.execPath, [CLI, 'status', '--json', '--all'], {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const chunks: Buffer[] = [];
    let exited = false;
    child.on('exit', () => {
      exited = true;
    });
    // Not drained: Node reads one buffer's worth and stops, so the kernel's pipe fills behind it.
    child.stdout.on('readable', () => undefined);
    await waitFor(
      'the line begun',
      () => (child.stdout.readableLength >= child.stdout.readableHighWaterMark ? true : undefined),
      () => `${child.stdout.readableLength} bytes`,
      { timeout: 60_000, every: 20 },
    );
    // A command that exited here with its line half written would lose the rest: give it the chance.
    await waitFor(
      'an early exit',
      () => (exited ? true : undefined),
      () => '',
      { timeout: 1_000, every: 20 },
    ).catch(() => undefined);
    const done = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    child.stdout.removeAllListeners('readable');
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    const code = await done;
    const text = Buffer.concat(chunks).toString('utf8');
    expect(code).toBe(0);
    expect(text.length).toBeGreaterThan(300_000);
    expect(text.endsWith('\n')).toBe(true);
    const snapshot = JSON.parse(text) as { sessions: unknown[] };
    expect(snapshot.sessions).toHaveLength(SESSIONS);
  });
});
