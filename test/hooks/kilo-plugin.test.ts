// Issue 24: Kilo CLI loads opencode's plugins from its own config folder; Lookout's plugin there
// reports as Kilo (its own spool, its own prompts to answer). Proven live in kilo.live.test.ts.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { install, status, uninstall } from '../../src/main/hooks/installer';
import { findProvider } from '../../src/providers';

const base = mkdtempSync(join(tmpdir(), 'lookout-kilo-plugin-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe("Lookout's plugin for Kilo CLI (issue 24)", () => {
  it('install writes it in ~/.config/kilo/plugins, reporting as kilo; uninstall removes it and the folders it made', () => {
    const kilo = findProvider('kilo');
    if (kilo === undefined) throw new Error('Kilo CLI is in the registry');
    const context = {
      home: join(base, 'home'),
      roots: { kilo: join(base, 'data') },
      platform: 'linux' as const,
      cli: '/opt/lookout/cli.cjs',
      now: Date.parse('2026-12-01T12:00:00Z'),
      env: { HOME: base },
    };
    install(context, [kilo]);
    const path = join(base, '.config', 'kilo', 'plugins', 'lookout.js');
    const text = readFileSync(path, 'utf8');
    expect(text).toContain('"provider":"kilo"');
    expect(text).toContain(join(context.home, 'spool', 'kilo.jsonl').split('/').pop() ?? '');
    // One config line says whose it is: its spool lines and its answering requests both read it (issue 48).
    expect(text).toMatch(/^const LOOKOUT_PLUGIN = \{.*"provider":"kilo"\};$/m);
    // It is valid JavaScript as written.
    const copy = join(base, 'check.mjs');
    writeFileSync(copy, text);
    expect(spawnSync(process.execPath, ['--check', copy], { encoding: 'utf8' }).status).toBe(0);
    expect(status(context, [kilo]).lines.join('\n')).toMatch(/answering from Lookout: permission prompts and questions, through Lookout's plugin/);
    uninstall(context, [kilo]);
    expect(existsSync(path)).toBe(false);
    expect(existsSync(join(base, '.config', 'kilo'))).toBe(false);
  });
});
