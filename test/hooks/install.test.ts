// Install/uninstall round trips on the agents' own files: the user's hooks and settings kept,
// byte for byte where possible; malformed files refused with nothing changed (issue 6).
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hookCommand, install, status, uninstall } from '../../src/main/hooks/installer';
import { CLAUDE_EVENTS } from '../../src/providers/claude/descriptor';
import { CODEX_EVENTS } from '../../src/providers/codex/descriptor';
import type { TestContext } from './install-context';
import { installContext, providers } from './install-context';
import { HooksFileError } from '../../src/main/hooks/json-hooks';

const base = mkdtempSync(join(tmpdir(), 'lookout-hooks-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));
const context = (): TestContext => installContext(base);

const USER_SETTINGS = `{
    "model": "opus",
    "permissions": { "allow": ["Bash(npm test)"] },
    "hooks": {
        "Stop": [ { "hooks": [ { "type": "command", "command": "say done" } ] } ],
        "PreToolUse": [ { "matcher": "Bash", "hooks": [ { "type": "command", "command": "~/guard.sh" } ] } ]
    }
}
`;

const read = (path: string) => readFileSync(path, 'utf8');

describe('hooks install / uninstall', () => {
  it('adds Lookout beside the user’s hooks for every event, and uninstall restores the file byte for byte', () => {
    const c = context();
    writeFileSync(c.claude, USER_SETTINGS);
    install(c, providers('claude'));
    const installed = JSON.parse(read(c.claude));
    expect(installed.model).toBe('opus');
    expect(installed.permissions).toEqual({ allow: ['Bash(npm test)'] });
    expect(Object.keys(installed.hooks).sort()).toEqual(CLAUDE_EVENTS.map((spec) => spec.event).sort());
    expect(installed.hooks.Stop[0]).toEqual({ hooks: [{ type: 'command', command: 'say done' }] });
    expect(installed.hooks.PreToolUse).toHaveLength(2);
    expect(installed.hooks.PreToolUse[1]).toEqual({ matcher: '*', hooks: [{ type: 'command', command: hookCommand(c, 'claude'), timeout: 10, async: true }] });
    expect(read(c.claude)).toContain('\n    "model"');
    expect(readdirSync(join(c.home, 'hooks', 'backups'))).toHaveLength(1);
    uninstall(c, providers('claude'));
    expect(read(c.claude)).toBe(USER_SETTINGS);
  });

  it('is idempotent: a second install changes nothing', () => {
    const c = context();
    writeFileSync(c.claude, USER_SETTINGS);
    install(c, providers('claude'));
    const once = read(c.claude);
    expect(install(c, providers('claude')).lines[0]).toContain('already installed');
    expect(read(c.claude)).toBe(once);
    uninstall(c, providers('claude'));
    expect(read(c.claude)).toBe(USER_SETTINGS);
  });

  it('a missing file is created, and removed again by uninstall', () => {
    const c = context();
    install(c, providers('claude', 'codex'));
    expect(Object.keys(JSON.parse(read(c.codex)).hooks).sort()).toEqual(CODEX_EVENTS.map((spec) => spec.event).sort());
    expect(read(c.config)).toMatch(/^notify = \[".*lookout-hook", "codex-notify"\]/);
    uninstall(c, providers('claude', 'codex'));
    expect(existsSync(c.claude)).toBe(false);
    expect(existsSync(c.codex)).toBe(false);
    expect(existsSync(c.config)).toBe(false);
  });

  it('an empty file stays empty after the round trip', () => {
    const c = context();
    writeFileSync(c.claude, '');
    install(c, providers('claude'));
    expect(JSON.parse(read(c.claude)).hooks.Stop).toHaveLength(1);
    uninstall(c, providers('claude'));
    expect(read(c.claude)).toBe('');
  });

  it.each([
    ['not JSON', '{ "hooks": { "Stop": [ } '],
    ['a list', '[1, 2]'],
    ['hooks that are not an object', '{"hooks": "yes"}'],
    ['an event that is not a list', '{"hooks": {"Stop": {"command": "x"}}}'],
  ])('a malformed settings file (%s) is refused with a clear message, nothing changed', (_label, text) => {
    const c = context();
    writeFileSync(c.claude, text);
    writeFileSync(c.codex, '{"hooks": {}}');
    expect(() => install(c, providers('claude', 'codex'))).toThrow(HooksFileError);
    expect(() => install(c, providers('claude'))).toThrow(/Lookout changed nothing/);
    expect(read(c.claude)).toBe(text);
    expect(read(c.codex)).toBe('{"hooks": {}}');
    expect(existsSync(join(c.home, 'bin'))).toBe(false);
  });

  it('uninstall after the user edited the file removes only Lookout’s entries and keeps the edits', () => {
    const c = context();
    writeFileSync(c.claude, USER_SETTINGS);
    install(c, providers('claude'));
    const edited = JSON.parse(read(c.claude));
    edited.theme = 'dark';
    edited.hooks.SessionStart.push({ hooks: [{ type: 'command', command: 'echo hi' }] });
    writeFileSync(c.claude, JSON.stringify(edited, null, 4));
    expect(uninstall(c, providers('claude')).lines[0]).toContain('your later edits kept');
    const after = JSON.parse(read(c.claude));
    expect(after.theme).toBe('dark');
    expect(after.hooks).toEqual({
      Stop: [{ hooks: [{ type: 'command', command: 'say done' }] }],
      PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: '~/guard.sh' }] }],
      SessionStart: [{ hooks: [{ type: 'command', command: 'echo hi' }] }],
    });
  });

  it('a notify program the user already has is left alone', () => {
    const c = context();
    const config = 'notify = ["terminal-notifier"]\n[tui]\nnotifications = true\n';
    writeFileSync(c.config, config);
    expect(install(c, providers('codex')).lines.join('\n')).toContain('you have a notify program already; Lookout left it alone');
    expect(read(c.config)).toBe(config);
    uninstall(c, providers('codex'));
    expect(read(c.config)).toBe(config);
  });

  it('status says what is installed and what each provider can see with and without hooks', () => {
    const c = context();
    expect(status(c, providers('claude', 'codex')).lines.join('\n')).toMatch(/claude: not installed[\s\S]*without hooks[\s\S]*codex: not installed/);
    install(c, providers('codex'));
    const text = status(c, providers('claude', 'codex')).lines.join('\n');
    expect(text).toContain('codex: installed');
    expect(text).toContain("notify: Lookout's");
    expect(text).toContain('approval prompts as they open');
  });

  it('paths with spaces and quotes are quoted for the shell that runs the hook', () => {
    const c = { ...context(), home: "/Users/me/Library/Application Support/Look'out" };
    expect(hookCommand(c, 'claude')).toBe(`'/Users/me/Library/Application Support/Look'\\''out/bin/lookout-hook' claude`);
  });
});

describe('hooks and symlinked settings', () => {
  it('a symlinked settings.json stays a symlink, and its target gets the user’s bytes back', async () => {
    const { symlinkSync, lstatSync } = await import('node:fs');
    const c = context();
    const dotfiles = join(c.home, '..', 'dotfiles-settings.json');
    writeFileSync(dotfiles, USER_SETTINGS);
    symlinkSync(dotfiles, c.claude);
    install(c, providers('claude'));
    expect(lstatSync(c.claude).isSymbolicLink()).toBe(true);
    expect(JSON.parse(read(dotfiles)).hooks.Stop).toHaveLength(2);
    uninstall(c, providers('claude'));
    expect(lstatSync(c.claude).isSymbolicLink()).toBe(true);
    expect(read(dotfiles)).toBe(USER_SETTINGS);
  });
});
