// The answer channel's security and failure modes (issue 23): only this user's processes with the
// token reach it; an answer is bound to its request and digest, once; the hook fails open.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync, existsSync, readFileSync, chmodSync } from 'node:fs';
import { createServer, createConnection } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AnswerView } from '../../../src/engine';
import { findAnswerHook } from '../../../src/providers';
import type { AnswerRecord } from '../../../src/main/answer/broker';
import { AnswerBroker } from '../../../src/main/answer/broker';
import { AnswerChannel } from '../../../src/main/answer/channel-server';
import { askLookout } from '../../../src/main/answer/hook-client';
import { sendControl } from '../../../src/main/answer/control-client';
import { ownerPath, runFolder, socketPath, tokenPath } from '../../../src/main/answer/paths';
import { waitFor } from '../../wait';

const claudeHook = findAnswerHook('claude-answer')?.hook;
if (claudeHook === undefined) throw new Error("the registry has Claude Code's answering hook");
const payload = {
  hook_event_name: 'PermissionRequest',
  session_id: 'aaaa0000-0000-4000-8000-000000000001',
  cwd: '/work',
  tool_name: 'Bash',
  tool_input: { command: 'rm -rf build' },
};
const ALLOW = '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}\n';

const homes: string[] = [];
const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

/** A short home (a socket path holds at most 103 bytes). */
function home(): string {
  const path = mkdtempSync('/tmp/lk-answer-');
  homes.push(path);
  return path;
}

interface Owner {
  home: string;
  broker: AnswerBroker;
  records: AnswerRecord[];
  now: { value: number };
}

/** A channel and broker as the runtime has them; every request shows as its row's open prompt, keys from +6 s. */
async function owner(path = home(), row: { shown: boolean; movedOn: boolean } = { shown: true, movedOn: false }): Promise<Owner> {
  const now = { value: 1_000_000 };
  const records: AnswerRecord[] = [];
  let broker: AnswerBroker;
  const viewOf = (key: string): AnswerView | null => {
    const held = broker.requests.filter((item) => item.key === key && item.request.closed === null).at(-1);
    return held === undefined || !row.shown ? null : { state: 'open', request: held.request, keysFrom: held.request.at + 6000, askedAt: held.request.at };
  };
  broker = new AnswerBroker({
    clock: () => now.value,
    viewOf,
    movedOn: () => row.movedOn,
    onChange: () => undefined,
    onAnswer: (record) => records.push(record),
  });
  const channel = new AnswerChannel(path, { message: (message, socket) => broker.message(message, socket), closed: (socket) => broker.hookGone(socket) });
  expect(await channel.start()).toEqual({ kind: 'owner' });
  stops.push(() => channel.stop());
  return { home: path, broker, records, now };
}

const openRequest = async (lab: Owner) => waitFor('the request held', () => lab.broker.requests.find((item) => item.request.closed === null));

