// Issue 16: `lookout rules list|add|remove`, and what a rule does to the rows. Fixtures: Claude
// Code 2.1.143 (sessions in /home/me/app).
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Snapshot } from '../../../src/engine';
import { runCli } from '../cli-process';
import { providerIds } from '../../../src/providers';
import { FIXTURES, fixtures } from '../../providers/fixture-roots';

const base = mkdtempSync(join(tmpdir(), 'lookout-rules-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));
const NOW = '2026-11-29T12:02:00.000Z';
let n = 0;
function home(): Record<string, string> {
  n += 1;
  const dir = join(base, `case-${n}`);
  for (const name of ['question-pending', 'failed-turn']) cpSync(join(FIXTURES, 'claude', name), join(dir, 'claude'), { recursive: true });
  return { CLAUDE_CONFIG_DIR: join(dir, 'claude'), CODEX_HOME: join(dir, 'codex'), LOOKOUT_HOME: join(dir, 'home'), HOME: dir };
}
const settings = (env: Record<string, string>) =>
  JSON.parse(readFileSync(join(env.LOOKOUT_HOME ?? '', 'settings.json'), 'utf8')) as Record<string, unknown> & {
    rules: { id: string; when: Record<string, unknown> }[];
  };

describe('lookout rules (issue 16)', () => {
  it('add, list, remove; the shipped rule stays unless removed; every other setting is kept as written', () => {
    const env = home();
    mkdirSync(env.LOOKOUT_HOME ?? '', { recursive: true, mode: 0o700 });
    writeFileSync(
      join(env.LOOKOUT_HOME ?? '', 'settings.json'),
      JSON.stringify({ shortcut: null, quietHours: { from: '22:00', to: '07:00', timeZone: 'UTC' } }),
    );
    expect(runCli(['rules', 'add', '--folder', '~/work/noisy/**', '--mute', '--id', 'noisy'], env)).toMatchObject({
      code: 0,
      stdout: 'added: noisy v1: folder ~/work/noisy/** → mute\n',
    });
    expect(runCli(['rules', 'add', '--provider', 'codex', '--host', 'devbox', '--notify', 'needs-you'], env).stdout).toBe(
      'added: rule-3 v1: provider codex, host devbox → notify needs-you\n',
    );
    expect(runCli(['rules', 'list'], env).stdout.split('\n').filter(Boolean)).toEqual([
      'outdated-after-7d v1: inactive for 7d → review outdated',
      'noisy v1: folder ~/work/noisy/** → mute',
      'rule-3 v1: provider codex, host devbox → notify needs-you',
    ]);
    // `hosts add` rewrites the file too: nothing else in it is lost.
    expect(runCli(['hosts', 'add', 'devbox'], env).code).toBe(0);
    const file = settings(env);
    expect(file.shortcut).toBeNull();
    expect(file.quietHours).toEqual({ from: '22:00', to: '07:00', timeZone: 'UTC' });
    expect(file.rules.map((rule) => rule.id)).toEqual(['outdated-after-7d', 'noisy', 'rule-3']);
    expect(file.rules[1]?.when).toEqual({ folder: '~/work/noisy/**' });
    expect(runCli(['rules', 'remove', 'noisy'], env)).toMatchObject({ code: 0, stdout: 'noisy: removed\n' });
    expect(settings(env).rules.map((rule) => rule.id)).toEqual(['outdated-after-7d', 'rule-3']);
  });

  it.each([
    [['rules'], 'lookout: rules takes list, add or remove\n'],
    [['rules', 'add', '--mute'], 'lookout: rules add needs --folder <glob>, --provider <id> or --host <name> (which sessions)\n'],
    [['rules', 'add', '--folder', '/x'], 'lookout: rules add needs an action: --mute, --notify <level> or --after-finish <review state>\n'],
    [['rules', 'add', '--folder', 'work/**', '--mute'], 'lookout: --folder takes an absolute folder or one under ~/ (got "work/**")\n'],
    [['rules', 'add', '--folder', '/x', '--notify', 'loud'], 'lookout: --notify takes never, needs-you, everything (got "loud")\n'],
    [['rules', 'add', '--provider', 'cursor', '--mute'], `lookout: --provider takes ${providerIds().join(', ')} (got "cursor")\n`],
    [['rules', 'remove', 'nope'], 'lookout: no rule "nope" (outdated-after-7d)\n'],
  ])('a bad argument exits 2 and says what is wrong: %j', (args, stderr) => {
    expect(runCli(args, home())).toMatchObject({ code: 2, stderr });
  });

  it('a mute rule on the folder mutes its sessions (a mute the user can lift, not set again); notify never keeps them quiet', () => {
    const env = home();
    const key = fixtures('claude').find((item) => item.name === 'question-pending')?.meta.sessionKey ?? '';
    const status = () => JSON.parse(runCli(['status', '--json', '--now', NOW], env).stdout) as Snapshot;
    expect(status().attention.count).toBe(2);
    expect(runCli(['rules', 'add', '--folder', '/home/me/**', '--mute'], env).code).toBe(0);
    expect(status().sessions.every((row) => row.muted !== null)).toBe(true);
    expect(status().attention.count).toBe(0);
    expect(runCli(['unmute', key, '--now', NOW], env).code).toBe(0);
    expect(status().sessions.find((row) => row.key === key)?.muted).toBeNull();
  });

  it('an older settings.json still loads: rule ids of any words, two rules sharing an id, a key Electron would not take (it falls back)', () => {
    const env = home();
    mkdirSync(env.LOOKOUT_HOME ?? '', { recursive: true, mode: 0o700 });
    const rule = { id: 'stale review (mine)', version: 1, when: { inactiveFor: '3d' }, set: 'outdated' };
    writeFileSync(join(env.LOOKOUT_HOME ?? '', 'settings.json'), JSON.stringify({ rules: [rule, rule], shortcut: 'Hyper+Q', openCommand: ['code', '{cwd}'] }));
    const status = runCli(['status', '--now', NOW], env);
    expect(status.stderr).toBe('');
    expect(runCli(['rules', 'list'], env).stdout.split('\n').filter(Boolean)).toEqual([
      'stale review (mine) v1: inactive for 3d → review outdated',
      'stale review (mine) v1: inactive for 3d → review outdated',
    ]);
    expect(settings(env).openCommand).toEqual(['code', '{cwd}']);
  });
});
