// A running Lookout's answer channel, as the runtime has it, for code that runs inside an agent
// (opencode's plugin, Pi's extension): every request held is its row's open prompt.
import { mkdtempSync, rmSync } from 'node:fs';
import { afterEach, expect } from 'vitest';
import type { AnswerView } from '../../src/engine';
import type { AnswerRecord } from '../../src/main/answer/broker';
import { AnswerBroker } from '../../src/main/answer/broker';
import { AnswerChannel } from '../../src/main/answer/channel-server';
import { waitFor } from '../wait';

const homes: string[] = [];
const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

export interface Lab {
  home: string;
  broker: AnswerBroker;
  records: AnswerRecord[];
}

/** A channel and broker as the runtime has them (test/main/answer/answer-channel.test.ts); every request is its row's open prompt. */
export async function owner(): Promise<Lab> {
  // A short home: a socket path holds at most 103 bytes.
  const home = mkdtempSync('/tmp/lk-plugin-');
  homes.push(home);
  const records: AnswerRecord[] = [];
  const now = 1_000_000;
  let broker: AnswerBroker;
  const viewOf = (key: string): AnswerView | null => {
    const held = broker.requests.filter((item) => item.key === key && item.request.closed === null).at(-1);
    return held === undefined ? null : { state: 'open', request: held.request, keysFrom: held.request.at + 6000, askedAt: held.request.at };
  };
  broker = new AnswerBroker({ clock: () => now, viewOf, movedOn: () => false, onChange: () => undefined, onAnswer: (record) => records.push(record) });
  const channel = new AnswerChannel(home, { message: (message, socket) => broker.message(message, socket), closed: (socket) => broker.hookGone(socket) });
  expect(await channel.start()).toEqual({ kind: 'owner' });
  stops.push(() => channel.stop());
  return { home, broker, records };
}

export const openRequest = (lab: Lab) => waitFor('the request held', () => lab.broker.requests.find((item) => item.request.closed === null));
