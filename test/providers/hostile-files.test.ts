// Issue 11 item 1: a FIFO, a device or a huge file where a small JSON file is expected never
// hangs Lookout or exhausts its memory. Every read is checked first (src/providers/system/safe-read.ts).
import { execFileSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Snapshot } from '../../src/engine';
import { readRegularText } from '../../src/providers/system/safe-read';
import type { Accumulator } from '../../src/providers/tailed-file';
import { DEFAULT_TAIL_OPTIONS, TailedFile } from '../../src/providers/tailed-file';
import { runCli } from '../main/cli-process';
import { serve } from '../main/serve-process';
import { WatchProcess } from '../main/watch-process';
import { FIXTURES } from './fixture-roots';

const base = mkdtempSync(join(tmpdir(), 'lookout-hostile-files-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));
const NOW = '2026-11-29T12:05:00.000Z';
let n = 0;

/** A home with a Claude fixture that has a subagent (with .meta.json), and a Codex rollout. */
function home(): { dir: string; env: Record<string, string>; claude: string; codex: string } {
  n += 1;
  const dir = join(base, `case-${n}`);
  cpSync(join(FIXTURES, 'claude', 'child-waiting'), join(dir, 'claude'), { recursive: true });
  cpSync(join(FIXTURES, 'codex', 'working'), join(dir, 'codex'), { recursive: true });
  mkdirSync(join(dir, 'claude', 'sessions'), { recursive: true });
  const env = { HOME: dir, CLAUDE_CONFIG_DIR: join(dir, 'claude'), CODEX_HOME: join(dir, 'codex'), LOOKOUT_HOME: join(dir, 'home') };
  return { dir, env, claude: join(dir, 'claude'), codex: join(dir, 'codex') };
}

const fifo = (path: string): void => {
  execFileSync('mkfifo', [path]);
};
const META = join('projects', '-home-me-app', 'c1a00000-0000-4000-8000-000000000004', 'subagents', 'agent-a3.meta.json');

/** Counts the records it is given: the work a read does, without timing it. */
class Counting implements Accumulator {
  applied = 0;
  readonly settled = false;
  readonly headDone = false;
  apply(): void {
    this.applied += 1;
  }
}

describe('files of tiny lines (item 3)', () => {
  const tiny = (lines: number, text: string): Buffer => Buffer.alloc(lines * text.length, text);

  it.each([
    ['64 MB of "{}" lines', '{}\n'],
    ['64 MB of bare newlines', '\n'],
  ])('a cold read of %s parses a bounded number of lines', async (_label, text) => {
    const path = join(base, `tiny-${text.length}.jsonl`);
    writeFileSync(path, tiny(Math.floor((64 * 1024 * 1024) / text.length), text));
    const counters: Counting[] = [];
    const file = new TailedFile(path, () => {
      const counter = new Counting();
      counters.push(counter);
      return counter;
    });
    file.load();
    const applied = counters.reduce((sum, counter) => sum + counter.applied, 0);
    // Each widening replays what it holds: a few times the line budget, never the 22 M lines in the file.
    expect(applied).toBeLessThan(DEFAULT_TAIL_OPTIONS.maxLines * 8);
  });

  it('a 64 MB burst of tiny lines appended to a followed file is read as a cold read of the end', async () => {
    const path = join(base, 'tiny-append.jsonl');
    writeFileSync(path, '{"type":"user"}\n');
    let made = 0;
    let last = new Counting();
    const file = new TailedFile(path, () => {
      made += 1;
      last = new Counting();
      return last;
    });
    file.load();
    appendFileSync(path, tiny((64 * 1024 * 1024) / 3, '{}\n'));
    expect(file.update()).toBe(true);
    expect(made).toBeGreaterThan(1);
    expect(last.applied).toBeLessThan(DEFAULT_TAIL_OPTIONS.maxLines * 4);
  });
});

describe('files that are not what they seem', () => {
  it('the helper refuses a FIFO, a device and an oversized file, and reads a regular one', () => {
    const dir = join(base, 'unit');
    mkdirSync(dir, { recursive: true });
    fifo(join(dir, 'pipe.json'));
    symlinkSync('/dev/zero', join(dir, 'zero.json'));
    writeFileSync(join(dir, 'big.json'), 'x'.repeat(2048));
    writeFileSync(join(dir, 'ok.json'), '{"a":1}');
    expect(() => readRegularText(join(dir, 'pipe.json'), 1024)).toThrow(expect.objectContaining({ code: 'ENOTREG' }));
    expect(() => readRegularText(join(dir, 'zero.json'), 1024)).toThrow(expect.objectContaining({ code: 'ENOTREG' }));
    expect(() => readRegularText(join(dir, 'big.json'), 1024)).toThrow(expect.objectContaining({ code: 'EFBIG' }));
    expect(readRegularText(join(dir, 'ok.json'), 1024)).toBe('{"a":1}');
  });

  it.each([
    ['a FIFO as a registry entry', (h: ReturnType<typeof home>) => fifo(join(h.claude, 'sessions', '999.json'))],
    ['a FIFO as Codex session_index.jsonl', (h: ReturnType<typeof home>) => fifo(join(h.codex, 'session_index.jsonl'))],
    [
      'a FIFO as a subagent .meta.json',
      (h: ReturnType<typeof home>) => {
        rmSync(join(h.claude, META));
        fifo(join(h.claude, META));
      },
    ],
    ['a registry entry linked to /dev/zero', (h: ReturnType<typeof home>) => symlinkSync('/dev/zero', join(h.claude, 'sessions', '998.json'))],
    [
      'a 1 GB registry entry',
      (h: ReturnType<typeof home>) => {
        writeFileSync(join(h.claude, 'sessions', '997.json'), '{');
        truncateSync(join(h.claude, 'sessions', '997.json'), 1024 * 1024 * 1024);
      },
    ],
  ])('status finishes with %s, keeps every row and reports the path', (_label, plant) => {
    const h = home();
    plant(h);
    const result = runCli(['status', '--json', '--now', NOW], h.env);
    expect(result.code).toBe(0);
    const snapshot = JSON.parse(result.stdout) as Snapshot;
    expect(snapshot.sessions.map((row) => row.provider).sort()).toEqual(['claude', 'codex']);
    // The refused file is named once on stderr.
    expect(result.stderr).toMatch(/^lookout: 1 path could not be read \(first: .*(ENOTREG|EFBIG)\)\n$/);
  });

  it('a FIFO as a transcript is never opened: discovery takes regular files only', () => {
    const h = home();
    fifo(join(h.claude, 'projects', '-home-me-app', 'c1a00000-0000-4000-8000-0000000000ff.jsonl'));
    const result = runCli(['status', '--json', '--now', NOW], h.env);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect((JSON.parse(result.stdout) as Snapshot).sessions).toHaveLength(2);
  });

  it('a FIFO created while watch runs does not freeze it, and SIGTERM still stops it', async () => {
    const h = home();
    const watch = new WatchProcess(['--all'], h.env);
    try {
      await watch.until((snapshot) => snapshot.sessions.length === 2, 30_000);
      fifo(join(h.claude, 'sessions', '999.json'));
      fifo(join(h.codex, 'session_index.jsonl'));
      // A change after the FIFOs: the runtime still reads and emits.
      const lead = join(h.claude, 'projects', '-home-me-app', 'c1a00000-0000-4000-8000-000000000004.jsonl');
      appendFileSync(
        lead,
        `${JSON.stringify({ type: 'user', sessionId: 'c1a00000-0000-4000-8000-000000000004', cwd: '/home/me/app', timestamp: new Date().toISOString(), message: { role: 'user', content: 'one more thing' } })}\n`,
      );
      await watch.until((snapshot) => snapshot.sessions.some((row) => row.provider === 'claude' && row.observed.state === 'running'), 30_000);
    } finally {
      const exited = new Promise<number | null>((resolve) => watch.child.once('exit', resolve));
      watch.child.kill('SIGTERM');
      expect(await exited).toBe(0);
    }
  });

  it('serve prints its URL with FIFOs in both roots', async () => {
    const h = home();
    fifo(join(h.claude, 'sessions', '999.json'));
    fifo(join(h.codex, 'session_index.jsonl'));
    const served = await serve(h.env, ['--now', NOW]);
    expect(served.url.hostname).toBe('127.0.0.1');
    expect(await served.stop()).toBe(0);
  });
});
