// Usage limits in opencode's and Kilo's databases (issue 46, R80): the saved `APIError` of a 429
// whose words say the quota is spent, in the shape 1.18.33 and Kilo 7.7.9 wrote in the lab; its
// reset only from the saved headers. Other errors, and the same words elsewhere, are no limit.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Row, SessionEvidence } from '../../src/engine';
import { defaultSettings, emptyFacts, evaluate } from '../../src/engine';
import { OpencodeProvider } from '../../src/providers/opencode/provider';
import { resetFromHeaders } from '../../src/providers/opencode/usage-limit';
import { KILO_FLAVOR } from '../../src/providers/kilo/descriptor';
import { T0, database } from './opencode-db';

const base = mkdtempSync(join(tmpdir(), 'lookout-opencode-limit-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

const QUOTA = 'You exceeded your current quota, please check your plan and billing details.';
const at = (seconds: number): number => T0 + seconds * 1000;

/** An APIError as opencode saves it after its last retry (the lab's 429, its headers and body). */
function apiError(statusCode: number, message: string, type: string, headers: Record<string, string> = {}): Record<string, unknown> {
  const responseBody = JSON.stringify({ error: { message, type, code: type } });
  return {
    name: 'APIError',
    data: {
      message,
      statusCode,
      isRetryable: statusCode === 429,
      responseHeaders: { 'content-type': 'application/json', date: new Date(at(20)).toUTCString(), ...headers },
      responseBody,
      metadata: { url: 'http://127.0.0.1/v1/chat/completions' },
    },
  };
}

const failed = (error: Record<string, unknown>) => ({ time: { created: at(1), completed: at(20) }, error });

async function read(folder: string, seconds: number): Promise<{ rows: Map<string, Row>; evidence: Map<string, SessionEvidence> }> {
  const evidence = await new OpencodeProvider(folder).sync();
  const rows = evaluate({ sessions: evidence, facts: emptyFacts(), settings: defaultSettings(), now: at(seconds), onScreen: null }).snapshot.sessions;
  return { rows: new Map(rows.map((row) => [row.sessionId, row])), evidence: new Map(evidence.map((item) => [item.sessionId, item])) };
}

describe('opencode usage limits', () => {
  it("R80 a 429 saying the quota is spent reads limited, its reset from the saved retry-after measured from the message's end; a plain rate limit or another status stays an error", async () => {
    const folder = join(base, 'limits');
    const cases: [string, Record<string, unknown>][] = [
      ['quota', apiError(429, QUOTA, 'insufficient_quota', { 'retry-after': '3600', 'x-ratelimit-reset-requests': '2s' })],
      ['quota-no-reset', apiError(429, QUOTA, 'insufficient_quota')],
      // The words only in the saved body still name the limit (a provider's terse message).
      ['body-only', apiError(429, 'Too Many Requests', 'insufficient_quota')],
      ['rate', apiError(429, 'lab: slow down', 'rate_limit_exceeded', { 'retry-after': '2' })],
      ['server', apiError(500, QUOTA, 'server_error')],
      ['other-name', { name: 'UnknownError', data: { message: QUOTA } }],
    ];
    database(folder, (b) => {
      for (const [id, error] of cases) {
        b.session(`ses_${id}`, id);
        b.user(`ses_${id}`, 0);
        b.assistant(`ses_${id}`, 1, failed(error));
      }
    }).close();
    const { rows, evidence } = await read(folder, 30);
    expect(rows.get('ses_quota')?.observed).toMatchObject({ state: 'limited', reason: 'usage-limit', detail: QUOTA, at: new Date(at(20)).toISOString() });
    expect(evidence.get('ses_quota')?.signal).toEqual({ kind: 'usage-limit', at: at(20), resetsAt: at(20 + 3600), detail: QUOTA });
    expect(evidence.get('ses_quota')?.turn?.endedAt).toBe(at(20));
    expect(evidence.get('ses_quota-no-reset')?.signal).toMatchObject({ kind: 'usage-limit', resetsAt: null });
    expect(rows.get('ses_body-only')?.observed).toMatchObject({ state: 'limited', detail: 'Too Many Requests' });
    for (const id of ['rate', 'server', 'other-name']) expect(rows.get(`ses_${id}`)?.observed, id).toMatchObject({ state: 'error', reason: 'api-error' });
  });

  it("R80 while opencode retries the 429 (an assistant message left open, nothing saved yet) the row reads running; the same words typed by the user or in a tool's output are no limit", async () => {
    const folder = join(base, 'retrying');
    database(folder, (b) => {
      b.session('ses_retrying', 'retrying');
      b.user('ses_retrying', 0);
      b.assistant('ses_retrying', 1, {});
      b.session('ses_words', 'words');
      b.user('ses_words', 0, `why does it say "${QUOTA}" (insufficient_quota)?`);
      const reply = b.assistant('ses_words', 1, { time: { created: at(1), completed: at(5) }, finish: 'stop' });
      b.part('ses_words', reply, 2, {
        type: 'tool',
        callID: 'call_1',
        tool: 'bash',
        state: { status: 'completed', input: { command: 'cat log' }, output: `429 ${QUOTA}` },
      });
    }).close();
    const { rows } = await read(folder, 10);
    expect(rows.get('ses_retrying')?.observed).toMatchObject({ state: 'running', reason: 'turn-open' });
    expect(rows.get('ses_words')?.observed).toMatchObject({ state: 'idle', reason: 'turn-finished' });
  });

  it("R80 Kilo's database (its fork, 7.7.9 wrote the same APIError) reads the same limit", async () => {
    const folder = join(base, 'kilo');
    database(
      folder,
      (b) => {
        b.session('ses_kilo', 'kilo');
        b.user('ses_kilo', 0);
        b.assistant('ses_kilo', 1, failed(apiError(429, QUOTA, 'insufficient_quota', { 'retry-after': '2' })));
      },
      false,
      'kilo.db',
    ).close();
    const [evidence] = await new OpencodeProvider(folder, KILO_FLAVOR).sync();
    expect(evidence?.signal).toEqual({ kind: 'usage-limit', at: at(20), resetsAt: at(22), detail: QUOTA });
    expect(evidence?.provider).toBe('kilo');
  });

  it("a reset only where a saved header gives one: retry-after-ms, retry-after in seconds or as a date, OpenAI's reset durations (the later), Anthropic's unified reset", () => {
    const now = at(0);
    expect(resetFromHeaders({ 'retry-after-ms': '1500', 'retry-after': '9' }, now)).toBe(now + 1500);
    expect(resetFromHeaders({ 'Retry-After': '120' }, now)).toBe(now + 120_000);
    expect(resetFromHeaders({ 'retry-after': 'Sat, 05 Dec 2026 08:00:00 GMT' }, now)).toBe(Date.parse('2026-12-05T08:00:00Z'));
    expect(resetFromHeaders({ 'x-ratelimit-reset-requests': '1h2m3.5s', 'x-ratelimit-reset-tokens': '20ms' }, now)).toBe(now + 3_723_500);
    expect(resetFromHeaders({ 'anthropic-ratelimit-unified-reset': '1796500000' }, now)).toBe(1_796_500_000_000);
    expect(resetFromHeaders({ 'retry-after': 'soon', 'x-ratelimit-reset-requests': 'later' }, now)).toBeNull();
    expect(resetFromHeaders({ 'content-type': 'application/json' }, now)).toBeNull();
    expect(resetFromHeaders(null, now)).toBeNull();
  });
});
