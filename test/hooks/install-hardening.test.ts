// Issue 11 items 6–9: hooks install and uninstall touch only Lookout's entries, keep every other
// byte, mode and owner, decide TOML with a real parser, and keep Lookout's own files private.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { parse } from 'smol-toml';
import { afterAll, describe, expect, it } from 'vitest';
import { install, uninstall } from '../../src/main/hooks/installer';
import { HooksFileError } from '../../src/main/hooks/json-hooks';
import { addNotify, hasNotify, notifyLine, removeNotify } from '../../src/main/hooks/toml-notify';
import type { ProviderDescriptor } from '../../src/providers';
import { runCli } from '../main/cli-process';
import type { TestContext } from './install-context';
import { installContext, providers } from './install-context';

const base = mkdtempSync(join(tmpdir(), 'lookout-hooks-hard-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));
const context = (): TestContext => installContext(base);
const provider = (id: string): ProviderDescriptor[] => providers(id);

const read = (path: string): string => readFileSync(path, 'utf8');
const mode = (path: string): number => statSync(path).mode & 0o777;

describe('uninstall removes only Lookout’s handler (item 6)', () => {
  it('a handler of the user’s in the same group as Lookout’s stays', () => {
    const c = context();
    writeFileSync(c.claude, '{\n  "model": "opus"\n}\n');
    install(c, provider('claude'));
    const edited = JSON.parse(read(c.claude)) as { hooks: Record<string, { hooks: { command: string }[] }[]> };
    const group = edited.hooks.SessionStart?.[0];
    if (group === undefined) throw new Error('no SessionStart group');
    group.hooks.push({ type: 'command', command: 'echo mine' } as { command: string });
    writeFileSync(c.claude, `${JSON.stringify(edited, null, 2)}\n`);
    const lines = uninstall(c, provider('claude')).lines;
    expect(lines[0]).toContain('your later edits kept');
    const after = JSON.parse(read(c.claude)) as { model: string; hooks: Record<string, unknown> };
    expect(after.model).toBe('opus');
    expect(after.hooks).toEqual({ SessionStart: [{ hooks: [{ type: 'command', command: 'echo mine' }] }] });
  });
});

describe('every other byte stays (item 9)', () => {
  const USER =
    '{\r\n    "model": "opus",\r\n    "big": 1e22,\r\n    "ratio": 1.0,\r\n    "hooks": {\r\n        "Stop": [ { "hooks": [ { "type": "command", "command": "say done" } ] } ]\r\n    }\r\n}\r\n';

  it('install keeps CRLF line endings and number spellings; uninstall after an edit keeps them too', () => {
    const c = context();
    writeFileSync(c.claude, USER);
    install(c, provider('claude'));
    const installed = read(c.claude);
    expect(installed).toContain('"big": 1e22,\r\n');
    expect(installed).toContain('"ratio": 1.0,\r\n');
    expect(installed.replace(/\r\n/g, '')).not.toContain('\n');
    // The user's own group keeps its bytes; Lookout's follows it on the same line.
    expect(installed).toContain('"Stop": [ { "hooks": [ { "type": "command", "command": "say done" } ] }, {"hooks":[');
    // The user edits a value: uninstall cannot restore the old bytes whole, so it edits out Lookout's entries.
    writeFileSync(c.claude, installed.replace('"model": "opus"', '"model": "sonnet"'));
    uninstall(c, provider('claude'));
    expect(read(c.claude)).toBe(USER.replace('"model": "opus"', '"model": "sonnet"'));
  });
});

describe('review follow-ups', () => {
  it('a settings.json with a byte-order mark is edited and restored with it', () => {
    const c = context();
    const text = '\uFEFF{\n  "model": "opus"\n}\n';
    writeFileSync(c.claude, text);
    install(c, provider('claude'));
    expect(read(c.claude).startsWith('\uFEFF{')).toBe(true);
    writeFileSync(c.claude, read(c.claude).replace('opus', 'sonnet'));
    uninstall(c, provider('claude'));
    expect(read(c.claude)).toBe(text.replace('opus', 'sonnet'));
  });

  it('a dangling symlink is written through (the link stays a link)', async () => {
    const { symlinkSync, lstatSync } = await import('node:fs');
    const c = context();
    const target = join(c.dir, 'dotfiles', 'claude-settings.json');
    symlinkSync(target, c.claude);
    install(c, provider('claude'));
    expect(lstatSync(c.claude).isSymbolicLink()).toBe(true);
    expect(JSON.parse(read(target)).hooks.Stop).toHaveLength(1);
  });

  it('the bytes to restore follow the user’s own later edits, not the first install', () => {
    const c = context();
    writeFileSync(c.claude, '{ "v": "A" }\n');
    install(c, provider('claude'));
    // The user edits, then takes Lookout's hooks out by hand, then installs again.
    writeFileSync(c.claude, '{ "v": "D" }\n');
    install(c, provider('claude'));
    uninstall(c, provider('claude'));
    expect(read(c.claude)).toBe('{ "v": "D" }\n');
  });

  it('a file that cannot be written stops the install with a clear error; what was changed before it is recorded', async (test) => {
    const { symlinkSync } = await import('node:fs');
    const c = context();
    writeFileSync(join(c.dir, 'codex', 'hooks.json'), '{}\n');
    // Claude's settings file is a link into a read-only file system: reading finds no file, writing fails.
    const readOnly = join(c.dir, 'ro');
    mkdirSync(readOnly);
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'ro,size=16k', 'tmpfs', readOnly], { stdio: 'ignore' });
    } catch {
      console.log('partial-install test skipped: this machine does not allow mounting a read-only tmpfs');
      test.skip();
    }
    try {
      symlinkSync(join(readOnly, 'settings.json'), c.claude);
      expect(() => install(c, [...provider('codex'), ...provider('claude')])).toThrow(/could not be written/);
      const record = JSON.parse(read(join(c.home, 'hooks', 'installed.json'))) as { files: Record<string, unknown> };
      expect(Object.keys(record.files)).toContain(join(c.dir, 'codex', 'hooks.json'));
      uninstall(c, provider('codex'));
      expect(read(join(c.dir, 'codex', 'hooks.json'))).toBe('{}\n');
    } finally {
      execFileSync('umount', [readOnly]);
    }
  });

  it('TOML: Lookout’s line is found below a comment that quotes it, and big integers are valid', () => {
    const LINE = notifyLine(['/x/lookout-hook', 'codex-notify']);
    const text = `# ${LINE}\n${LINE}\nmodel = "o3"\n`;
    expect(removeNotify(text, LINE)).toBe(`# ${LINE}\nmodel = "o3"\n`);
    expect(hasNotify('big = 9007199254740993\n')).toBe(false);
  });
});

