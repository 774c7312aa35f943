// Issue 11 items 10–13: a torn spool line (a full disk) never costs the next event; rotation
// happens under the lock; the sh shim gives up on a stdin that stays open; the envelope's own
// provider and time cannot be overridden by a payload.
import { spoolReaders } from '../../src/providers';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { appendFileSync, chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { shimEntries } from '../../src/main/hooks/installer';
import { shimText } from '../../src/main/hooks/shim';
import { writeSpool } from '../../src/main/hooks/spool-writer';
import { SPOOL_ROTATE_BYTES } from '../../src/providers/hooks/spool-format';
import { HookSpool } from '../../src/providers/hooks/spool-reader';

const base = mkdtempSync(join(tmpdir(), 'lookout-spool-hard-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));
let n = 0;

function home(spool?: string): { spool: string; shim: string } {
  n += 1;
  const dir = join(base, `case-${n}`);
  mkdirSync(dir, { recursive: true });
  const folder = spool ?? join(dir, 'spool');
  const shim = join(dir, 'lookout-hook');
  writeFileSync(shim, shimText(folder, shimEntries()));
  chmodSync(shim, 0o700);
  return { spool: folder, shim };
}

const event = (session: string, name = 'PermissionRequest'): string =>
  JSON.stringify({ session_id: session, hook_event_name: name, tool_name: 'Bash', tool_input: { command: 'npm publish' } });
const read = async (spool: string) => new HookSpool(spool, spoolReaders(['claude', 'codex'])).sync();
const shim = (path: string, input: string, args = ['claude']) => spawnSync(path, args, { input, timeout: 20_000 });

describe('a torn spool line (item 10)', () => {
  it.each(['sh shim', 'lookout hook (Node writer)'])('%s: the event after a torn line stands', async (writer) => {
    const h = home();
    mkdirSync(h.spool, { recursive: true });
    // What a write cut short by a full disk leaves: a line without its end.
    writeFileSync(join(h.spool, 'claude.jsonl'), `{"payload":{"session_id":"older","hook_event_name":"Sto`);
    if (writer === 'sh shim') expect(shim(h.shim, event('s1')).status).toBe(0);
    else expect(writeSpool(h.spool, 'claude', 'hook', event('s1'), Date.parse('2026-11-29T12:00:00Z'))).toBe(true);
    const sessions = await read(h.spool);
    expect(sessions.get('claude:s1')?.last?.event).toBe('permission-request');
  });

  it.skipIf(process.getuid?.() !== 0)('a real full disk (a 64 KB tmpfs): the permission request after space returns is seen', async () => {
    const mount = join(base, 'tmpfs');
    mkdirSync(mount, { recursive: true });
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', mount], { stdio: 'ignore' });
    } catch {
      console.log('tmpfs test skipped: this machine does not allow mounting one (the simulated torn line above covers it)');
      return;
    }
    try {
      const h = home(join(mount, 'spool'));
      mkdirSync(h.spool, { recursive: true });
      const filler = join(mount, 'filler');
      // Nearly full, then a 20 KB payload that cannot fit: the shim writes what it can.
      writeFileSync(filler, Buffer.alloc(40 * 1024));
      shim(h.shim, JSON.stringify({ session_id: 'big', hook_event_name: 'Stop', pad: 'x'.repeat(30 * 1024) }));
      const torn = readFileSync(join(h.spool, 'claude.jsonl'), 'utf8');
      expect(torn.endsWith('\n')).toBe(false);
      rmSync(filler);
      expect(shim(h.shim, event('after')).status).toBe(0);
      const sessions = await read(h.spool);
      expect(sessions.get('claude:after')?.last?.event).toBe('permission-request');
    } finally {
      execFileSync('umount', [mount]);
    }
  });
});

describe('rotation under the lock (item 11)', () => {
  it('twenty hooks at the rotation point lose no event, ten times over', async () => {
    const h = home();
    mkdirSync(h.spool, { recursive: true });
    const file = join(h.spool, 'claude.jsonl');
    for (let trial = 0; trial < 10; trial += 1) {
      rmSync(`${file}.1`, { force: true });
      // Just under the bound: the first writer's line crosses it, and the next one rotates.
      writeFileSync(file, `${'{"payload":{},"provider":"claude","at":1}\n'.repeat(Math.floor(SPOOL_ROTATE_BYTES / 42))}`);
      const ids = Array.from({ length: 20 }, (_unused, index) => `t${trial}-${index}`);
      await Promise.all(
        ids.map(
          (id) =>
            new Promise<void>((resolve) => {
              const child = spawn(h.shim, ['claude']);
              child.on('exit', () => resolve());
              child.stdin.end(event(id, 'Stop'));
            }),
        ),
      );
      const text = `${existsSync(`${file}.1`) ? readFileSync(`${file}.1`, 'utf8') : ''}${readFileSync(file, 'utf8')}`;
      for (const id of ids) expect(text, `trial ${trial}: ${id}`).toContain(`"session_id":"${id}"`);
    }
    // 200 hook processes: a machine where Node takes 0.1 s to start needs more than the suite's 30 s.
  }, 300_000);
});

describe('the sh shim and its stdin (item 12)', () => {
  it('exits on its own when the agent never closes standard input, and records nothing partial', async () => {
    const h = home();
    const child = spawn(h.shim, ['claude']);
    child.stdin.write('{"session_id":"open"');
    // Standard input stays open: the shim must leave by itself (the test waits for that, however long a loaded machine takes).
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    child.stdin.destroy();
    expect(code).toBe(0);
    expect(existsSync(join(h.spool, 'claude.jsonl'))).toBe(false);
  });
});

describe('the sh shim and a complete payload on an open stdin (item 12, review)', () => {
  it('keeps the event it read whole, as the Node hook does, and still leaves on its own', async () => {
    const h = home();
    const child = spawn(h.shim, ['claude']);
    child.stdin.write(`${event('kept')}\n`);
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    child.stdin.destroy();
    expect(code).toBe(0);
    const sessions = await read(h.spool);
    expect(sessions.get('claude:kept')?.last?.event).toBe('permission-request');
  });

  it('drops a payload over 256 KB rather than writing part of it', () => {
    const h = home();
    expect(shim(h.shim, JSON.stringify({ session_id: 'huge', hook_event_name: 'Stop', pad: 'x'.repeat(300 * 1024) })).status).toBe(0);
    expect(existsSync(join(h.spool, 'claude.jsonl'))).toBe(false);
  });
});

describe('the envelope is the spool line’s own (item 13)', () => {
  it('a payload that tries to name another provider or time does not', async () => {
    const h = home();
    const forged = '{"session_id":"forged","hook_event_name":"PermissionRequest"},"provider":"codex","at":0,"x":{"y":1}';
    expect(shim(h.shim, forged).status).toBe(0);
    const line = JSON.parse(readFileSync(join(h.spool, 'claude.jsonl'), 'utf8').trim()) as { provider: string; at: number };
    expect(line.provider).toBe('claude');
    expect(line.at).toBeGreaterThan(Date.parse('2026-01-01T00:00:00Z'));
    // A line of another provider's name in this spool is not read as that provider's either.
    appendFileSync(
      join(h.spool, 'claude.jsonl'),
      `${JSON.stringify({ payload: { session_id: 'other', hook_event_name: 'PermissionRequest' }, provider: 'codex', at: 1, precision: 'ms', channel: 'hook' })}\n`,
    );
    const sessions = await read(h.spool);
    expect(sessions.has('codex:other')).toBe(false);
    expect(sessions.has('claude:other')).toBe(false);
  });
});
