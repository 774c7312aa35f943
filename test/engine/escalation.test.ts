// R61: a muted or snoozed session whose needs-you claim has stood longer than escalateAfter
// (30 min) comes back once: one notification ("still waiting after 30m"), counted again until
// visited or muted anew. Both edges of the threshold, and the switch that turns it off.
import { describe, expect, it } from 'vitest';
import { DEFAULT_TIMINGS, defaultSettings, stillNotified } from '../../src/engine';
import { KEY, at, min, run, session, tool, toolCall, T0 } from './build';

const THRESHOLD = DEFAULT_TIMINGS.escalateAfter;
// A question asked by a live process whose registry says it waits for the user: direct evidence
// of a live process does not age (R4), so the claim stands as long as the question is open.
const asking = () =>
  session({
    signal: toolCall(0, [{ ...tool('AskUserQuestion', 'question'), detail: 'asks: Which database?' }]),
    cwd: '/home/me/api-server',
    branch: 'main',
    liveness: { kind: 'alive', pid: 4242 },
    direct: [{ kind: 'registry-status', source: 'claude.session-registry', at: T0, status: 'waiting', waitingFor: 'Which database?' }],
  });
const muted = (mutedAt: number, until: number | null = null) => ({ mutes: { [KEY]: { at: at(mutedAt), until: until === null ? null : at(until) } } });

describe('R61 escalation of a muted session still waiting', () => {
  it('R61 just before the threshold: still muted, not counted, not notified', () => {
    const evaluation = run([asking()], THRESHOLD - 1, { facts: muted(min(1)) });
    expect(evaluation.snapshot.sessions[0]?.muted).not.toBeNull();
    expect(evaluation.snapshot.attention.count).toBe(0);
    expect(evaluation.notification).toBeNull();
  });

  it('R61 at the threshold: back in the count, one notification saying how long it has waited', () => {
    const evaluation = run([asking()], THRESHOLD, { facts: muted(min(1)) });
    const row = evaluation.snapshot.sessions[0];
    expect(row?.muted).toBeNull();
    expect(row?.band).toBe('needs-you');
    expect(row?.claim?.detail).toBe('still waiting after 30m — waiting: Which database?');
    expect(evaluation.snapshot.attention.count).toBe(1);
    expect(evaluation.notification?.title).toBe('Claude · api-server (main) needs you');
    expect(evaluation.notification?.body).toBe('still waiting after 30m — waiting: Which database?');
    // Once: the ledger holds it after that.
    const again = run([asking()], THRESHOLD + min(5), { facts: { ...muted(min(1)), notified: evaluation.notification?.claimIds ?? [] } });
    expect(again.notification).toBeNull();
    expect(again.snapshot.attention.count).toBe(1);
    // The claim it told of is still the one the row holds (a notification action may act on it).
    if (evaluation.notification !== null) expect(stillNotified(evaluation.notification, again.snapshot.sessions)).toEqual({ current: [KEY], changed: [] });
  });

  it('R61 a snooze (a mute with an end) escalates the same way', () => {
    expect(run([asking()], THRESHOLD, { facts: muted(min(1), THRESHOLD + min(60)) }).snapshot.sessions[0]?.muted).toBeNull();
  });

  it('R61 visited or muted anew after it came back: muted again, nothing more told', () => {
    const visited = run([asking()], THRESHOLD + min(2), { facts: { ...muted(min(1)), visits: { [KEY]: { at: at(THRESHOLD + min(1)), fingerprint: null } } } });
    expect(visited.snapshot.sessions[0]?.muted).not.toBeNull();
    expect(visited.notification).toBeNull();
    const mutedAgain = run([asking()], THRESHOLD + min(2), { facts: muted(THRESHOLD + min(1)) });
    expect(mutedAgain.snapshot.sessions[0]?.muted).not.toBeNull();
    expect(mutedAgain.snapshot.attention.count).toBe(0);
  });

  it('R61 turned off (escalateAfter 0): a muted session stays muted however long it waits', () => {
    const settings = defaultSettings();
    settings.timings.escalateAfter = 0;
    const evaluation = run([asking()], min(600), { facts: muted(min(1)), settings });
    expect(evaluation.snapshot.sessions[0]?.muted).not.toBeNull();
    expect(evaluation.notification).toBeNull();
  });

  it('R61 only needs-you escalates: a muted failure stays muted', () => {
    const failed = session({ signal: { kind: 'api-error', at: T0, detail: 'overloaded' } });
    expect(run([failed], THRESHOLD + 1, { facts: muted(min(1)) }).snapshot.sessions[0]?.muted).not.toBeNull();
  });

  it('R61 the moment it comes due is a change the runtime wakes for', () => {
    expect(run([asking()], min(2), { facts: muted(min(1)) }).nextChangeAt).toBeLessThanOrEqual(at(THRESHOLD));
  });
});