describe('JSON edits, generated (item 9)', () => {
  const COMMAND = "'/home/me/.config/lookout/bin/lookout-hook' claude";
  const handler = fc.record({ type: fc.constant('command'), command: fc.constantFrom('say done', '~/guard.sh', 'echo "hi"') });
  const group = fc.record(
    { matcher: fc.option(fc.constantFrom('Bash', '*', ''), { nil: undefined }), hooks: fc.array(handler, { minLength: 1, maxLength: 2 }) },
    { requiredKeys: ['hooks'] },
  );
  // Empty `hooks` or event lists are left out: when the user edited the file since, uninstall cannot
  // tell an empty list the user kept from one Lookout emptied, and removes it (docs/hooks.md).
  const events = fc.dictionary(fc.constantFrom('Stop', 'PreToolUse', 'SessionStart', 'Notification'), fc.array(group, { minLength: 1, maxLength: 2 }), {
    minKeys: 1,
  });
  const settings = fc.record({ model: fc.constantFrom('opus', 'sonnet'), n: fc.constantFrom(1, 1e22, 0.5), hooks: events }, { requiredKeys: ['model'] });
  const layout = fc.tuple(fc.constantFrom(2, 4, '\t'), fc.constantFrom('\n', '\r\n'));

  it('property: removing Lookout’s hooks from what install wrote gives back the user’s bytes exactly', async () => {
    const { addHooks, removeHooks } = await import('../../src/main/hooks/json-hooks');
    const { CLAUDE_EVENTS } = await import('../../src/providers/claude/descriptor');
    fc.assert(
      fc.property(settings, layout, (value, [indent, eol]) => {
        const text = `${JSON.stringify(value, null, indent)}\n`.replace(/\n/g, eol);
        const installed = addHooks(text, CLAUDE_EVENTS, COMMAND, { timeout: 10 });
        const parsed = JSON.parse(installed) as { hooks: Record<string, unknown[]> };
        expect(Object.keys(parsed.hooks).sort()).toEqual([...new Set([...Object.keys(value.hooks ?? {}), ...CLAUDE_EVENTS.map((spec) => spec.event)])].sort());
        if (eol === '\r\n') expect(installed.replace(/\r\n/g, '')).not.toContain('\n');
        expect(removeHooks(installed, COMMAND)).toBe(text);
      }),
      { numRuns: 300 },
    );
  });
});

