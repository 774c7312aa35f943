// Guards of the answer room that no other test held (issue 48): the broker's settle time and the
// requests file's dead-owner check. Each test fails when its guard is taken out.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AnswerBroker, type HeldRequest, SETTLE_MS } from '../../../src/main/answer/broker';
import type { ClientMessage } from '../../../src/main/answer/protocol';
import { requestsPath } from '../../../src/main/answer/paths';
import { RequestsReader, writeRequests } from '../../../src/main/answer/requests-file';

/** A hook's socket, as far as the broker uses one: lines written, never read here. */
const fakeSocket = { write: () => true, end: () => undefined, destroyed: false } as unknown as Socket;

const draft: Extract<ClientMessage, { type: 'request' }>['draft'] = {
  provider: 'claude',
  sessionId: 'aaaa0000-0000-4000-8000-000000000002',
  agentId: null,
  prompt: 'approval',
  tool: 'Bash',
  text: 'npm publish',
  hidden: 0,
  whole: 'b'.repeat(64),
  questions: [],
  agentRequest: null,
};

function heldBroker(now: { value: number }): AnswerBroker {
  // Never shown by the row, and the session already moved on: only the settle time holds it.
  const broker = new AnswerBroker({ clock: () => now.value, viewOf: () => null, movedOn: () => true, onChange: () => undefined, onAnswer: () => undefined });
  broker.message({ type: 'request', token: '0'.repeat(64), pid: 1, draft, serial: false, wait: 60_000 }, fakeSocket);
  return broker;
}

describe('the answer broker settles a request before letting it go', () => {
  it('a request the row does not show yet is not let go as answered elsewhere before SETTLE_MS, and is at SETTLE_MS', () => {
    const now = { value: 2_000_000 };
    const broker = heldBroker(now);
    now.value += SETTLE_MS - 1;
    broker.reconcile(10_000);
    expect(broker.requests[0]?.request.closed).toBeNull();
    now.value += 1;
    broker.reconcile(10_000);
    expect(broker.requests[0]?.request.closed?.how).toBe('elsewhere');
  });
});

describe('the requests file is read only while its owner runs', () => {
  const homes: string[] = [];
  afterEach(() => {
    for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
  });

  function written(owner: number): { home: string; reader: RequestsReader } {
    const home = mkdtempSync(join(tmpdir(), 'lookout-requests-'));
    homes.push(home);
    const now = { value: 3_000_000 };
    const held: HeldRequest[] = [...heldBroker(now).requests];
    writeRequests(home, held);
    // The same file as another process would have written it: that process its owner.
    const file = requestsPath(home);
    const text = JSON.parse(readFileSync(file, 'utf8')) as { owner: number };
    writeFileSync(file, JSON.stringify({ ...text, owner }));
    return { home, reader: new RequestsReader(home) };
  }

  it('a requests file whose owner is alive shows its requests; once the owner is gone, nothing it held waits', async () => {
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const pid = child.pid ?? 0;
    const { reader } = written(pid);
    expect((await reader.read()).size).toBe(1);
    child.kill();
    await exited;
    // The same file, unchanged: its owner's death alone empties it.
    expect((await reader.read()).size).toBe(0);
  });

  it('a requests file written by a process that is gone is not trusted', async () => {
    const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
    await new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const { reader } = written(child.pid ?? 0);
    expect((await reader.read()).size).toBe(0);
    // The very same file read by its live owner's pid shows the request: it is the owner, not the file, refused.
    const live = written(process.pid);
    expect((await live.reader.read()).size).toBe(1);
  });
});
