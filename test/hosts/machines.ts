// Machines for the host tests: each a folder with its own Lookout home and agent folders, reached
// through the test sshd as `--command` (the built CLI under `env`), and Claude sessions in them.
import { cpSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES } from '../providers/fixture-roots';
import { CLI } from './sshd';

const T0 = Date.parse('2026-11-29T12:00:00.000Z');

export interface Machine {
  dir: string;
  env: { HOME: string; LOOKOUT_HOME: string; CLAUDE_CONFIG_DIR: string; CODEX_HOME: string; COPILOT_HOME: string; OPENCODE_DATA_DIR: string };
  /** How that machine's login shell runs its Lookout (`hosts add --command`); `extra` adds variables. */
  command: (extra?: Record<string, string>) => string;
}

let made = 0;

/** A machine's folders under `base`. */
export function machine(base: string, name: string): Machine {
  made += 1;
  const dir = join(base, `${name}-${made}`);
  const env = {
    HOME: dir,
    LOOKOUT_HOME: join(dir, 'lookout'),
    CLAUDE_CONFIG_DIR: join(dir, 'claude'),
    CODEX_HOME: join(dir, 'codex'),
    COPILOT_HOME: join(dir, 'copilot'),
    OPENCODE_DATA_DIR: join(dir, 'opencode'),
  };
  mkdirSync(env.CLAUDE_CONFIG_DIR, { recursive: true });
  const command = (extra: Record<string, string> = {}) =>
    ['env', ...Object.entries({ ...env, ...extra }).map(([key, value]) => `${key}=${value}`), process.execPath, CLI].join(' ');
  return { dir, env, command };
}

/** A Claude fixture's transcript in `root`, its times moved so its last record is `agoMs` old; its folder set to `cwd` if given. Returns its key. */
export function claudeSession(root: string, fixture: string, agoMs: number, cwd?: string): string {
  cpSync(join(FIXTURES, 'claude', fixture), root, { recursive: true });
  const project = join(root, 'projects', '-home-me-app');
  const file = readdirSync(project).find((name) => name.endsWith('.jsonl')) ?? '';
  const text = readFileSync(join(project, file), 'utf8');
  const times = [...text.matchAll(/"timestamp":"([^"]+)"/g)].map((match) => Date.parse(match[1] ?? ''));
  const shift = Date.now() - agoMs - Math.max(T0, ...times);
  const moved = text.replace(/"timestamp":"([^"]+)"/g, (_all, at: string) => `"timestamp":"${new Date(Date.parse(at) + shift).toISOString()}"`);
  writeFileSync(join(project, file), cwd === undefined ? moved : moved.replaceAll('"cwd":"/home/me/app"', `"cwd":${JSON.stringify(cwd)}`));
  return `claude:${file.replace(/\.jsonl$/, '')}`;
}

/**
 * `count` finished Claude sessions in `project` (each a prompt and its answer, two hours old and a
 * second apart: quiet rows, as on a machine left alone), named after `name`. Returns their files.
 */
export function finishedClaudeSessions(project: string, name: string, count: number): string[] {
  mkdirSync(project, { recursive: true });
  const now = Date.now();
  const files: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const id = `b0570000-0000-4000-8000-${name.padStart(4, '0').slice(-4)}${index.toString(16).padStart(8, '0')}`;
    const at = (offset: number) => new Date(now - 7_200_000 - index * 1000 + offset).toISOString();
    const line = (type: string, offset: number, message: object) =>
      JSON.stringify({
        parentUuid: null,
        isSidechain: false,
        type,
        message,
        uuid: `${id.slice(0, 30)}${offset.toString(16).padStart(6, '0')}`,
        timestamp: at(offset),
        cwd: '/home/me/app',
        sessionId: id,
        version: '2.1.143',
        gitBranch: 'main',
      });
    const path = join(project, `${id}.jsonl`);
    writeFileSync(
      path,
      `${line('user', 0, { role: 'user', content: `task ${index}` })}\n${line('assistant', 5000, { role: 'assistant', model: 'claude', content: [{ type: 'text', text: 'Done.' }], stop_reason: 'end_turn' })}\n`,
    );
    files.push(path);
  }
  return files;
}
