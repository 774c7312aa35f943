// Cline CLI sessions hosted by its hub daemon, which outlives every terminal: whether a terminal is
// still attached is read from the hub's own event log, never from the hub's pid (R7).
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Liveness } from '../../src/engine';
import { ClineProvider } from '../../src/providers/cline/provider';
import { ClineHome, reply, rowsOf, user } from './cline-home';

/** This test's own process stands for a running hub, its discovery file written now; no process has GONE. */
const HUB = process.pid;
const HUB_START = Date.now();
const T = HUB_START + 60_000;
const GONE = 2_147_483_646;
const homes: ClineHome[] = [];

afterEach(() => {
  for (const made of homes.splice(0)) {
    made.close();
    rmSync(join(made.root, '..'), { recursive: true, force: true });
  }
});

/** A finished turn in a session the hub hosts, the hub's discovery file written at `hubStart`. */
function hosted(status = 'idle', hubPid = HUB, hubStart = HUB_START): ClineHome {
  const made = new ClineHome().hub(hubPid, hubStart);
  homes.push(made);
  const turn =
    status === 'running'
      ? [user(T - 9_000, 'first'), reply(T - 8_000, 'Done.'), user(T - 1_000, 'again')]
      : [user(T - 9_000, 'first'), reply(T - 8_000, 'Done.')];
  return made.session({ id: 's1', pid: hubPid, status, updatedAt: T, messages: turn });
}

async function livenessOf(made: ClineHome, now = T + 5_000): Promise<Liveness | undefined> {
  const source = new ClineProvider(made.root, () => 'alive');
  const [evidence] = await source.sync(now);
  source.dispose();
  return evidence?.liveness;
}

describe('Cline CLI: sessions hosted by the hub', () => {
  it("R7 a terminal attached: alive (the hub's pid), and the status speaks (idle, turn finished)", async () => {
    const made = hosted().attached('session.created', T - 10_000, 's1', ['core-tui-1']);
    expect(await livenessOf(made)).toEqual({ kind: 'alive', pid: HUB });
    const [row] = await rowsOf(made.root, T + 5_000);
    expect([row?.observed.state, row?.observed.reason]).toEqual(['idle', 'turn-finished']);
  });

  it('R7 the terminal quit (Ctrl+C: detached, no participant left): ended, though the hub runs and the status stays idle', async () => {
    const made = hosted()
      .attached('session.created', T - 10_000, 's1', ['core-tui-1'])
      .attached('session.detached', T + 1_000, 's1', [])
      .hubEvent('hub.client.disconnected', T + 1_004, null, { clientId: 'core-tui-1' });
    const [row] = await rowsOf(made.root, T + 5_000);
    expect([row?.observed.state, row?.observed.reason, row?.observed.source]).toEqual(['ended', 'process-gone', 'cline.hub-events']);
    expect(row?.historical).toBe(false);
  });

  it('R7 the terminal killed (its connection closed, never detached): ended once its turn is over', async () => {
    const made = hosted()
      .attached('session.created', T - 10_000, 's1', ['core-tui-1'])
      .hubEvent('hub.client.disconnected', T + 1_000, null, { clientId: 'core-tui-1' });
    expect(await livenessOf(made)).toMatchObject({ kind: 'dead', source: 'cline.hub-events', pid: null, at: T + 1_000 });
    // Another terminal's connection closing says nothing of this one.
    const other = hosted()
      .attached('session.created', T - 10_000, 's1', ['core-tui-1'])
      .hubEvent('hub.client.disconnected', T + 1_000, null, { clientId: 'core-tui-2' });
    expect(await livenessOf(other)).toEqual({ kind: 'alive', pid: HUB });
  });

  it('R7 a turn the hub still runs with no terminal attached reads running: the work goes on', async () => {
    const made = hosted('running')
      .attached('session.created', T - 10_000, 's1', ['core-tui-1'])
      .hubEvent('hub.client.disconnected', T - 500, null, { clientId: 'core-tui-1' });
    const [row] = await rowsOf(made.root, T + 5_000);
    expect([row?.observed.state, row?.observed.reason]).toEqual(['running', 'provider-busy']);
  });

  it('R7 the hub gone: every session it hosted reads ended', async () => {
    const made = hosted('idle', GONE).attached('session.created', T - 10_000, 's1', ['core-tui-1']);
    expect(await livenessOf(made)).toMatchObject({ kind: 'dead', source: 'cline.hub-events', pid: GONE });
  });

  it('R7 a hub restarted since the session was last heard of: the hub that ran it is gone', async () => {
    const made = hosted('idle', HUB, T + 2_000).attached('session.created', T - 10_000, 's1', ['core-tui-1']);
    expect(await livenessOf(made, T + 10_000)).toMatchObject({ kind: 'dead', source: 'cline.hub-events', pid: null });
  });

  it("R7 a hosted session the log no longer holds (kept seven days): the hub's pid proves nothing, the messages speak", async () => {
    const made = hosted();
    expect(await livenessOf(made)).toEqual({ kind: 'unreported' });
    const [row] = await rowsOf(made.root, T + 5_000);
    expect([row?.observed.state, row?.observed.reason, row?.observed.confidence]).toEqual(['idle', 'turn-finished', 'inferred']);
  });

  it('R7 a session resumed in the hub keeps its first, dead pid: the attached terminal keeps it alive', async () => {
    const made = hosted()
      .session({ id: 's1', pid: GONE, status: 'running', updatedAt: T, messages: [user(T - 9_000, 'first'), reply(T - 8_000, 'Done.')] })
      .attached('session.created', T - 100, 's1', ['core-tui-2']);
    expect(await livenessOf(made)).toEqual({ kind: 'alive', pid: HUB });
  });
});