describe('the answer channel (issue 23)', () => {
  it("R70 a hook brings its prompt and prints the agent's allow JSON when answered", async () => {
    const lab = await owner();
    const output = askLookout(lab.home, claudeHook, payload, 30_000);
    const held = await openRequest(lab);
    expect(held.request).toMatchObject({ tool: 'Bash', text: 'rm -rf build', prompt: 'approval' });
    lab.now.value += 7000;
    expect(
      await sendControl(lab.home, {
        type: 'answer',
        request: held.request.id,
        digest: held.request.digest,
        decision: { behavior: 'allow' },
        from: 'cli',
        via: 'command',
      }),
    ).toEqual({ ok: true });
    expect(await output).toBe(ALLOW);
    expect(lab.records[0]).toMatchObject({ answer: 'allow', from: 'cli', shown: 'rm -rf build', tool: 'Bash' });
  });

  it('R71 a replayed answer is refused; so is one for a changed input (another digest)', async () => {
    const lab = await owner();
    void askLookout(lab.home, claudeHook, payload, 30_000);
    const held = await openRequest(lab);
    lab.now.value += 7000;
    const changed = await sendControl(lab.home, {
      type: 'answer',
      request: held.request.id,
      digest: 'f'.repeat(64),
      decision: { behavior: 'allow' },
      from: 'cli',
      via: 'command',
    });
    expect(changed).toEqual({ ok: false, error: 'the prompt changed since it was shown; nothing was sent' });
    const answer = {
      type: 'answer' as const,
      request: held.request.id,
      digest: held.request.digest,
      decision: { behavior: 'deny' as const, message: 'no' },
      from: 'cli' as const,
      via: 'command' as const,
    };
    expect((await sendControl(lab.home, answer)).ok).toBe(true);
    expect(await sendControl(lab.home, answer)).toEqual({ ok: false, error: 'this prompt was already answered from Lookout' });
  });

  it('R72 a key or command within answerGrace is refused; a click on the card is taken', async () => {
    const lab = await owner();
    const output = askLookout(lab.home, claudeHook, payload, 30_000);
    const held = await openRequest(lab);
    const attempt = { request: held.request.id, digest: held.request.digest, decision: { behavior: 'allow' as const }, from: 'popover-key' as const };
    expect(lab.broker.answer({ ...attempt, via: 'key' }).error).toMatch(/a key or command answers it after 6 s/);
    expect(lab.broker.answer({ ...attempt, via: 'command' }).ok).toBe(false);
    expect(lab.broker.answer({ ...attempt, from: 'popover', via: 'click' })).toEqual({ type: 'result', ok: true });
    expect(await output).toBe(ALLOW);
  });

  it('R71 a question takes its options, never a bare allow; a label that is not an option is refused', async () => {
    const lab = await owner();
    const question = {
      ...payload,
      tool_name: 'AskUserQuestion',
      tool_input: {
        questions: [
          {
            question: 'Which colour?',
            header: 'Lab',
            multiSelect: false,
            options: [
              { label: 'Red', description: 'r' },
              { label: 'Blue', description: 'b' },
            ],
          },
        ],
      },
    };
    const output = askLookout(lab.home, claudeHook, question, 30_000);
    const held = await openRequest(lab);
    const base = { request: held.request.id, digest: held.request.digest, from: 'popover' as const, via: 'click' as const };
    expect(lab.broker.answer({ ...base, decision: { behavior: 'allow' } }).error).toMatch(/never a bare allow/);
    expect(lab.broker.answer({ ...base, decision: { behavior: 'answers', answers: [['Green']] } }).error).toMatch(/"Green" is not an option/);
    expect(lab.broker.answer({ ...base, decision: { behavior: 'answers', answers: [['Red', 'Blue']] } }).error).toMatch(/takes one option/);
    expect(lab.broker.answer({ ...base, decision: { behavior: 'answers', answers: [['Blue']] } }).ok).toBe(true);
    const printed = JSON.parse(await output) as {
      hookSpecificOutput: { decision: { behavior: string; updatedInput: { answers: Record<string, string>; questions: unknown[] } } };
    };
    expect(printed.hookSpecificOutput.decision).toMatchObject({ behavior: 'allow', updatedInput: { answers: { 'Which colour?': 'Blue' } } });
    expect(printed.hookSpecificOutput.decision.updatedInput.questions).toEqual(question.tool_input.questions);
  });

  it('R74 "answer in terminal" lets the hook go with no output', async () => {
    const lab = await owner();
    const output = askLookout(lab.home, claudeHook, payload, 30_000);
    const held = await openRequest(lab);
    expect(await sendControl(lab.home, { type: 'release', request: held.request.id, from: 'cli' })).toEqual({ ok: true });
    expect(await output).toBe('');
    expect(lab.records[0]).toMatchObject({ answer: 'released', from: 'cli' });
  });

  it('R73 a request the row does not show is let go as answered elsewhere only once the session moved on', async () => {
    const row = { shown: false, movedOn: false };
    const lab = await owner(home(), row);
    const output = askLookout(lab.home, claudeHook, payload, 30_000);
    await openRequest(lab);
    // Not shown yet (the spool not read, a slow machine): the hook keeps waiting.
    lab.now.value += 20_000;
    lab.broker.reconcile(10_000);
    expect(lab.broker.requests[0]?.request.closed).toBeNull();
    row.movedOn = true;
    lab.broker.reconcile(10_000);
    expect(await output).toBe('');
    expect(lab.records[0]).toMatchObject({ answer: 'elsewhere', from: 'terminal' });
  });

  it('R73 a plugin told of the reply before Lookout\'s "pending" reached it: "resolved" on its connection lets that request go as answered elsewhere, never expired', async () => {
    const lab = await owner();
    const draft = claudeHook.read(payload);
    const token = readFileSync(tokenPath(lab.home), 'utf8').trim();
    // As opencode's plugin writes them: its request, then at once the reply it saw, then its end.
    const socket = createConnection(socketPath(lab.home), () => {
      socket.write(`${JSON.stringify({ type: 'request', token, pid: process.pid, draft, serial: false, wait: 30_000 })}\n`);
      socket.end(`${JSON.stringify({ type: 'resolved', token })}\n`);
    });
    socket.on('data', () => undefined);
    await waitFor('the request let go', () => lab.records[0]);
    expect(lab.records).toHaveLength(1);
    expect(lab.records[0]).toMatchObject({ answer: 'elsewhere', from: 'agent' });
  });

  it('R74 a request past its deadline is let go (expired), never answered', async () => {
    const lab = await owner();
    const output = askLookout(lab.home, claudeHook, payload, 30_000);
    const held = await openRequest(lab);
    lab.now.value = held.request.deadline;
    lab.broker.reconcile(10_000);
    expect(await output).toBe('');
    expect(lab.records[0]).toMatchObject({ answer: 'expired' });
  });

  it('refuses a wrong token, and a message it does not understand', async () => {
    const lab = await owner();
    const reply = (line: string) =>
      new Promise<string>((done) => {
        const socket = createConnection(socketPath(lab.home), () => socket.write(line));
        let text = '';
        socket.on('data', (chunk) => (text += chunk.toString()));
        socket.on('close', () => done(text));
      });
    expect(
      await reply(`${JSON.stringify({ type: 'release', token: '0'.repeat(64), pid: process.pid, request: `req_${'1'.repeat(24)}`, from: 'cli' })}\n`),
    ).toContain('wrong token');
    expect(await reply('{"type":"answer"}\n')).toContain('not a message Lookout understands');
  });

  it('keeps its files private: folder 0700, socket and token 0600', async () => {
    const lab = await owner();
    const mode = (path: string) => spawnSync('stat', ['-c', '%a', path], { encoding: 'utf8' }).stdout.trim();
    expect(mode(runFolder(lab.home))).toBe('700');
    expect(mode(socketPath(lab.home))).toBe('600');
    expect(mode(tokenPath(lab.home))).toBe('600');
    expect(readFileSync(ownerPath(lab.home), 'utf8').trim()).toBe(String(process.pid));
  });

  it.skipIf(process.getuid?.() !== 0)('another user cannot reach it: as nobody, the socket and the token are out of reach, and nothing arrives', async () => {
    const lab = await owner();
    // The home itself open to all: only Lookout's run folder (0700) and its files (0600) stand in the way.
    chmodSync(lab.home, 0o755);
    // What any hook client would try first, run as another user (nobody): connect, read the token.
    const probe = `const net = require('node:net'); const fs = require('node:fs');
      let token = 'read'; try { fs.readFileSync(${JSON.stringify(tokenPath(lab.home))}); } catch (e) { token = e.code; }
      const s = net.createConnection(${JSON.stringify(socketPath(lab.home))});
      s.on('connect', () => { console.log(JSON.stringify({ connect: 'connected', token })); s.destroy(); });
      s.on('error', (e) => console.log(JSON.stringify({ connect: e.code, token })));`;
    const child = spawn(process.execPath, ['-e', probe], { uid: 65534, gid: 65534, cwd: '/', stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    // A Node that nobody may run (installed under a private home) is said, not waited for.
    const code = await new Promise<number | string | null>((done) => {
      child.once('error', (error) => done(`${process.execPath} could not run as nobody: ${error.message}`));
      child.once('close', (status) => done(status));
    });
    expect(code).toBe(0);
    expect(JSON.parse(out)).toEqual({ connect: 'EACCES', token: 'EACCES' });
    expect(lab.broker.requests).toEqual([]);
  });

  it("a symlink at the socket's path: Lookout does not listen there, and no hook connects through it", async () => {
    const path = home();
    mkdirSync(runFolder(path), { recursive: true, mode: 0o700 });
    const elsewhere = join(path, 'elsewhere.sock');
    const trap = createServer(() => undefined).listen(elsewhere);
    stops.push(() => new Promise((done) => trap.close(() => done())));
    symlinkSync(elsewhere, socketPath(path));
    const channel = new AnswerChannel(path, { message: () => undefined, closed: () => undefined });
    const state = await channel.start();
    expect(state.kind).toBe('off');
    expect(state.kind === 'off' ? state.why : '').toMatch(/symlink/);
    writeFileSync(tokenPath(path), `${'a'.repeat(64)}\n`, { mode: 0o600 });
    expect(await askLookout(path, claudeHook, payload, 5_000)).toBe('');
  });

  it('a stale socket left by a crashed Lookout is taken over; a live one is left to its owner', async () => {
    const path = home();
    mkdirSync(runFolder(path), { recursive: true, mode: 0o700 });
    // A process that listened there and was killed: its socket file stays, nobody answers.
    const crashed = spawn(process.execPath, ['-e', `require('node:net').createServer().listen(${JSON.stringify(socketPath(path))}, () => console.log('up'))`], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    await new Promise<void>((done) => crashed.stdout.once('data', () => done()));
    crashed.kill('SIGKILL');
    await new Promise<void>((done) => crashed.once('exit', () => done()));
    expect(existsSync(socketPath(path))).toBe(true);
    const lab = await owner(path);
    const second = new AnswerChannel(path, { message: () => undefined, closed: () => undefined });
    expect(await second.start()).toEqual({ kind: 'elsewhere' });
    const output = askLookout(lab.home, claudeHook, payload, 30_000);
    await openRequest(lab);
    lab.broker.releaseAll();
    // Audited as let go while the owner still holds its home, not later when the hook's connection drops.
    expect(lab.records.map((record) => [record.answer, record.from])).toEqual([['released', null]]);
    expect(await output).toBe('');
    expect(lab.records).toHaveLength(1);
  });

  it('R74 the hook fails open: no Lookout, nobody listening, a malformed reply, its own time limit', async () => {
    const path = home();
    expect(await askLookout(path, claudeHook, payload, 5_000)).toBe('');
    mkdirSync(runFolder(path), { recursive: true, mode: 0o700 });
    writeFileSync(tokenPath(path), `${'a'.repeat(64)}\n`, { mode: 0o600 });
    // A server that answers nonsense, then one that never answers.
    for (const answer of ['this is not JSON\n', null]) {
      rmSync(socketPath(path), { force: true });
      const server = createServer((socket) => socket.on('data', () => (answer === null ? undefined : socket.write(answer)))).listen(socketPath(path));
      await new Promise<void>((done) => server.once('listening', () => done()));
      chmodSync(socketPath(path), 0o600);
      expect(await askLookout(path, claudeHook, payload, 500)).toBe('');
      await new Promise<void>((done) => server.close(() => done()));
    }
    // A token file open to others is not read.
    chmodSync(tokenPath(path), 0o644);
    expect(await askLookout(path, claudeHook, payload, 500)).toBe('');
  });
});
