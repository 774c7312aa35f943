// Issue 47 item 5: R72's grace runs from when the prompt could first be seen. The channel's owner
// keeps the end the first showing gave it, so a later evaluation (a slower beat, another process
// reading the requests file) never moves it earlier.
import { describe, expect, it } from 'vitest';
import type { AnswerView } from '../../../src/engine';
import { AnswerBroker } from '../../../src/main/answer/broker';
import type { ClientMessage } from '../../../src/main/answer/protocol';
import type { Socket } from 'node:net';

/** A hook's socket, as far as the broker uses one: lines written, never read here. */
const fakeSocket = { write: () => true, end: () => undefined, destroyed: false } as unknown as Socket;

const draft: Extract<ClientMessage, { type: 'request' }>['draft'] = {
  provider: 'claude',
  sessionId: 'aaaa0000-0000-4000-8000-000000000001',
  agentId: null,
  prompt: 'approval',
  tool: 'Bash',
  text: 'rm -rf build',
  hidden: 0,
  whole: 'a'.repeat(64),
  questions: [],
  agentRequest: null,
};

describe('issue 47 item 5: the grace counts from the first showing', () => {
  it('issue 47 item 5: the first evaluation that shows the prompt fixes where keys may answer it; a key before then is refused', () => {
    const now = { value: 1_000_000 };
    let firstShown: number | null = null;
    let broker: AnswerBroker;
    const viewOf = (): AnswerView | null => {
      const held = broker.requests.find((item) => item.request.closed === null);
      if (held === undefined || firstShown === null) return null;
      // As the engine gives it: the kept end, else this evaluation's now plus the grace.
      return { state: 'open', request: held.request, keysFrom: held.request.keysFrom ?? firstShown + 6000, askedAt: held.request.at };
    };
    broker = new AnswerBroker({ clock: () => now.value, viewOf, movedOn: () => false, onChange: () => undefined, onAnswer: () => undefined });
    broker.message({ type: 'request', token: '0'.repeat(64), pid: 1, draft, serial: false, wait: 60_000 }, fakeSocket);
    const request = broker.requests[0]?.request;
    if (request === undefined) throw new Error('held');
    // Hidden for 5 s (another reading, a row not yet asking), then shown.
    now.value += 5000;
    firstShown = now.value;
    broker.reconcile(10_000);
    expect(broker.requests[0]?.request.keysFrom).toBe(firstShown + 6000);
    // 7 s after the request, 2 s after it could be seen: a key is refused.
    now.value = request.at + 7000;
    const attempt = {
      request: request.id,
      digest: request.digest,
      decision: { behavior: 'allow' as const },
      from: 'popover-key' as const,
      via: 'key' as const,
    };
    expect(broker.answer(attempt).error).toMatch(/a key or command answers it after/);
    now.value = firstShown + 6000;
    expect(broker.answer(attempt).ok).toBe(true);
  });
});
