// Issue 51: what a status of the files loads before it prints. Node's start is the floor every
// command is measured against (status ≤ node + 50 ms), so a cost each command pays whether it needs
// it or not counts: a date formatter made at load (the first loads ICU's locale data: ~20 ms on a slow machine), the
// crypto module, the contract's schemas. Each is made where it is first used.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli-process';
import { writePiSession } from '../pi-session';

const base = mkdtempSync('/tmp/lk-loads-');
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** Preloaded into the command: counts date formatters made, and says at exit which built-in modules were loaded. */
const PROBE = `
let made = 0;
const Real = Intl.DateTimeFormat;
Intl.DateTimeFormat = new Proxy(Real, { construct(target, args) { made += 1; return Reflect.construct(target, args); }, apply(target, self, args) { made += 1; return Reflect.apply(target, self, args); } });
process.on('exit', () => {
  const crypto = process.moduleLoadList.includes('NativeModule crypto');
  require('node:fs').writeFileSync(process.env.LOADS_OUT, JSON.stringify({ made, crypto }));
});
`;

function home(name: string): Record<string, string> {
  const root = join(base, name);
  const project = join(root, 'project');
  const sessions = join(root, '.pi', 'agent', 'sessions', '--project--');
  mkdirSync(project, { recursive: true });
  mkdirSync(sessions, { recursive: true });
  writePiSession(sessions, '01a244aa-0000-7000-8000-0000000000c3', project, 60_000);
  const probe = join(root, 'probe.cjs');
  writeFileSync(probe, PROBE);
  return {
    HOME: root,
    LOOKOUT_HOME: join(root, 'lk'),
    XDG_CONFIG_HOME: join(root, '.config'),
    XDG_DATA_HOME: join(root, '.local', 'share'),
    NODE_OPTIONS: `--require ${probe}`,
    LOADS_OUT: join(root, 'loads.json'),
  };
}

describe('issue 51: a status of the files loads only what it uses', () => {
  it('makes no date formatter and loads no crypto module, as JSON and as a table, and still prints its row', () => {
    for (const args of [['--json'], ['--wide']]) {
      const env = home(args.join(''));
      const result = runCli(['status', '--cold', ...args], env);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toContain('make the badge');
      const loads = JSON.parse(readFileSync(env.LOADS_OUT ?? '', 'utf8')) as { made: number; crypto: boolean };
      expect(loads).toEqual({ made: 0, crypto: false });
    }
  });
});
