// Issue 15 for real: `lookout open` focuses the very tmux pane or kitty window (of several) that
// holds the agent's process. Claude's process is named by its registry (sessions/<pid>.json);
// Codex's is found holding its rollout open. kitty runs on a virtual display with remote control
// on. Each part skips, saying why, where its program is missing (.ci/run installs them).
// Transcript shapes: Claude Code 2.1.143, Codex CLI 0.130.0 (agent-formats §1, §2).
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli-process';

const has = (tool: string): boolean => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0;
const base = mkdtempSync(join(tmpdir(), 'lookout-focus-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

async function until<T>(what: string, probe: () => T | null, timeoutMs = 20_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = probe();
    if (value !== null) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((done) => setTimeout(done, 50));
  }
}

let cases = 0;
/** A home with one Claude session per pid, each live in the registry under that pid. */
function claudeSessions(pids: readonly number[]): { env: Record<string, string>; keys: string[] } {
  cases += 1;
  const dir = join(base, `case-${cases}`);
  const project = join(dir, 'claude', 'projects', '-home-me-app');
  mkdirSync(project, { recursive: true });
  mkdirSync(join(dir, 'claude', 'sessions'), { recursive: true });
  const now = Date.now();
  const keys = pids.map((pid, index) => {
    const id = `f0c05000-0000-4000-8000-00000000000${index}`;
    const record = (type: string, at: number, message: object) =>
      JSON.stringify({
        parentUuid: null,
        isSidechain: false,
        type,
        uuid: `${id}-${type}`,
        timestamp: new Date(at).toISOString(),
        cwd: '/home/me/app',
        sessionId: id,
        version: '2.1.143',
        gitBranch: 'main',
        message,
      });
    writeFileSync(
      join(project, `${id}.jsonl`),
      `${record('user', now - 60_000, { role: 'user', content: `task ${index}` })}\n${record('assistant', now - 59_000, { role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'text', text: 'done' }], stop_reason: 'end_turn' })}\n`,
    );
    writeFileSync(
      join(dir, 'claude', 'sessions', `${pid}.json`),
      JSON.stringify({
        pid,
        sessionId: id,
        cwd: '/home/me/app',
        startedAt: now - 60_000,
        kind: 'interactive',
        entrypoint: 'cli',
        status: 'idle',
        updatedAt: now - 59_000,
      }),
    );
    return `claude:${id}`;
  });
  const env = {
    HOME: dir,
    LOOKOUT_HOME: join(dir, 'home'),
    CLAUDE_CONFIG_DIR: join(dir, 'claude'),
    CODEX_HOME: join(dir, 'codex'),
    COPILOT_HOME: join(dir, 'none'),
    OPENCODE_DATA_DIR: join(dir, 'none'),
  };
  return { env, keys };
}

describe.skipIf(!has('tmux'))('open focuses the tmux pane that holds the session (real tmux)', () => {
  it('three agents in three windows: the middle one is selected, then the first; next --open goes to the one asking', async () => {
    const tmuxDir = join(base, 'tmux');
    mkdirSync(tmuxDir, { recursive: true });
    const tmuxEnv: NodeJS.ProcessEnv = { ...process.env, TMUX_TMPDIR: tmuxDir };
    delete tmuxEnv.TMUX;
    const tmux = (...args: string[]): string => execFileSync('tmux', args, { env: tmuxEnv, encoding: 'utf8' }).trim();
    tmux('new-session', '-d', '-s', 'agents', '-x', '120', '-y', '40', 'sleep 600');
    try {
      tmux('new-window', '-t', 'agents', 'sleep 601');
      tmux('new-window', '-t', 'agents', 'sleep 602');
      const panes = tmux('list-panes', '-a', '-F', '#{pane_id} #{pane_pid}')
        .split('\n')
        .map((line) => line.split(' ') as [string, string]);
      const { env, keys } = claudeSessions(panes.map(([, pid]) => Number(pid)));
      const active = () => tmux('display-message', '-p', '-t', 'agents', '#{pane_id}');
      expect(active()).toBe(panes[2]?.[0]);
      for (const index of [1, 0]) {
        const result = runCli(['open', keys[index] ?? ''], { ...env, TMUX_TMPDIR: tmuxDir });
        expect(result.code, result.stderr).toBe(0);
        expect(result.stdout).toContain('opened (tmux-pane)');
        await until(`pane ${panes[index]?.[0]} active`, () => (active() === panes[index]?.[0] ? true : null));
      }
      // `next --open` (the global key's action): the session that asked for attention, in its pane.
      const tmuxed = { ...env, TMUX_TMPDIR: tmuxDir };
      expect(runCli(['next', '--open'], tmuxed).stdout).toBe('0 waiting\n');
      expect(runCli(['attention', keys[2] ?? '', 'look here'], tmuxed).code).toBe(0);
      const next = runCli(['next', '--open'], tmuxed);
      expect(next.code, next.stderr).toBe(0);
      expect(next.stdout).toBe(`${keys[2]}: opened (tmux-pane)\n`);
      await until('the asking pane active', () => (active() === panes[2]?.[0] ? true : null));
      expect(runCli(['next', '--open', '--json'], tmuxed)).toMatchObject({ code: 2, stderr: 'lookout: next takes --json or --open, not both\n' });
    } finally {
      spawnSync('tmux', ['kill-server'], { env: tmuxEnv, stdio: 'ignore' });
    }
  }, 60_000);
});

const kittyMissing = ['kitty', 'Xvfb'].filter((tool) => !has(tool));
if (kittyMissing.length > 0) console.log(`kitty focus test skipped: missing ${kittyMissing.join(', ')} (.ci/run installs them)`);

describe.skipIf(kittyMissing.length > 0)('open focuses the kitty window that holds the session (real kitty, remote control on)', () => {
  const display = `:${70 + Math.floor(Math.random() * 9)}`;
  let xvfb: ChildProcess | null = null;
  let kitty: ChildProcess | null = null;
  afterAll(() => {
    kitty?.kill();
    xvfb?.kill();
  });

  it('Claude by its registry pid, Codex by the process holding its rollout: each lands in its own window of three', async () => {
    xvfb = spawn('Xvfb', [display, '-screen', '0', '1280x800x24'], { stdio: 'ignore' });
    await until('the virtual display', () => (existsSync(`/tmp/.X11-unix/X${display.slice(1)}`) ? true : null));
    // A Codex rollout whose running process is the third window's.
    const codexHome = join(base, 'codex-home');
    cpSync(resolve(__dirname, '../../fixtures/codex/long-finish/sessions'), join(codexHome, 'sessions'), { recursive: true });
    const rollout = join(codexHome, 'sessions/2026/11/29/rollout-2026-11-29T12-00-00-019e0000-0000-7000-8000-000000000011.jsonl');
    const socket = join(base, 'kitty.sock');
    const session = join(base, 'kitty-session');
    // A window title with shell and terminal metacharacters: nothing of it reaches an argv.
    writeFileSync(
      session,
      [
        `launch --title "one $(reboot)" sleep 600`,
        'launch --title two sleep 601',
        `launch --title three --env ROLLOUT=${rollout} sh -c 'exec 3<"$ROLLOUT"; exec sleep 602'`,
        '',
      ].join('\n'),
    );
    kitty = spawn('kitty', ['-o', 'allow_remote_control=yes', '--listen-on', `unix:${socket}`, '--session', session], {
      env: { ...process.env, DISPLAY: display, LIBGL_ALWAYS_SOFTWARE: '1' },
      stdio: 'ignore',
    });
    type KittyWindow = { id: number; pid: number; is_focused: boolean };
    const windows = (): KittyWindow[] | null => {
      const listed = spawnSync('kitty', ['@', '--to', `unix:${socket}`, 'ls'], { encoding: 'utf8' });
      if (listed.status !== 0) return null;
      const all = (JSON.parse(listed.stdout) as { tabs: { windows: KittyWindow[] }[] }[]).flatMap((os) => os.tabs.flatMap((tab) => tab.windows));
      return all.length === 3 ? all : null;
    };
    const three = await until('kitty with three windows', windows);
    // The registry names the first two windows' processes; the third holds the rollout itself.
    const claude = claudeSessions(three.slice(0, 2).map((window) => window.pid));
    const homeEnv = { ...claude.env, CODEX_HOME: codexHome, DISPLAY: display };
    await until('the rollout held open', () =>
      runCli(['open', 'codex:019e0000-0000-7000-8000-000000000011', '--print'], homeEnv).stdout.includes('"kind":"focus"') ? true : null,
    );
    const focused = () => windows()?.find((window) => window.is_focused)?.id ?? null;
    for (const [key, window] of [
      [claude.keys[1], three[1]],
      ['codex:019e0000-0000-7000-8000-000000000011', three[2]],
      [claude.keys[0], three[0]],
    ] as const) {
      const plan = JSON.parse(runCli(['open', key ?? '', '--print'], homeEnv).stdout) as { kind: string; terminal: string; steps: { argv: string[] }[] };
      expect(plan).toMatchObject({ kind: 'focus', terminal: 'kitty' });
      expect(plan.steps[0]?.argv).toEqual(['kitty', '@', '--to', `unix:${socket}`, 'focus-window', '--match', `id:${window?.id}`]);
      const result = runCli(['open', key ?? ''], homeEnv);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toContain('focused in kitty');
      await until(`kitty window ${window?.id} focused`, () => (focused() === window?.id ? true : null));
    }
  }, 90_000);
});
