// Issue 14, the truth part: a title given with /rename in the middle of a long transcript — which a
// cold read of its head and end cannot see — is learned by the runtime's background scan, kept in
// LOOKOUT_HOME/index.json, and used by the next cold `status` while the file is the same one.
// Transcript shapes: Claude Code 2.1.143 (agent-formats §1).
import { appendFileSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { SessionIndexStore, indexText } from '../../../src/main/store/session-index-store';
import { indexCase } from '../index-case';

const { base, turns, longSession, setup, title, learn, prompt, answer, rename } = indexCase('lookout-index-');

describe('titles from the middle of a long transcript (issue 14)', () => {
  it('a /rename in the middle of a 100 MB file: learned in the background, right after a restart; a second rename too', async () => {
    const { env, file } = setup();
    const t0 = Date.now() - 3_600_000;
    let at = longSession(file, 50, t0);
    appendFileSync(file, rename('payments refactor'));
    at = turns(file, 50, at);
    // A cold read sees the head and the end: not the rename between them.
    expect(title(env).title).toBe('first prompt');
    await learn(env, 'payments refactor');
    expect(existsSync(join(env.LOOKOUT_HOME, 'index.json'))).toBe(true);
    expect(title(env).title).toBe('payments refactor');
    // A second rename, buried again: until the runtime has read past it, status does not claim the old title.
    appendFileSync(file, rename('billing refactor'));
    turns(file, 4, at);
    expect(title(env).title).toBe('first prompt');
    await learn(env, 'billing refactor');
    expect(title(env).title).toBe('billing refactor');
  }, 180_000);

  it.each([
    ['at its start, right after the first prompt', 'start'],
    ['at its end', 'end'],
  ] as const)(
    'a /rename %s: right after a restart',
    async (_where, position) => {
      const { env, file } = setup();
      const t0 = Date.now() - 3_600_000;
      writeFileSync(file, prompt(t0, 'first prompt') + answer(t0 + 1000, 'ok') + (position === 'start' ? rename('renamed early') : ''));
      const at = turns(file, 20, t0 + 2000);
      if (position === 'end') appendFileSync(file, rename('renamed late') + prompt(at + 1000, 'go on') + answer(at + 2000, 'done'));
      const wanted = position === 'start' ? 'renamed early' : 'renamed late';
      // The end is read by every cold read; the start past the first prompt only by the runtime's scan.
      if (position === 'start') await learn(env, wanted);
      expect(title(env).title).toBe(wanted);
      expect(title(env).title).toBe(wanted);
    },
    120_000,
  );

  it('identity: a file replaced under its name (same size), or cut short, is never read through what was learned of the old one', async () => {
    const { env, file } = setup();
    const t0 = Date.now() - 3_600_000;
    const at = longSession(file, 2, t0);
    appendFileSync(file, rename('learned title'));
    turns(file, 2, at);
    await learn(env, 'learned title');
    expect(title(env).title).toBe('learned title');
    // Replaced by another file of the same size and name (a restore, a copy): another inode.
    const text = readFileSync(file, 'utf8');
    const other = text.replace('learned title', 'learned_title');
    writeFileSync(`${file}.new`, other);
    renameSync(`${file}.new`, file);
    expect(title(env).title).toBe('first prompt');
    await learn(env, 'learned_title');
    // Cut short: what was learned past the new end does not hold.
    truncateSync(file, Math.floor(other.length / 4));
    expect(title(env).title).toBe('first prompt');
  }, 180_000);

  it('an index that is corrupt is kept aside with one line and rebuilt; one from a newer Lookout is left alone and not used', () => {
    const { env, file } = setup();
    // Long enough to have a head the index keeps (a file read whole leaves no entry).
    longSession(file, 1, Date.now() - 3_600_000);
    mkdirSync(env.LOOKOUT_HOME, { recursive: true, mode: 0o700 });
    writeFileSync(join(env.LOOKOUT_HOME, 'index.json'), '{"version": 2, "providers": ');
    const corrupt = title(env);
    expect(corrupt.title).toBe('first prompt');
    expect(corrupt.stderr).toMatch(/index\.json could not be used \(it is not valid JSON\); kept aside as .* and rebuilt/);
    // Kept aside, and rebuilt by the same command: the next one says nothing.
    expect(readdirSync(env.LOOKOUT_HOME).filter((name) => name.startsWith('index.json.corrupt-'))).toHaveLength(1);
    expect(JSON.parse(readFileSync(join(env.LOOKOUT_HOME, 'index.json'), 'utf8')).version).toBe(2);
    expect(title(env)).toEqual({ title: 'first prompt', stderr: '' });
    writeFileSync(join(env.LOOKOUT_HOME, 'index.json'), JSON.stringify({ version: 99, providers: {} }));
    const newer = title(env);
    expect(newer.stderr).toContain('was written by a newer Lookout (version 99); it is left as it is and not used');
    expect(JSON.parse(readFileSync(join(env.LOOKOUT_HOME, 'index.json'), 'utf8')).version).toBe(99);
  });
});

describe('the index file itself', () => {
  const files = join(base, 'entries');
  mkdirSync(files, { recursive: true });
  const real = (name: string): string => {
    const path = join(files, name);
    writeFileSync(path, 'x');
    return path;
  };
  const entry = (scannedTo: number, title: string) => ({
    identity: { dev: 1, ino: 2, size: 100, mtimeMs: 5, head: 'h' },
    head: null,
    middle: { scannedTo, customTitle: title, summaryTitle: null },
  });
  const titles = (home: string) => {
    const file = JSON.parse(readFileSync(join(home, 'index.json'), 'utf8')) as { providers: { claude: Record<string, { middle: { customTitle: string } }> } };
    return Object.fromEntries(Object.entries(file.providers.claude).map(([path, item]) => [path, item.middle.customTitle]));
  };

  it("two Lookouts sharing one home (the app and a command) keep each other's entries and never leave a broken file", () => {
    const home = join(base, 'shared-home');
    const [a, b] = [real('a.jsonl'), real('b.jsonl')];
    const problems: string[] = [];
    const app = new SessionIndexStore(home, Date.now, (line) => problems.push(line));
    const cli = new SessionIndexStore(home, Date.now, (line) => problems.push(line));
    app.put('claude', a, entry(10, 'from the app'));
    cli.put('claude', b, entry(20, 'from the command'));
    app.flush();
    cli.flush();
    // Of two scans of one file, the one that read further stays.
    app.put('claude', b, entry(5, 'an older scan'));
    app.flush();
    expect(titles(home)).toEqual({ [a]: 'from the app', [b]: 'from the command' });
    expect(problems).toEqual([]);
    app.dispose();
    cli.dispose();
  });

  it('the file is all ASCII (titles past ASCII escaped), and a second store reads every title back exactly (issue 27)', () => {
    const home = join(base, 'ascii-home');
    const path = real('ascii.jsonl');
    const wanted = 'Überprüfe den Parser… 日本語のタイトル 🚀 \u2028 end\u007f';
    const store = new SessionIndexStore(home, Date.now, () => undefined);
    store.put('claude', path, entry(10, wanted));
    store.flush();
    const bytes = readFileSync(join(home, 'index.json'));
    expect(bytes.every((byte) => byte < 0x7f)).toBe(true);
    expect(titles(home)).toEqual({ [path]: wanted });
    const again = new SessionIndexStore(home, Date.now, () => undefined);
    expect(again.get('claude', path, 1, 2)?.middle?.customTitle).toBe(wanted);
    store.dispose();
    again.dispose();
  });

  it('an index written with UTF-8 past ASCII (not by this code) is read as UTF-8: every title exact; an ASCII one as the same text (issue 51)', () => {
    const home = join(base, 'utf8-home');
    const path = real('utf8.jsonl');
    const wanted = 'Überprüfe den Parser… 日本語のタイトル 🚀';
    mkdirSync(home, { recursive: true, mode: 0o700 });
    writeFileSync(join(home, 'index.json'), JSON.stringify({ version: 2, providers: { claude: { [path]: entry(10, wanted) } } }), { mode: 0o600 });
    expect(readFileSync(join(home, 'index.json')).some((byte) => byte > 0x7f)).toBe(true);
    const store = new SessionIndexStore(home, Date.now, () => undefined);
    expect(store.get('claude', path, 1, 2)?.middle?.customTitle).toBe(wanted);
    store.dispose();
    const ascii = Buffer.from('{"t":"\\u00dc plain"}');
    expect(JSON.parse(indexText(ascii))).toEqual({ t: 'Ü plain' });
    // A byte past ASCII is never taken as Latin-1: "Ü" in UTF-8 is two bytes, one character.
    expect(indexText(Buffer.from('Ü', 'utf8'))).toBe('Ü');
  });

  it("a deleted file's entry is dropped by the next process's first write; a write never looks again for files this process saw (issue 27)", () => {
    const home = join(base, 'prune-home');
    const [kept, gone] = [real('kept.jsonl'), real('gone.jsonl')];
    const store = new SessionIndexStore(home, Date.now, () => undefined);
    store.put('claude', kept, entry(10, 'kept'));
    store.put('claude', gone, entry(10, 'gone'));
    store.flush();
    expect(Object.keys(titles(home)).sort()).toEqual([gone, kept].sort());
    rmSync(gone);
    store.put('claude', kept, entry(20, 'kept'));
    store.flush();
    // Seen by this process (it read that file): not looked for on every write.
    expect(Object.keys(titles(home)).sort()).toEqual([gone, kept].sort());
    const next = new SessionIndexStore(home, Date.now, () => undefined);
    next.put('claude', kept, entry(30, 'kept'));
    next.flush();
    expect(titles(home)).toEqual({ [kept]: 'kept' });
  });

  it("a first pass's many changes: written 30 s after the store began (unless a flush came first), then at most every 30 s, 2 s after a change once quiet; a flush (a command's exit, the pass's end) writes at once (issue 27)", () => {
    vi.useFakeTimers();
    try {
      const home = join(base, 'throttle-home');
      const file = real('throttle.jsonl');
      const store = new SessionIndexStore(home, Date.now, () => undefined);
      store.put('claude', file, entry(10, 'one'));
      vi.advanceTimersByTime(2_000);
      // A start's cold read waits for its pass's end: not written twice within seconds.
      expect(existsSync(join(home, 'index.json'))).toBe(false);
      vi.advanceTimersByTime(28_000);
      expect(titles(home)).toEqual({ [file]: 'one' });
      store.put('claude', file, entry(20, 'two'));
      vi.advanceTimersByTime(20_000);
      expect(titles(home)).toEqual({ [file]: 'one' });
      vi.advanceTimersByTime(10_000);
      expect(titles(home)).toEqual({ [file]: 'two' });
      vi.advanceTimersByTime(60_000);
      store.put('claude', file, entry(30, 'three'));
      vi.advanceTimersByTime(2_000);
      expect(titles(home)).toEqual({ [file]: 'three' });
      store.put('claude', file, entry(40, 'four'));
      store.flush();
      expect(titles(home)).toEqual({ [file]: 'four' });
    } finally {
      vi.useRealTimers();
    }
  });

  it.each([
    ['providers is a list', { version: 2, providers: [] }],
    ['a provider is not a record', { version: 2, providers: { claude: 'x' } }],
    ['no providers at all', { version: 2 }],
  ])('valid JSON without the frame of an index (%s) is kept aside with one line, and its entries are not used', (_case, content) => {
    const home = join(base, `frame-${_case.replace(/\W+/g, '-')}`);
    mkdirSync(home, { recursive: true });
    writeFileSync(join(home, 'index.json'), JSON.stringify(content));
    const problems: string[] = [];
    const store = new SessionIndexStore(home, Date.now, (line) => problems.push(line));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/index\.json could not be used \(it does not have the expected shape\); kept aside as .* and rebuilt/);
    expect(store.has('claude', 'x')).toBe(false);
    expect(readdirSync(home).filter((name) => name.startsWith('index.json.corrupt-'))).toHaveLength(1);
  });

  it('a home where the index cannot be written: Lookout goes on without it and says so once', () => {
    const home = join(base, 'no-index-home');
    // A folder where the file should be: every write fails.
    mkdirSync(join(home, 'index.json'), { recursive: true });
    const problems: string[] = [];
    const store = new SessionIndexStore(home, Date.now, (line) => problems.push(line));
    store.put('claude', real('c.jsonl'), entry(10, 'kept in memory'));
    store.flush();
    const d = real('d.jsonl');
    store.put('claude', d, entry(10, 'still in memory'));
    store.flush();
    expect(store.get('claude', d, 1, 2)?.middle?.customTitle).toBe('still in memory');
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/index\.json cannot be (read|written) .*; Lookout works without its index/);
    // And the folder in its place is left as it was.
    expect(existsSync(join(home, 'index.json'))).toBe(true);
  });
});