describe('modes and owners (item 7)', () => {
  it('a 0600 settings.json stays 0600 through install and uninstall; backups and the record are private', () => {
    const c = context();
    writeFileSync(c.claude, '{ "apiKeyHelper": "secret" }\n');
    chmodSync(c.claude, 0o600);
    install(c, provider('claude'));
    expect(mode(c.claude)).toBe(0o600);
    expect(mode(join(c.home, 'hooks'))).toBe(0o700);
    expect(mode(join(c.home, 'hooks', 'installed.json'))).toBe(0o600);
    const backups = join(c.home, 'hooks', 'backups');
    expect(mode(backups)).toBe(0o700);
    for (const name of readdirSync(backups)) expect(mode(join(backups, name))).toBe(0o600);
    expect(mode(join(c.home, 'bin', 'lookout-hook'))).toBe(0o700);
    uninstall(c, provider('claude'));
    expect(mode(c.claude)).toBe(0o600);
  });

  it('a 0644 file stays 0644 (its own mode, not Lookout’s)', () => {
    const c = context();
    writeFileSync(c.claude, '{}\n');
    chmodSync(c.claude, 0o644);
    install(c, provider('claude'));
    expect(mode(c.claude)).toBe(0o644);
  });

  it('the spool the hooks write, the store and settings are private', () => {
    const c = context();
    install(c, provider('claude'));
    const shim = join(c.home, 'bin', 'lookout-hook');
    execFileSync(shim, ['claude'], { input: '{"session_id":"s1","hook_event_name":"Stop"}', env: { PATH: process.env.PATH ?? '' } });
    expect(mode(join(c.home, 'spool'))).toBe(0o700);
    expect(mode(join(c.home, 'spool', 'claude.jsonl'))).toBe(0o600);
    const env = { HOME: c.dir, CLAUDE_CONFIG_DIR: c.roots.claude ?? '', CODEX_HOME: c.roots.codex ?? '', LOOKOUT_HOME: join(c.dir, 'home2') };
    runCli(['hook', 'claude'], env, '{"session_id":"s2","hook_event_name":"Stop"}');
    expect(mode(join(c.dir, 'home2', 'spool'))).toBe(0o700);
    expect(mode(join(c.dir, 'home2', 'spool', 'claude.jsonl'))).toBe(0o600);
    expect(runCli(['hooks', 'status'], env).code).toBe(0);
    expect(runCli(['attention', 's2', 'look'], env).code).toBe(0);
    expect(mode(join(c.dir, 'home2'))).toBe(0o700);
    expect(mode(join(c.dir, 'home2', 'store.json'))).toBe(0o600);
  });
});

