// Issue 25 item 14: an unknown quiet-hours time zone set the whole settings.json aside (rules,
// hosts, template gone), even from a read-only `status`. Electron's and Node's zone data differ,
// so the app could discard what the command line accepted. Now that field alone falls back.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { inQuietHours, nextLocal } from '../../../src/engine';
import { loadSettings } from '../../../src/main/store/settings-store';
import { runCli } from '../cli-process';

const base = mkdtempSync(join(tmpdir(), 'lookout-quiet-zone-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));
const NOW = Date.parse('2026-11-29T12:02:00.000Z');
const ZONE = 'Mars/Olympus_Mons';

const FILE = {
  quietHours: { from: '22:00', to: '07:00', timeZone: ZONE },
  rules: [{ id: 'noisy', version: 1, when: { folder: '/work/noisy/**' }, mute: true }],
  hosts: [{ name: 'devbox', destination: 'me@devbox' }],
  openCommand: ['code', '{cwd}'],
};

function home(): { dir: string; env: Record<string, string>; text: string } {
  const dir = mkdtempSync(join(base, 'case-'));
  const lookout = join(dir, 'home');
  mkdirSync(lookout, { recursive: true, mode: 0o700 });
  const text = `${JSON.stringify(FILE, null, 2)}\n`;
  writeFileSync(join(lookout, 'settings.json'), text);
  return { dir: lookout, env: { LOOKOUT_HOME: lookout, HOME: dir, CLAUDE_CONFIG_DIR: join(dir, 'claude'), CODEX_HOME: join(dir, 'codex') }, text };
}
const setAside = (dir: string): string[] => readdirSync(dir).filter((name) => name.includes('.corrupt-'));

describe('an unknown quiet-hours time zone (issue 25 item 14)', () => {
  it("issue 25 item 14: the zone alone falls back to this machine's, with one warning; rules, hosts and template stay", () => {
    const { dir, text } = home();
    const loaded = loadSettings(dir, NOW);
    expect(loaded.problems).toEqual([
      `lookout: ${join(dir, 'settings.json')}: quietHours.timeZone "${ZONE}" is not a time zone this system knows; quiet hours follow this machine's clock (the file is left as written)`,
    ]);
    expect(loaded.settings.quietHours).toEqual({ from: '22:00', to: '07:00', timeZone: null });
    expect(loaded.settings.rules.map((rule) => rule.id)).toEqual(['noisy']);
    expect(loaded.settings.openCommand).toEqual(['code', '{cwd}']);
    expect(loaded.hosts.map((host) => host.name)).toEqual(['devbox']);
    expect(setAside(dir)).toEqual([]);
    expect(readFileSync(join(dir, 'settings.json'), 'utf8')).toBe(text);
    // Once: a runtime reloads its settings at every change of the store.
    expect(loadSettings(dir, NOW).problems).toEqual([]);
  });

  it('issue 25 item 14: a read-only `status` sets nothing aside, and `rules add` keeps the zone as written', () => {
    const { dir, env, text } = home();
    const status = runCli(['status', '--now', new Date(NOW).toISOString()], env);
    expect(status.code).toBe(0);
    expect(status.stderr.split('\n').filter((line) => line.includes('quietHours.timeZone'))).toHaveLength(1);
    expect(status.stderr).not.toMatch(/kept aside/);
    expect(setAside(dir)).toEqual([]);
    expect(readFileSync(join(dir, 'settings.json'), 'utf8')).toBe(text);
    expect(runCli(['rules', 'add', '--provider', 'codex', '--mute', '--id', 'quiet-codex'], env).code).toBe(0);
    const written = JSON.parse(readFileSync(join(dir, 'settings.json'), 'utf8')) as typeof FILE;
    expect(written.quietHours).toEqual(FILE.quietHours);
    expect(written.rules.map((rule) => rule.id)).toEqual(['noisy', 'quiet-codex']);
    expect(written.hosts).toEqual(FILE.hosts);
    expect(existsSync(join(dir, '.settings.lock'))).toBe(false);
  });

  it("issue 25 item 14: the engine never throws on a zone it does not know (this machine's clock)", () => {
    expect(() => inQuietHours(NOW, { from: '22:00', to: '07:00', timeZone: ZONE })).not.toThrow();
    expect(inQuietHours(NOW, { from: '22:00', to: '07:00', timeZone: ZONE })).toBe(inQuietHours(NOW, { from: '22:00', to: '07:00', timeZone: null }));
    expect(nextLocal(NOW, '08:00', ZONE)).toBe(nextLocal(NOW, '08:00', null));
  });
});
