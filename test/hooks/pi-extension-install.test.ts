// Issue 50: Lookout's Pi extension installed into Pi's agent folder (PI_CODING_AGENT_DIR's
// extensions/), reporting as pi; uninstall takes out exactly what install wrote and a person's own
// extensions beside it stay as they were. Proven live in pi-answer.live.test.ts.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { install, status, uninstall } from '../../src/main/hooks/installer';
import { findProvider } from '../../src/providers';

const base = mkdtempSync(join(tmpdir(), 'lookout-pi-extension-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe("Lookout's Pi extension (issue 50)", () => {
  it("install writes extensions/lookout.js in Pi's agent folder, reporting as pi, valid JavaScript whose only export is the default; uninstall removes it alone", () => {
    const pi = findProvider('pi');
    if (pi === undefined) throw new Error('Pi is in the registry');
    const agent = join(base, 'agent');
    mkdirSync(join(agent, 'extensions'), { recursive: true });
    const gate = join(agent, 'extensions', 'permission-gate.ts');
    writeFileSync(gate, '// the person’s own extension\n');
    const context = {
      home: join(base, 'lookout'),
      roots: { pi: agent },
      platform: 'linux' as const,
      cli: '/opt/lookout/cli.cjs',
      now: Date.parse('2026-12-05T12:00:00Z'),
      env: { HOME: base },
    };
    install(context, [pi]);
    const path = join(agent, 'extensions', 'lookout.js');
    const text = readFileSync(path, 'utf8');
    expect(text).toMatch(/^const LOOKOUT_PLUGIN = \{.*"provider":"pi"\};$/m);
    expect(text).toContain(join(context.home, 'spool', 'pi.jsonl'));
    expect(text.match(/^export /gm)).toEqual(['export ']);
    expect(text).toMatch(/^export \{\s*lookout as default\s*\};?$/m);
    const copy = join(base, 'check.mjs');
    writeFileSync(copy, text);
    expect(spawnSync(process.execPath, ['--check', copy], { encoding: 'utf8' }).status).toBe(0);
    expect(status(context, [pi]).lines.join('\n')).toMatch(/answering from Lookout: an extension's dialog/);
    uninstall(context, [pi]);
    expect(existsSync(path)).toBe(false);
    expect(readFileSync(gate, 'utf8')).toBe('// the person’s own extension\n');
  });
});
