// Issue 22: a registry's idle (or an idle notice) says the turn is over, not how it ended; a working
// mark is superseded by a newer record that ends the turn. Seen wrong with Claude Code 2.1.328 and
// Codex 0.169.0 in the live lab; the recordings of those runs are in test/fixtures/live.
import { describe, expect, it } from 'vitest';
import type { DirectEvidence } from '../../src/engine';
import { at, registry, rowOf, sec, session, tool, toolCall } from './build';

const alive = { kind: 'alive', pid: 1 } as const;
const hook = (event: Extract<DirectEvidence, { kind: 'hook' }>['event'], offsetMs: number, detail: string | null = null): DirectEvidence => ({
  kind: 'hook',
  source: 'claude.hook',
  at: at(offsetMs),
  event,
  detail,
});

describe('R8 how a turn ended', () => {
  it('R8 a failed turn then an idle registry reads error/api-error, not idle (case 1, files and registry)', () => {
    const row = rowOf(
      session({ liveness: alive, signal: { kind: 'api-error', at: at(sec(2)), detail: 'API Error: 529' }, direct: [registry('idle', sec(2) + 40)] }),
      sec(5),
    );
    expect(row.observed).toMatchObject({ state: 'error', reason: 'api-error', source: 'claude.transcript' });
    expect(row.claim?.kind).toBe('failed');
  });

  it('R8 a StopFailure hook then an idle registry reads error, whichever lands first (case 1 with hooks)', () => {
    for (const registryAt of [sec(2) - 15, sec(2) + 15]) {
      const row = rowOf(
        session({
          liveness: alive,
          signal: { kind: 'prompt', at: at(0) },
          direct: [registry('idle', registryAt), hook('stop-failure', sec(2), 'server_error')],
        }),
        sec(5),
      );
      expect(row.observed).toMatchObject({ state: 'error', reason: 'api-error', source: 'claude.hook' });
    }
  });

  it('R8 an idle notice (60 s later) says only that the turn is over: the transcript still says how', () => {
    const row = rowOf(session({ signal: { kind: 'api-error', at: at(sec(2)), detail: 'API Error' }, direct: [hook('idle-notice', sec(62))] }), sec(70));
    expect(row.observed.state).toBe('error');
  });

  it('R8 an idle registry after a clean end reads turn-finished; after only a prompt (Escape before output) it reads provider-idle', () => {
    const finished = rowOf(
      session({ liveness: alive, signal: { kind: 'assistant-text', at: at(sec(2)), stop: 'end' }, direct: [registry('idle', sec(2) + 30)] }),
      sec(5),
    );
    expect(finished.observed).toMatchObject({ state: 'idle', reason: 'turn-finished' });
    const escaped = rowOf(session({ liveness: alive, signal: { kind: 'prompt', at: at(0) }, direct: [registry('idle', sec(1))] }), sec(5));
    expect(escaped.observed).toMatchObject({ state: 'idle', reason: 'provider-idle' });
  });

  it('R8 an idle registry after fresh assistant text with no stop reason yet reads turn-finished (Claude writes the text first)', () => {
    const row = rowOf(
      session({ liveness: alive, signal: { kind: 'assistant-text', at: at(sec(2)), stop: 'none' }, direct: [registry('idle', sec(2) + 20)] }),
      sec(2) + 500,
    );
    expect(row.observed).toMatchObject({ state: 'idle', reason: 'turn-finished' });
    const toTool = rowOf(
      session({ liveness: alive, signal: { kind: 'assistant-text', at: at(sec(2)), stop: 'tool-use' }, direct: [registry('idle', sec(2) + 20)] }),
      sec(2) + 500,
    );
    expect(toTool.observed).toMatchObject({ state: 'idle', reason: 'provider-idle' });
  });

  it("R8 a prompt hook's working mark gives way to a newer failed turn end (case 3: Codex fires no Stop on failure)", () => {
    const row = rowOf(
      session({
        provider: 'codex',
        transcriptSource: 'codex.rollout',
        signal: { kind: 'turn-end', at: at(sec(3)), failed: true, detail: 'high demand' },
        direct: [hook('mid-turn', sec(1))],
      }),
      sec(4),
    );
    expect(row.observed).toMatchObject({ state: 'error', reason: 'api-error', source: 'codex.rollout' });
  });

  it("R8 a working mark newer than the turn's end still reads running (a new turn began)", () => {
    const row = rowOf(session({ signal: { kind: 'turn-end', at: at(sec(1)), failed: false, detail: null }, direct: [hook('mid-turn', sec(3))] }), sec(4));
    expect(row.observed).toMatchObject({ state: 'running', reason: 'provider-busy' });
  });

  it('R7 a turn left open with no writer (a lock nobody holds) reads ended, with the rule that says why', () => {
    const row = rowOf(
      session({ provider: 'codex', liveness: { kind: 'dead', source: 'codex.thread-writer-lock', pid: null, at: at(sec(1)), why: 'no-writer' } }),
      sec(4),
    );
    expect(row.observed).toMatchObject({ state: 'ended', reason: 'process-gone', source: 'codex.thread-writer-lock' });
  });

  it('R8 a permission hook with no words of its own is named by the call the transcript has pending', () => {
    const row = rowOf(session({ signal: toolCall(sec(1), [tool('Bash')]), direct: [hook('permission-request', sec(2))] }), sec(3));
    expect(row.observed).toMatchObject({ state: 'awaiting-approval', detail: 'Bash: something' });
  });
});
