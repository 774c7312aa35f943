// Hostile input: nothing a provider wrote (or the file system holds) crashes, hangs or loses a row.
import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync, chmodSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ClaudeProvider } from '../../src/providers/claude/provider';
import { CodexProvider } from '../../src/providers/codex/provider';
import { syncFiles } from '../../src/providers/source';
import { Problems } from '../../src/providers/problems';
import { TailedFile } from '../../src/providers/tailed-file';
import { ClaudeTranscript } from '../../src/providers/claude/transcript';

const dir = mkdtempSync(join(tmpdir(), 'lookout-hostile-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const T = '2026-11-29T12:00:00.000Z';
const good = (sessionId: string) => `${JSON.stringify({ type: 'user', sessionId, cwd: '/w', timestamp: T, message: { role: 'user', content: 'hi' } })}\n`;

function claudeRoot(name: string): { root: string; project: string } {
  const root = join(dir, name);
  const project = join(root, 'projects', '-w');
  mkdirSync(project, { recursive: true });
  return { root, project };
}

describe('hostile input', () => {
  it('random bytes, truncated JSON and invalid UTF-8 are skipped and counted', async () => {
    const { root, project } = claudeRoot('garbage');
    const id = 'aaaaaaaa-0000-4000-8000-000000000001';
    const bytes = Buffer.concat([
      Buffer.from(good(id)),
      randomBytes(4096).map((byte) => (byte === 0x0a ? 0x20 : byte)),
      Buffer.from('\n{"type":"assistant","message":{"content":[{"type":"te\n'),
      Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0x0a]),
    ]);
    writeFileSync(join(project, `${id}.jsonl`), bytes);
    const [session] = await new ClaudeProvider(root).sync(Date.parse(T));
    expect(session?.sessionId).toBe(id);
    expect(session?.skippedLines).toBe(3);
    expect(session?.signal?.kind).toBe('prompt');
  });

  it('a 50 MB line appended to a watched file is skipped and counted, never held whole', async () => {
    const { project } = claudeRoot('giant');
    const path = join(project, 'bbbbbbbb-0000-4000-8000-000000000002.jsonl');
    writeFileSync(path, good('bbbbbbbb-0000-4000-8000-000000000002'));
    const file = new TailedFile(path, () => new ClaudeTranscript());
    file.load();
    const giant = Buffer.alloc(50 * 1024 * 1024, 0x61);
    appendFileSync(path, Buffer.concat([Buffer.from('{"type":"user","x":"'), giant, Buffer.from('"}\n')]));
    appendFileSync(path, good('bbbbbbbb-0000-4000-8000-000000000002'));
    const before = process.memoryUsage().rss;
    file.update();
    expect(file.oversized).toBe(1);
    expect(file.tail.signal?.kind).toBe('prompt');
    // The 50 MB line was streamed past, not buffered: far less than its size was retained.
    expect(process.memoryUsage().rss - before).toBeLessThan(40 * 1024 * 1024);
  });

  it('__proto__ keys in records change nothing outside the record', async () => {
    const { root, project } = claudeRoot('proto');
    const id = 'cccccccc-0000-4000-8000-000000000003';
    writeFileSync(
      join(project, `${id}.jsonl`),
      `{"__proto__":{"isMeta":true,"polluted":1},"type":"user","sessionId":"${id}","timestamp":"${T}","message":{"role":"user","content":"hi"}}\n`,
    );
    const [session] = await new ClaudeProvider(root).sync(Date.parse(T));
    expect(session?.signal?.kind).toBe('prompt');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('symlink loops and FIFOs are not followed or opened (no hang)', async () => {
    const { root, project } = claudeRoot('links');
    symlinkSync(join(root, 'projects'), join(project, 'loop'));
    symlinkSync(project, join(root, 'projects', 'self'));
    execFileSync('mkfifo', [join(project, 'dddddddd-0000-4000-8000-000000000004.jsonl')]);
    writeFileSync(join(project, 'eeeeeeee-0000-4000-8000-000000000005.jsonl'), good('eeeeeeee-0000-4000-8000-000000000005'));
    const sessions = await new ClaudeProvider(root).sync(Date.parse(T));
    expect(sessions.map((session) => session.sessionId)).toEqual(['eeeeeeee-0000-4000-8000-000000000005']);
    const codexRoot = join(dir, 'codex-links');
    mkdirSync(join(codexRoot, 'sessions', '2026'), { recursive: true });
    symlinkSync(join(codexRoot, 'sessions'), join(codexRoot, 'sessions', '2026', 'loop'));
    expect(await new CodexProvider(codexRoot).sync(Date.parse(T))).toEqual([]);
  });

  it('an unreadable path is reported once, not on every sync', async () => {
    const { root } = claudeRoot('unreadable');
    mkdirSync(join(root, 'sessions', '123.json'), { recursive: true }); // a folder where a file should be
    const provider = new ClaudeProvider(root);
    await provider.sync(Date.parse(T));
    expect(provider.problems.drain()).toEqual([expect.objectContaining({ kind: 'unreadable', detail: 'EISDIR' })]);
    await provider.sync(Date.parse(T));
    expect(provider.problems.drain()).toEqual([]);
  });

  it.skipIf(process.getuid?.() === 0)('a file without read permission is reported, others still read', async () => {
    const { root, project } = claudeRoot('perm');
    writeFileSync(join(project, 'ffffffff-0000-4000-8000-000000000006.jsonl'), good('ffffffff-0000-4000-8000-000000000006'));
    chmodSync(join(project, 'ffffffff-0000-4000-8000-000000000006.jsonl'), 0);
    const provider = new ClaudeProvider(root);
    expect(await provider.sync(Date.parse(T))).toEqual([]);
    expect(provider.problems.drain()).toHaveLength(1);
  });

  it('a file that vanishes between discovery and reading is dropped without error', async () => {
    const problems = new Problems();
    const known = new Map<string, TailedFile<ClaudeTranscript>>();
    await syncFiles(known, [join(dir, 'gone.jsonl')], (path) => new TailedFile(path, () => new ClaudeTranscript()), undefined, problems);
    expect(known.size).toBe(0);
    expect(problems.drain()).toEqual([]);
  });
});
if (process.getuid?.() === 0) console.log('permission test skipped: running as root, which reads any file');
