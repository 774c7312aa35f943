// The hook as agents run it (`lookout hook` and the sh shim): hostile input exits 0 silently;
// payloads reach `lookout status --json` as direct observations (issue 6).
import { spoolReaders } from '../../src/providers';
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Row, Snapshot } from '../../src/engine';
import { shimText } from '../../src/main/hooks/shim';
import { shimEntries } from '../../src/main/hooks/installer';
import { CLI, runCli } from '../main/cli-process';
import { FIXTURES, fixtures } from '../providers/fixture-roots';

const base = mkdtempSync(join(tmpdir(), 'lookout-hook-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));
let n = 0;
function home(): { env: Record<string, string>; dir: string; spool: string; shim: string } {
  n += 1;
  const dir = join(base, `case-${n}`);
  mkdirSync(join(dir, 'home'), { recursive: true, mode: 0o700 });
  const shim = join(dir, 'lookout-hook');
  writeFileSync(shim, shimText(join(dir, 'home', 'spool'), shimEntries()));
  chmodSync(shim, 0o755);
  return {
    dir,
    env: { CLAUDE_CONFIG_DIR: join(dir, 'claude'), CODEX_HOME: join(dir, 'codex'), LOOKOUT_HOME: join(dir, 'home'), HOME: dir },
    spool: join(dir, 'home', 'spool'),
    shim,
  };
}

function nodeHook(env: Record<string, string>, args: string[], input: string | Buffer) {
  return spawnSync(process.execPath, [CLI, 'hook', ...args], { env: { PATH: process.env.PATH ?? '', ...env }, input, timeout: 25_000 });
}
function shimHook(shim: string, args: string[], input: string | Buffer) {
  return spawnSync(shim, args, { input, timeout: 25_000 });
}
const lines = (spool: string, provider: string) =>
  existsSync(join(spool, `${provider}.jsonl`))
    ? readFileSync(join(spool, `${provider}.jsonl`), 'utf8')
        .split('\n')
        .filter((line) => line !== '')
    : [];

const HOSTILE: [string, string | Buffer][] = [
  ['empty', ''],
  ['not JSON', 'hello there'],
  ['truncated JSON', '{"session_id":"x","hook_event_name":"Stop"'],
  ['a JSON list', '[1,2,3]'],
  ['binary', Buffer.from([0, 255, 254, 10, 13, 0])],
  ['huge', `{"session_id":"x","pad":"${'a'.repeat(400_000)}"}`],
];

describe('the hook command', () => {
  for (const kind of ['lookout hook', 'sh shim'] as const) {
    it.each(HOSTILE)(`${kind}: %s input exits 0, prints nothing, records nothing`, (_label, input) => {
      const h = home();
      const result = kind === 'lookout hook' ? nodeHook(h.env, ['claude'], input) : shimHook(h.shim, ['claude'], input);
      expect(result.status).toBe(0);
      expect(result.stdout.toString()).toBe('');
      expect(result.stderr.toString()).toBe('');
      expect(lines(h.spool, 'claude')).toEqual([]);
    });

    it(`${kind}: an unwritable spool still exits 0 at once`, () => {
      const h = home();
      writeFileSync(h.spool, 'a file where the spool folder should be');
      const payload = '{"session_id":"x","hook_event_name":"Stop"}';
      const started = Date.now();
      const result = kind === 'lookout hook' ? nodeHook(h.env, ['claude'], payload) : shimHook(h.shim, ['claude'], payload);
      expect(result.status).toBe(0);
      expect(result.stdout.toString() + result.stderr.toString()).toBe('');
      // At once: nothing holds it (its bound allows for a node start-up on a loaded machine).
      expect(Date.now() - started).toBeLessThan(15_000);
    });

    it(`${kind}: a payload becomes one spool line; Codex notify takes its JSON from argv`, () => {
      const h = home();
      const payload = '{\n  "session_id": "s1",\n  "hook_event_name": "Stop"\n}\n';
      const run = (args: string[], input: string) => (kind === 'lookout hook' ? nodeHook(h.env, args, input) : shimHook(h.shim, args, input));
      expect(run(['claude'], payload).status).toBe(0);
      expect(run(['codex-notify', '--ignored', '{"type":"agent-turn-complete","thread-id":"t1"}'], '').status).toBe(0);
      const [claude] = lines(h.spool, 'claude').map((line) => JSON.parse(line));
      expect(claude).toMatchObject({ provider: 'claude', channel: 'hook', payload: { session_id: 's1', hook_event_name: 'Stop' } });
      expect(typeof claude.at).toBe('number');
      expect(lines(h.spool, 'codex').map((line) => JSON.parse(line))).toEqual([
        expect.objectContaining({ provider: 'codex', channel: 'notify', payload: { type: 'agent-turn-complete', 'thread-id': 't1' } }),
      ]);
    });
  }

  it('an unknown provider argument is ignored silently (exit 0)', () => {
    const h = home();
    expect(nodeHook(h.env, ['gemini'], '{"a":1}').status).toBe(0);
    expect(shimHook(h.shim, ['gemini'], '{"a":1}').status).toBe(0);
  });
});

describe('hook payloads as direct evidence (lookout status --json)', () => {
  const NOW = '2026-11-29T12:02:00.000Z';
  const fixtureKey = (provider: 'claude' | 'codex', name: string) => fixtures(provider).find((item) => item.name === name)?.meta.sessionKey ?? '';

  /** Writes spool lines at chosen times (as the hook would have at those instants). */
  function spoolAt(spool: string, provider: 'claude' | 'codex', entries: [string, Record<string, unknown>][]): void {
    mkdirSync(spool, { recursive: true, mode: 0o700 });
    writeFileSync(
      join(spool, `${provider}.jsonl`),
      entries.map(([at, payload]) => `${JSON.stringify({ provider, at: Date.parse(at), precision: 'ms', channel: 'hook', payload })}\n`).join(''),
    );
  }

  function row(env: Record<string, string>, key: string): Row | undefined {
    const result = runCli(['status', '--json', '--now', NOW], env);
    expect(result.code, result.stderr).toBe(0);
    return (JSON.parse(result.stdout) as Snapshot).sessions.find((item) => item.key === key);
  }

  it('a Codex approval prompt (PermissionRequest) is awaiting-approval, direct, from codex.hook', () => {
    const h = home();
    cpSync(join(FIXTURES, 'codex', 'tool-pending'), join(h.dir, 'codex'), { recursive: true });
    const key = fixtureKey('codex', 'tool-pending');
    expect(row(h.env, key)?.observed.reason).toBe('tool-pending');
    const payload = JSON.stringify({
      session_id: key.slice(6),
      hook_event_name: 'PermissionRequest',
      tool_name: 'Bash',
      tool_input: { command: 'npm publish' },
      cwd: '/home/me/app',
    });
    expect(nodeHook(h.env, ['codex'], payload).status).toBe(0);
    expect(row(h.env, key)?.observed).toMatchObject({
      state: 'awaiting-approval',
      reason: 'approval-requested',
      confidence: 'direct',
      source: 'codex.hook',
      detail: 'Bash: npm publish',
    });
  });

  it('a Claude permission prompt while the transcript holds only the prompt is awaiting-approval, direct', () => {
    const h = home();
    cpSync(join(FIXTURES, 'claude', 'working'), join(h.dir, 'claude'), { recursive: true });
    const key = fixtureKey('claude', 'working');
    const payload = JSON.stringify({
      session_id: key.slice(7),
      hook_event_name: 'PermissionRequest',
      tool_name: 'Bash',
      tool_input: { command: 'rm -rf dist' },
    });
    expect(shimHook(h.shim, ['claude'], payload).status).toBe(0);
    expect(row(h.env, key)?.observed).toMatchObject({ state: 'awaiting-approval', confidence: 'direct', source: 'claude.hook' });
    expect(row(h.env, key)?.claim?.kind).toBe('needs-you');
  });

  it.each([
    // The turn began at 12:00:00: a stop at 12:01:50 finishes a long job (R29).
    ['Stop', { hook_event_name: 'Stop' }, { state: 'idle', reason: 'turn-finished', confidence: 'direct' }, 'finished'],
    ['StopFailure', { hook_event_name: 'StopFailure', error: 'rate_limit' }, { state: 'error', reason: 'api-error', detail: 'rate_limit' }, 'failed'],
    ['SessionEnd', { hook_event_name: 'SessionEnd', reason: 'prompt_input_exit' }, { state: 'ended', reason: 'session-end-hook' }, null],
    [
      'Notification idle_prompt (no needs-you)',
      { hook_event_name: 'Notification', notification_type: 'idle_prompt', message: 'Claude is waiting for your input' },
      { state: 'idle', confidence: 'direct' },
      'finished',
    ],
    [
      'PostToolUse (mid-turn: working)',
      { hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command: 'ls' } },
      { state: 'running', reason: 'provider-busy', confidence: 'direct' },
      null,
    ],
  ])('%s', (_label, event, observed, claim) => {
    const h = home();
    cpSync(join(FIXTURES, 'claude', 'working'), join(h.dir, 'claude'), { recursive: true });
    const key = fixtureKey('claude', 'working');
    spoolAt(h.spool, 'claude', [['2026-11-29T12:01:50.000Z', { session_id: key.slice(7), ...event }]]);
    const found = row(h.env, key);
    expect(found?.observed).toMatchObject(observed);
    expect(found?.claim?.kind ?? null).toBe(claim);
  });

  it('R8 a permission request stands until any later event; a newer transcript answer clears it too', () => {
    const h = home();
    cpSync(join(FIXTURES, 'claude', 'working'), join(h.dir, 'claude'), { recursive: true });
    const key = fixtureKey('claude', 'working');
    const id = key.slice(7);
    spoolAt(h.spool, 'claude', [['2026-11-29T12:01:00.000Z', { session_id: id, hook_event_name: 'PermissionRequest', tool_name: 'Bash' }]]);
    expect(row(h.env, key)?.observed.state).toBe('awaiting-approval');
    spoolAt(h.spool, 'claude', [
      ['2026-11-29T12:01:00.000Z', { session_id: id, hook_event_name: 'PermissionRequest', tool_name: 'Bash' }],
      ['2026-11-29T12:01:30.000Z', { session_id: id, hook_event_name: 'PostToolUse', tool_name: 'Bash' }],
    ]);
    expect(row(h.env, key)?.observed.state).toBe('running');
    spoolAt(h.spool, 'claude', [['2026-11-29T12:01:00.000Z', { session_id: id, hook_event_name: 'PermissionRequest', tool_name: 'Bash' }]]);
    const transcript = join(h.dir, 'claude', 'projects', '-home-me-app', `${id}.jsonl`);
    writeFileSync(
      transcript,
      `${readFileSync(transcript, 'utf8')}${JSON.stringify({ type: 'user', sessionId: id, timestamp: '2026-11-29T12:01:40.000Z', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'x', content: 'ok' }] } })}\n`,
    );
    expect(row(h.env, key)?.observed).toMatchObject({ state: 'running', confidence: 'inferred' });
  });

  it('a subagent asking for permission (agent_id) makes the row wait on the child (R11.2)', () => {
    const h = home();
    cpSync(join(FIXTURES, 'claude', 'done-with-live-subagent'), join(h.dir, 'claude'), { recursive: true });
    const key = fixtureKey('claude', 'done-with-live-subagent');
    spoolAt(h.spool, 'claude', [
      [
        '2026-11-29T12:01:50.000Z',
        { session_id: key.slice(7), agent_id: 'a1', hook_event_name: 'PermissionRequest', tool_name: 'Bash', tool_input: { command: 'make' } },
      ],
    ]);
    expect(row(h.env, key)?.observed).toMatchObject({ state: 'awaiting-approval', reason: 'child-waiting' });
  });

  it('a program notification raises an expiring needs-you (§5)', () => {
    const h = home();
    cpSync(join(FIXTURES, 'claude', 'short-finish'), join(h.dir, 'claude'), { recursive: true });
    const key = fixtureKey('claude', 'short-finish');
    spoolAt(h.spool, 'claude', [
      [
        '2026-11-29T12:01:30.000Z',
        { session_id: key.slice(7), hook_event_name: 'Notification', notification_type: 'agent_needs_input', message: 'Claude needs your input' },
      ],
    ]);
    expect(row(h.env, key)?.claim).toMatchObject({ kind: 'needs-you', detail: 'Claude needs your input', expiresAt: '2026-11-29T12:03:30.000Z' });
  });
});

describe('the spool stays bounded', () => {
  it('past 8 MB the hook rotates the spool to .1, and the reader still reads both', async () => {
    const h = home();
    mkdirSync(h.spool, { recursive: true, mode: 0o700 });
    const old = JSON.stringify({
      provider: 'claude',
      at: Date.parse('2026-11-29T12:00:00Z'),
      precision: 'ms',
      channel: 'hook',
      payload: { session_id: 'older', hook_event_name: 'Stop' },
    });
    writeFileSync(join(h.spool, 'claude.jsonl'), `${old}\n`.repeat(Math.ceil((8 * 1024 * 1024 + 10) / (old.length + 1))));
    for (const run of [(input: string) => shimHook(h.shim, ['claude'], input), (input: string) => nodeHook(h.env, ['claude'], input)]) {
      expect(run('{"session_id":"newer","hook_event_name":"PermissionRequest","tool_name":"Bash"}').status).toBe(0);
    }
    const { statSync } = await import('node:fs');
    expect(statSync(join(h.spool, 'claude.jsonl.1')).size).toBeGreaterThan(8 * 1024 * 1024);
    expect(lines(h.spool, 'claude')).toHaveLength(2);
    const { HookSpool } = await import('../../src/providers/hooks/spool-reader');
    const sessions = await new HookSpool(h.spool, spoolReaders(['claude', 'codex'])).sync();
    expect(sessions.get('claude:older')?.last?.event).toBe('stop');
    expect(sessions.get('claude:newer')?.last?.event).toBe('permission-request');
  });
});

describe('concurrent hooks', () => {
  it('twenty hooks at once, each with a 20 KB payload, leave twenty whole lines', async () => {
    const h = home();
    const { spawn } = await import('node:child_process');
    const runs = Array.from(
      { length: 20 },
      (_, index) =>
        new Promise<number | null>((done) => {
          const child = spawn(h.shim, ['claude']);
          child.once('exit', done);
          child.stdin.end(JSON.stringify({ session_id: `s${index}`, hook_event_name: 'PostToolUse', tool_response: 'x'.repeat(20_000) }));
        }),
    );
    expect(await Promise.all(runs)).toEqual(Array(20).fill(0));
    const written = lines(h.spool, 'claude');
    expect(written).toHaveLength(20);
    expect(written.map((line) => (JSON.parse(line) as { payload: { session_id: string } }).payload.session_id).sort()).toEqual(
      Array.from({ length: 20 }, (_, index) => `s${index}`).sort(),
    );
  });
});
