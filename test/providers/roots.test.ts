// Each agent's folder as the agent itself resolves it (its installed code, docs/providers.md
// "Folders"): its variables in its order, XDG where it follows XDG, its home default; the parts a
// variable of its own moves; and what doctor says chose each.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findProvider, resolveRoots } from '../../src/providers';
import { clineFolders } from '../../src/providers/cline/folders';
import { chooseParts, chooseRoot } from '../../src/providers/roots';

const HOME = '/home/me';
const provider = (id: string) => {
  const found = findProvider(id);
  if (found === undefined) throw new Error(`no provider ${id}`);
  return found;
};

describe('agent folders, as each agent resolves them', () => {
  it('the defaults, with no variable set', () => {
    expect(resolveRoots({ HOME })).toEqual({
      claude: join(HOME, '.claude'),
      codex: join(HOME, '.codex'),
      copilot: join(HOME, '.copilot'),
      opencode: join(HOME, '.local/share/opencode'),
      kilo: join(HOME, '.local/share/kilo'),
      gemini: join(HOME, '.gemini'),
      droid: join(HOME, '.factory'),
      cline: join(HOME, '.cline', 'data'),
      qwen: join(HOME, '.qwen'),
      pi: join(HOME, '.pi', 'agent'),
    });
  });

  it('Cline 3.0.65: CLINE_DATA_DIR, else $CLINE_DIR/data, else ~/.cline/data; a blank variable counts as unset', () => {
    const cline = provider('cline');
    expect(chooseRoot(cline, { HOME, CLINE_DIR: '/srv/cline' })).toEqual({
      path: join('/srv/cline', 'data'),
      source: 'variable',
      variable: 'CLINE_DIR',
      from: 'CLINE_DIR=/srv/cline (its data); CLINE_DATA_DIR not set',
    });
    expect(chooseRoot(cline, { HOME, CLINE_DIR: '/srv/cline', CLINE_DATA_DIR: '/srv/data' })).toMatchObject({ path: '/srv/data', variable: 'CLINE_DATA_DIR' });
    expect(chooseRoot(cline, { HOME, CLINE_DIR: '/srv/cline', CLINE_DATA_DIR: '  ' })).toMatchObject({
      path: join('/srv/cline', 'data'),
      variable: 'CLINE_DIR',
    });
    expect(chooseRoot(cline, { HOME })).toMatchObject({ source: 'default', from: 'default; CLINE_DATA_DIR, CLINE_DIR not set' });
    // The agent's own variables win over a folder chosen in Lookout's settings.
    expect(resolveRoots({ HOME, CLINE_DIR: '/srv/cline' }, { cline: '/chosen' }).cline).toBe(join('/srv/cline', 'data'));
    expect(clineFolders('/d', { CLINE_DB_DATA_DIR: '/db' })).toEqual({ db: '/db', sessions: join('/d', 'sessions') });
    expect(chooseParts(cline.root, '/d', { CLINE_SESSION_DATA_DIR: '/s' })).toEqual([
      { folder: 'db', path: join('/d', 'db'), variable: null },
      { folder: 'sessions', path: '/s', variable: 'CLINE_SESSION_DATA_DIR' },
    ]);
  });

  it('Qwen 0.24.4: QWEN_HOME with a leading ~ expanded; QWEN_RUNTIME_DIR moves its projects', () => {
    const qwen = provider('qwen');
    expect(chooseRoot(qwen, { HOME, QWEN_HOME: '~/.config/qwen' }).path).toBe(join(HOME, '.config/qwen'));
    expect(chooseParts(qwen.root, join(HOME, '.qwen'), { HOME, QWEN_RUNTIME_DIR: '~/rt' })).toEqual([
      { folder: 'projects', path: join(HOME, 'rt', 'projects'), variable: 'QWEN_RUNTIME_DIR' },
    ]);
  });

  it('Pi 0.73.1: PI_CODING_AGENT_DIR with a leading ~ expanded; PI_CODING_AGENT_SESSION_DIR holds its sessions flat', () => {
    const pi = provider('pi');
    expect(chooseRoot(pi, { HOME, PI_CODING_AGENT_DIR: '~/agents/pi' }).path).toBe(join(HOME, 'agents/pi'));
    expect(chooseParts(pi.root, join(HOME, '.pi', 'agent'), { HOME, PI_CODING_AGENT_SESSION_DIR: '/srv/pi-sessions' })).toEqual([
      { folder: 'sessions', path: '/srv/pi-sessions', variable: 'PI_CODING_AGENT_SESSION_DIR' },
    ]);
    expect(pi.watch(join(HOME, '.pi', 'agent'))).toEqual([{ path: join(HOME, '.pi', 'agent', 'sessions'), depth: 1, files: /\.jsonl$/ }]);
  });

  it('the others: their one variable (a home, for Gemini and Droid), XDG_DATA_HOME for opencode and Kilo', () => {
    const env = {
      HOME,
      CLAUDE_CONFIG_DIR: '/c',
      CODEX_HOME: '/x',
      COPILOT_HOME: '/p',
      GEMINI_CLI_HOME: '/g',
      FACTORY_HOME_OVERRIDE: '/f',
      XDG_DATA_HOME: '/xdg',
    };
    expect(resolveRoots(env)).toMatchObject({
      claude: '/c',
      codex: '/x',
      copilot: '/p',
      gemini: join('/g', '.gemini'),
      droid: join('/f', '.factory'),
      opencode: join('/xdg', 'opencode'),
      kilo: join('/xdg', 'kilo'),
    });
  });
});