describe('TOML decided by a parser (item 8)', () => {
  const LINE = notifyLine(['/home/me/.config/lookout/bin/lookout-hook', 'codex-notify']);
  const ARGV = ['/home/me/.config/lookout/bin/lookout-hook', 'codex-notify'];

  it.each([
    ['a quoted key', '"notify" = ["terminal-notifier"]\nmodel = "o3"\n'],
    ['a literal-quoted key', "'notify' = ['x']\n"],
    ['after a multi-line array', 'trusted = [\n  "a",\n  "b",\n]\nnotify = ["x"]\n[tui]\nx = 1\n'],
    ['after a multi-line string holding a [table]-like line', 'instructions = """\n[not a table]\n"""\nnotify = ["x"]\n'],
    ['a dotted key', 'notify.program = "x"\n'],
  ])('a notify the user has is seen: %s', (_label, config) => {
    expect(hasNotify(config)).toBe(true);
    const c = context();
    writeFileSync(c.config, config);
    expect(install(c, provider('codex')).lines.join('\n')).toContain('you have a notify program already');
    expect(read(c.config)).toBe(config);
  });

  it('a notify inside a table is not a top-level one: Lookout adds its own, and the file stays valid', () => {
    const config = '[profiles.x]\nnotify = ["y"]\n';
    expect(hasNotify(config)).toBe(false);
    const next = addNotify(config, LINE, ARGV);
    expect(parse(next)).toMatchObject({ notify: ARGV, profiles: { x: { notify: ['y'] } } });
  });

  it('an invalid config.toml refuses the install and nothing changes', () => {
    const c = context();
    writeFileSync(c.config, 'model = \n');
    writeFileSync(join(c.dir, 'codex', 'hooks.json'), '{}\n');
    expect(() => install(c, provider('codex'))).toThrow(HooksFileError);
    expect(read(c.config)).toBe('model = \n');
    expect(read(join(c.dir, 'codex', 'hooks.json'))).toBe('{}\n');
  });

  it('CRLF and a byte-order mark are kept; removal takes out exactly the line', () => {
    const config = '\uFEFFmodel = "o3"\r\n[tui]\r\nx = 1\r\n';
    const next = addNotify(config, LINE, ARGV);
    expect(next).toBe(`\uFEFF${LINE}\r\nmodel = "o3"\r\n[tui]\r\nx = 1\r\n`);
    expect(removeNotify(next, LINE)).toBe(config);
  });

  // Generated documents: top-level keys in every spelling, arrays over lines, strings that look
  // like tables or keys, comments, tables and arrays of tables. The parser's word decides.
  const key = fc.constantFrom('model', '"model"', "'approval'", 'a.b', '"notify"', 'notify', "'notify'", 'notify.x', 'x-y_z');
  const value = fc.constantFrom(
    '"o3"',
    "'lit'",
    '1',
    '1e22',
    '1.0',
    'true',
    '[\n  "a",\n  "b",\n]',
    '"""\n[not.a.table]\nnotify = 1\n"""',
    '{ a = 1 }',
    '2026-11-29T12:00:00Z',
  );
  const pair = fc.tuple(key, value).map(([k, v]) => `${k} = ${v}`);
  const table = fc
    .tuple(fc.constantFrom('[tui]', '[profiles.dev]', '[[servers]]', '["quoted table"]'), fc.array(pair, { maxLength: 3 }))
    .map(([header, pairs]) => [header, ...pairs].join('\n'));
  const doc = fc
    .tuple(
      fc.array(fc.oneof(pair, fc.constant('# a comment, notify = ["no"]')), { maxLength: 4 }),
      fc.array(table, { maxLength: 3 }),
      fc.constantFrom('\n', '\r\n'),
    )
    .map(([top, tables, eol]) => `${[...top, ...tables].join('\n')}\n`.replace(/\n/g, eol));

  it('property: on every valid generated config, Lookout sees notify exactly when the parser does, and its edit keeps every key', () => {
    fc.assert(
      fc.property(doc, (text) => {
        let parsed: Record<string, unknown>;
        try {
          parsed = parse(text) as Record<string, unknown>;
        } catch {
          return; // Not valid TOML (a duplicate key, say): the refusal case is tested above.
        }
        const has = Object.hasOwn(parsed, 'notify');
        expect(hasNotify(text)).toBe(has);
        if (has) return;
        const next = addNotify(text, LINE, ARGV);
        const after = parse(next) as Record<string, unknown>;
        expect(after.notify).toEqual(ARGV);
        for (const name of Object.keys(parsed)) expect(after[name]).toEqual(parsed[name]);
        expect(removeNotify(next, LINE)).toBe(text);
      }),
      { numRuns: 400 },
    );
  });
});
