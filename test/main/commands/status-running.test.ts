// Issue 51: `lookout status` asks the running Lookout for the rows it shows (one round trip over
// its private channel) and says so (`from`); `--cold`, `--now`, no Lookout, or one that does not
// answer: the files, as before.
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, appendFileSync, existsSync } from 'node:fs';
import type { Socket } from 'node:net';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, runCliAsync } from '../cli-process';
import { writePiSession } from '../pi-session';
import { WatchProcess } from '../watch-process';
import { waitFor } from '../../wait';

// A short home: a socket path holds at most 103 bytes.
const base = mkdtempSync('/tmp/lk-status-');
const stops: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const stop of stops) await stop();
  rmSync(base, { recursive: true, force: true });
});

const SESSION = '01a244aa-0000-7000-8000-0000000000a1';
/** A session last active three days ago: historical, shown only with --all. */
const OLD = '01a244aa-0000-7000-8000-0000000000b2';

/** `ago`: when the recent session began (its last record 2 s later). */
function home(name: string, ago = 60_000): Record<string, string> {
  const root = join(base, name);
  const project = join(root, 'project');
  const sessions = join(root, '.pi', 'agent', 'sessions', '--project--');
  mkdirSync(project, { recursive: true });
  mkdirSync(sessions, { recursive: true });
  writePiSession(sessions, SESSION, project, ago);
  writePiSession(sessions, OLD, project, 3 * 24 * 3_600_000);
  return { HOME: root, LOOKOUT_HOME: join(root, 'lk'), XDG_CONFIG_HOME: join(root, '.config'), XDG_DATA_HOME: join(root, '.local', 'share') };
}

interface Status {
  from: string;
  sessions: { key: string; title: string | null; observed: { state: string; reason: string } }[];
}
const status = (env: Record<string, string>, ...args: string[]): Status => {
  const result = runCli(['status', '--json', ...args], env);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as Status;
};
/** `status` while this process serves the channel itself. */
const statusAsync = async (env: Record<string, string>, ...args: string[]): Promise<Status> => {
  const result = await runCliAsync(['status', '--json', ...args], env);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as Status;
};
const rows = (snapshot: Status) => snapshot.sessions.map((row) => [row.key, row.observed.state, row.observed.reason]);

describe('status from the running Lookout (issue 51)', () => {
  it('with `lookout watch` running, status (and next, and completion) gives its rows and says "from": "running"; the same rows as the files give (--cold); a change it saw shows at once; stopped, the files again', async () => {
    const env = home('running');
    expect(status(env).from).toBe('files');
    const watch = new WatchProcess([], env);
    stops.push(async () => (watch.child.exitCode === null ? watch.stop() : undefined));
    await watch.until((snapshot) => snapshot.sessions.some((row) => row.key === `pi:${SESSION}`));
    const owner = join(env.LOOKOUT_HOME ?? '', 'run', 'answer.pid');
    await waitFor('watch owning the channel', () => (existsSync(owner) && readFileSync(owner, 'utf8').trim() === String(watch.child.pid) ? true : undefined));
    const live = status(env);
    expect(live.from).toBe('running');
    const cold = status(env, '--cold');
    expect(cold.from).toBe('files');
    expect(rows(live)).toEqual(rows(cold));
    expect(rows(live)).toEqual([[`pi:${SESSION}`, 'idle', 'turn-finished']]);
    // A year of history stays with the running Lookout unless --all asks for it.
    const all = status(env, '--all');
    expect(all.from).toBe('running');
    expect(rows(all)).toEqual(rows(status(env, '--all', '--cold')));
    expect(all.sessions.map((row) => row.key).sort()).toEqual([`pi:${OLD}`, `pi:${SESSION}`].sort());
    // A name given (/name): the running Lookout sees it, and status says what it shows.
    const file = join(env.HOME ?? '', '.pi', 'agent', 'sessions', '--project--', `2026-12-05T06-00-00-000Z_${SESSION}.jsonl`);
    appendFileSync(file, `${JSON.stringify({ type: 'session_info', id: 'e3', parentId: 'e2', timestamp: new Date().toISOString(), name: 'Badge colours' })}\n`);
    await watch.until((snapshot) => snapshot.sessions.some((row) => row.title === 'Badge colours'));
    expect(status(env)).toMatchObject({ from: 'running', sessions: [{ key: `pi:${SESSION}`, title: 'Badge colours' }] });
    // `next` and the shells' completion read the same rows.
    const next = runCli(['next', '--json'], env);
    expect(JSON.parse(next.stdout)).toMatchObject({ from: 'running' });
    expect(JSON.parse(runCli(['next', '--json', '--cold'], env).stdout)).toMatchObject({ from: 'files' });
    expect(runCli(['__sessions'], env).stdout.split('\n').sort()).toEqual(['', `${OLD}\tmake the badge`, `${SESSION}\tBadge colours`].sort());
    // Another instant is the files' to say.
    expect(status(env, '--now', new Date().toISOString()).from).toBe('files');
    await watch.stop();
    expect(status(env)).toMatchObject({ from: 'files', sessions: [{ key: `pi:${SESSION}` }] });
  });

  it('the table the running Lookout prints is the one the files give, laid out for this terminal (COLUMNS) and without colour in a pipe', async () => {
    // An age shown to the minute (1h 30m), half a minute from its next step: the two commands, a
    // second or two apart on a loaded machine, print the same age (at 58 s they printed 58s and 59s).
    const env: Record<string, string> = { ...home('table', 90 * 60_000 + 32_000), COLUMNS: '72' };
    const watch = new WatchProcess([], env);
    stops.push(async () => (watch.child.exitCode === null ? watch.stop() : undefined));
    await watch.until((snapshot) => snapshot.sessions.some((row) => row.key === `pi:${SESSION}`));
    const owner = join(env.LOOKOUT_HOME ?? '', 'run', 'answer.pid');
    await waitFor('watch owning the channel', () => (existsSync(owner) && readFileSync(owner, 'utf8').trim() === String(watch.child.pid) ? true : undefined));
    for (const args of [[], ['--all'], ['--wide']]) {
      const live = runCli(['status', ...args], env);
      const cold = runCli(['status', '--cold', ...args], env);
      expect(live.code, live.stderr).toBe(0);
      expect(live.stdout).toContain('1h 30m');
      expect(live.stdout).toBe(cold.stdout);
      expect(live.stdout).not.toContain('\u001b');
    }
    // The historical row only with --all.
    const lines = (...args: string[]) => runCli(['status', ...args], env).stdout.split('\n').length;
    expect(lines('--all')).toBeGreaterThan(lines());
    await watch.stop();
  });

  it('a channel that takes the question and never answers: status reads the files, and says so, having asked once', async () => {
    const env = home('silent');
    const { heard } = await fakeOwner(env, () => undefined);
    expect(await statusAsync(env)).toMatchObject({ from: 'files', sessions: [{ key: `pi:${SESSION}` }] });
    expect(heard.map((message) => message.type)).toEqual(['status']);
  });

  it('a running Lookout too old to print a status (it refuses the question): status asks it for its rows instead, and says "from": "running"', async () => {
    const env = home('older');
    const rowsOnFile = JSON.parse(runCli(['status', '--json', '--all', '--cold'], env).stdout) as Record<string, unknown>;
    const { from: _from, ...snapshot } = rowsOnFile;
    const { heard } = await fakeOwner(env, (message, socket) => {
      socket.end(
        message.type === 'snapshot'
          ? `${JSON.stringify({ type: 'snapshot', snapshot })}\n`
          : `${JSON.stringify({ type: 'result', ok: false, error: 'not a message Lookout understands' })}\n`,
      );
    });
    const live = await statusAsync(env, '--all');
    expect(live.from).toBe('running');
    expect(rows(live)).toEqual(rows(rowsOnFile as unknown as Status));
    expect(heard.map((message) => message.type)).toEqual(['status', 'snapshot']);
  });

  it('a reply printed as it comes: a slow one that keeps coming is printed whole; one cut off mid-way exits 1 saying so, and nothing else is printed after it', async () => {
    const env = home('streams');
    const body = `${JSON.stringify({ from: 'running', sessions: [] })}\n`;
    const pieces = [body.slice(0, 10), body.slice(10, 20), body.slice(20)];
    let mode: 'slow' | 'cut' = 'slow';
    await fakeOwner(env, (_message, socket) => {
      socket.write(`${JSON.stringify({ type: 'status', bytes: Buffer.byteLength(body) })}\n`);
      if (mode === 'cut') {
        socket.end(pieces[0] ?? '');
        return;
      }
      // Each piece within the 1.5 s bound of the last, the whole over it.
      pieces.forEach((piece, index) => {
        setTimeout(() => (index === pieces.length - 1 ? socket.end(piece) : socket.write(piece)), (index + 1) * 700);
      });
    });
    const slow = await runCliAsync(['status', '--json'], env);
    expect(slow.code, slow.stderr).toBe(0);
    expect(slow.stdout).toBe(body);
    mode = 'cut';
    const cut = await runCliAsync(['status', '--json'], env);
    expect(cut.code).toBe(1);
    expect(cut.stdout).toBe(pieces[0]);
    expect(cut.stderr).toContain('stopped answering mid-reply');
  });
});

/** A channel of the test's own in the home: it hears each message and answers as `reply` says (or never). */
async function fakeOwner(env: Record<string, string>, reply: (message: { type: string }, socket: Socket) => void): Promise<{ heard: { type: string }[] }> {
  const run = join(env.LOOKOUT_HOME ?? '', 'run');
  mkdirSync(run, { recursive: true, mode: 0o700 });
  chmodSync(env.LOOKOUT_HOME ?? '', 0o700);
  writeFileSync(join(run, 'answer.token'), 'a'.repeat(64), { mode: 0o600 });
  const heard: { type: string }[] = [];
  // It takes each connection; stopped, it lets every one go.
  const taken = new Set<Socket>();
  const server = createServer((socket) => {
    taken.add(socket);
    let pending = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      pending += chunk;
      const newline = pending.indexOf('\n');
      if (newline === -1) return;
      const message = JSON.parse(pending.slice(0, newline)) as { type: string };
      heard.push(message);
      reply(message, socket);
    });
  });
  await new Promise<void>((resolve) => server.listen(join(run, 'answer.sock'), resolve));
  stops.push(
    () =>
      new Promise((resolve) => {
        server.close(resolve);
        for (const socket of taken) socket.destroy();
      }),
  );
  return { heard };
}
