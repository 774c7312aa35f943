// Usage limits (issue 46, R80, R83) as Claude Code 2.1.328 and Codex 0.169.0 wrote them in the live
// lab, and the older wordings: only the agent's own error records count, the reset never guessed.
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spoolReaders } from '../../src/providers';
import { ClaudeTranscript } from '../../src/providers/claude/transcript';
import { CodexRollout } from '../../src/providers/codex/rollout';
import { HookSpool } from '../../src/providers/hooks/spool-reader';
import type { JsonRecord } from '../../src/providers/jsonl/parse-record';
import { parseRecord } from '../../src/providers/jsonl/parse-record';
import { nextWallTime } from '../../src/providers/reset-time';

const scratch = mkdtempSync(join(tmpdir(), 'lookout-limit-spool-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const AT = '2026-12-04T20:01:34.475Z';
const RESET_S = 1796425293; // 2026-12-04T23:01:33Z, what the lab's model sent

/** The record Claude Code 2.1.328 wrote, signed in with an OAuth token, on a 429 with the unified headers (lab, 2026-12-04). */
function claudeLimitRecord(text: string, extra: JsonRecord = {}): JsonRecord {
  return {
    type: 'assistant',
    isSidechain: false,
    timestamp: AT,
    sessionId: 's1',
    message: { model: '<synthetic>', role: 'assistant', stop_reason: 'stop_sequence', type: 'message', content: [{ type: 'text', text }] },
    error: 'rate_limit',
    isApiErrorMessage: true,
    apiErrorStatus: 429,
    apiErrorType: 'rate_limit_error',
    ...extra,
  };
}

const LAB_FIELDS: JsonRecord = {
  apiError: 'usage_limit_reached',
  apiErrorParams: { rate_limit_info: { status: 'rejected', resetsAt: RESET_S, rateLimitType: 'five_hour', isUsingOverage: false } },
  quotaLimits: { status: 'rejected', resetsAt: RESET_S, unifiedRateLimitFallbackAvailable: false, rateLimitType: 'five_hour', isUsingOverage: false },
};

function claudeAfter(...records: JsonRecord[]): ClaudeTranscript {
  const transcript = new ClaudeTranscript();
  transcript.apply({ type: 'user', timestamp: '2026-12-04T20:01:34.369Z', sessionId: 's1', message: { role: 'user', content: 'hit the limit' } });
  for (const record of records) transcript.apply(record);
  return transcript;
}

describe('Claude Code: its own API-error record for a usage limit', () => {
  it('2.1.328 (OAuth sign-in): apiError usage_limit_reached, the reset from quotaLimits, its words as detail', () => {
    const transcript = claudeAfter(claudeLimitRecord("You've hit your 5-hour limit · resets 11:01pm (UTC)", LAB_FIELDS));
    expect(transcript.signal).toEqual({
      kind: 'usage-limit',
      at: Date.parse(AT),
      resetsAt: RESET_S * 1000,
      detail: "You've hit your 5-hour limit · resets 11:01pm (UTC)",
    });
    expect(transcript.turn?.endedAt).toBe(Date.parse(AT));
  });

  it('the turn\'s end and the "continuing automatically" notice after it keep the limit', () => {
    const transcript = claudeAfter(
      claudeLimitRecord("You've hit your 5-hour limit · resets 11:01pm (UTC)", LAB_FIELDS),
      {
        type: 'system',
        subtype: 'informational',
        content: 'Usage limit reached · continuing automatically at 11:01pm · esc to cancel',
        timestamp: '2026-12-04T20:01:34.478Z',
        sessionId: 's1',
      },
      { type: 'system', subtype: 'turn_duration', durationMs: 110, timestamp: '2026-12-04T20:01:34.500Z', sessionId: 's1' },
    );
    expect(transcript.signal).toMatchObject({ kind: 'usage-limit', resetsAt: RESET_S * 1000 });
  });

  it('the older "Claude AI usage limit reached|<epoch>": the epoch after the bar is the reset', () => {
    expect(claudeAfter(claudeLimitRecord(`Claude AI usage limit reached|${RESET_S}`)).signal).toMatchObject({ kind: 'usage-limit', resetsAt: RESET_S * 1000 });
  });

  it('words only: "resets 3pm (Europe/Berlin)" is the next 3 pm in Berlin after the record', () => {
    // 20:01 UTC is 21:01 in Berlin: the next 3 pm there is tomorrow, 14:00 UTC.
    expect(claudeAfter(claudeLimitRecord("You've hit your session limit · resets 3pm (Europe/Berlin)")).signal).toMatchObject({
      kind: 'usage-limit',
      resetsAt: Date.parse('2026-12-05T14:00:00Z'),
    });
    expect(claudeAfter(claudeLimitRecord("You've hit your weekly limit · resets Dec 9, 3:30pm (America/New_York)")).signal).toMatchObject({
      resetsAt: Date.parse('2026-12-09T20:30:00Z'),
    });
    expect(claudeAfter(claudeLimitRecord('You have hit your session limit; reset time was 9:20pm Europe/Berlin')).signal).toMatchObject({
      resetsAt: Date.parse('2026-12-04T20:20:00Z'),
    });
  });

  it('no reset in the record, or a zone Intl does not know: resetsAt null, never a guess', () => {
    expect(claudeAfter(claudeLimitRecord("You've hit your session limit")).signal).toMatchObject({ kind: 'usage-limit', resetsAt: null });
    expect(claudeAfter(claudeLimitRecord("You've hit your session limit · resets 3pm (Mars/Olympus)")).signal).toMatchObject({
      kind: 'usage-limit',
      resetsAt: null,
    });
  });

  it('a transient rate limit, a 429 with an API key, a 529: api-error as before', () => {
    for (const text of [
      'API Error: Server is temporarily limiting requests (not your usage limit) · Rate limited (lab)',
      'API Error: Request rejected (429) · this may be a temporary capacity issue.',
      'API Error: Repeated 529 Overloaded errors',
    ]) {
      expect(claudeAfter(claudeLimitRecord(text)).signal).toMatchObject({ kind: 'api-error' });
    }
  });

  it("the same words from the user, a tool or the model's own text never count", () => {
    const words = "You've hit your 5-hour limit · resets 11:01pm (UTC)";
    expect(claudeAfter({ type: 'user', timestamp: AT, sessionId: 's1', message: { role: 'user', content: words } }).signal).toMatchObject({ kind: 'prompt' });
    expect(
      claudeAfter({
        type: 'user',
        timestamp: AT,
        sessionId: 's1',
        message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: words }] },
      }).signal,
    ).toMatchObject({ kind: 'tool-result' });
    expect(
      claudeAfter({
        type: 'assistant',
        timestamp: AT,
        sessionId: 's1',
        message: { role: 'assistant', stop_reason: 'end_turn', content: [{ type: 'text', text: words }] },
      }).signal,
    ).toMatchObject({ kind: 'assistant-text' });
    expect(claudeAfter({ ...claudeLimitRecord(words, LAB_FIELDS), isApiErrorMessage: false }).signal).toMatchObject({ kind: 'assistant-text' });
  });

  it('at the reset 2.1.328 goes on by itself: its meta continuation prompt opens a turn; other meta records do not', () => {
    const limit = claudeLimitRecord("You've hit your 5-hour limit · resets 8:19pm (UTC)", LAB_FIELDS);
    const notice = {
      type: 'system',
      subtype: 'informational',
      content: 'Usage limit reset · Continuing automatically',
      timestamp: '2026-12-04T20:20:29.790Z',
      sessionId: 's1',
    };
    const meta = (content: string): JsonRecord => ({
      type: 'user',
      isMeta: true,
      timestamp: '2026-12-04T20:20:29.843Z',
      sessionId: 's1',
      message: { role: 'user', content },
    });
    const continued = claudeAfter(
      limit,
      notice,
      meta(
        'Your claude.ai usage limit has reset. Continue the task you were working on when the limit was reached; do not repeat work that is already complete.',
      ),
    );
    expect(continued.signal).toEqual({ kind: 'prompt', at: Date.parse('2026-12-04T20:20:29.843Z') });
    expect(continued.turn).toMatchObject({ startedAt: Date.parse('2026-12-04T20:20:29.843Z'), endedAt: null });
    expect(continued.title).toBe('hit the limit');
    expect(claudeAfter(limit, { ...meta('Your claude.ai usage limit has reset.'), isMeta: false, type: 'assistant' }).signal).toMatchObject({
      kind: 'usage-limit',
    });
    expect(claudeAfter(limit, meta('Caveat: the messages below were generated by the user')).signal).toMatchObject({ kind: 'usage-limit' });
  });

  it('a new prompt after the limit opens a turn again', () => {
    const transcript = claudeAfter(claudeLimitRecord("You've hit your 5-hour limit · resets 11:01pm (UTC)", LAB_FIELDS), {
      type: 'user',
      timestamp: '2026-12-04T23:05:00Z',
      sessionId: 's1',
      message: { role: 'user', content: 'go on' },
    });
    expect(transcript.signal).toMatchObject({ kind: 'prompt' });
  });

  it('hooks after the limit: the StopFailure stays the last word over a later idle notice (the engine ranks the limit record above both)', async () => {
    const folder = mkdtempSync(join(scratch, 'spool-'));
    const lines = [
      { at: 1000, payload: { hook_event_name: 'UserPromptSubmit', session_id: 's1' } },
      { at: 1100, payload: { hook_event_name: 'StopFailure', session_id: 's1', error: 'rate_limit' } },
      {
        at: 61100,
        payload: { hook_event_name: 'Notification', notification_type: 'idle_prompt', session_id: 's1', message: 'Claude is waiting for your input' },
      },
    ];
    writeFileSync(
      join(folder, 'claude.jsonl'),
      `${lines.map((line) => JSON.stringify({ ...line, provider: 'claude', precision: 'ms', channel: 'hook' })).join('\n')}\n`,
    );
    const sessions = await new HookSpool(folder, spoolReaders(['claude'])).sync();
    expect(sessions.get('claude:s1')?.last).toMatchObject({ event: 'stop-failure', at: 1100 });
  });
});

/** A Codex rollout line. */
function line(at: string, type: string, payload: JsonRecord): JsonRecord {
  return { timestamp: at, type, payload };
}

function codexAfter(...records: JsonRecord[]): CodexRollout {
  const rollout = new CodexRollout();
  rollout.apply(line('2026-12-04T20:02:13.515Z', 'event_msg', { type: 'task_started', turn_id: 't1' }));
  rollout.apply(line('2026-12-04T20:02:13.560Z', 'event_msg', { type: 'user_message', message: 'hit the limit' }));
  for (const record of records) rollout.apply(record);
  return rollout;
}

const CODEX_WORDS =
  'You’ve hit your usage limit. Upgrade to Pro (https://chatgpt.com/explore/pro), visit https://chatgpt.com/settings/usage to purchase more credits or try again at 11:02 PM.';

describe('Codex: a turn ended on the usage limit', () => {
  it('0.169.0: task_complete with error.codex_error_info usage_limit_exceeded; the reset from "try again at 11:02 PM" in this machine\'s zone', () => {
    const rollout = codexAfter(
      line('2026-12-04T20:02:13.590Z', 'event_msg', {
        type: 'task_complete',
        turn_id: 't1',
        last_agent_message: null,
        error: { message: CODEX_WORDS, codex_error_info: 'usage_limit_exceeded' },
      }),
    );
    const expected = nextWallTime(Date.parse('2026-12-04T20:02:13.590Z'), { hour: 23, minute: 2 }, Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(rollout.signal).toMatchObject({ kind: 'usage-limit', resetsAt: expected, detail: expect.stringContaining('You’ve hit your usage limit') });
    expect(rollout.turn?.endedAt).toBe(Date.parse('2026-12-04T20:02:13.590Z'));
  });

  it('a field wins over the words; an older error event counts too; a date in the words is read', () => {
    expect(
      codexAfter(
        line(AT, 'event_msg', {
          type: 'task_complete',
          turn_id: 't1',
          error: { message: CODEX_WORDS, codex_error_info: 'usage_limit_exceeded', resets_at: RESET_S },
        }),
      ).signal,
    ).toMatchObject({ resetsAt: RESET_S * 1000 });
    expect(codexAfter(line(AT, 'event_msg', { type: 'error', message: "You've hit your usage limit. Try again in a while." })).signal).toMatchObject({
      kind: 'usage-limit',
      resetsAt: null,
    });
    const dated = codexAfter(
      line(AT, 'event_msg', {
        type: 'task_complete',
        turn_id: 't1',
        error: { message: "You've hit your usage limit. … or try again at Dec 9, 2026 8:04 AM.", codex_error_info: 'usage_limit_exceeded' },
      }),
    );
    expect(dated.signal).toMatchObject({
      resetsAt: nextWallTime(Date.parse(AT), { year: 2026, month: 11, day: 9, hour: 8, minute: 4 }, Intl.DateTimeFormat().resolvedOptions().timeZone),
    });
  });

  it('an error event on the limit, then a plain task_complete for the turn (older builds): still the limit', () => {
    const rollout = codexAfter(
      line(AT, 'event_msg', { type: 'error', message: CODEX_WORDS }),
      line('2026-12-04T20:01:35Z', 'event_msg', { type: 'task_complete', turn_id: 't1', last_agent_message: null }),
    );
    expect(rollout.signal).toMatchObject({ kind: 'usage-limit' });
    expect(rollout.turn?.endedAt).toBe(Date.parse('2026-12-04T20:01:35Z'));
  });

  it('another failure, and the words in a prompt, stay what they were', () => {
    expect(
      codexAfter(
        line(AT, 'event_msg', { type: 'task_complete', turn_id: 't1', error: { message: 'stream disconnected', codex_error_info: 'internal_server_error' } }),
      ).signal,
    ).toMatchObject({ kind: 'turn-end', failed: true });
    expect(codexAfter(line(AT, 'event_msg', { type: 'user_message', message: CODEX_WORDS })).signal).toMatchObject({ kind: 'progress' });
  });

  it('token_count rate_limits: the newest windows, resets_at in seconds or resets_in_seconds from the event; an empty one changes nothing', () => {
    const rollout = codexAfter(
      line('2026-12-04T20:00:00Z', 'event_msg', {
        type: 'token_count',
        rate_limits: {
          primary: { used_percent: 12, window_minutes: 300, resets_at: RESET_S },
          secondary: { used_percent: 2, window_minutes: 10080, resets_in_seconds: 3600 },
        },
      }),
      line('2026-12-04T20:01:00Z', 'event_msg', { type: 'token_count', info: null, rate_limits: { limit_id: 'codex', primary: null, secondary: null } }),
    );
    expect(rollout.usageWindows).toEqual([
      { name: 'primary', usedPercent: 12, windowMinutes: 300, resetsAt: RESET_S * 1000, at: Date.parse('2026-12-04T20:00:00Z') },
      { name: 'secondary', usedPercent: 2, windowMinutes: 10080, resetsAt: Date.parse('2026-12-04T21:00:00Z'), at: Date.parse('2026-12-04T20:00:00Z') },
    ]);
  });

  it('a token_count before the last turn is kept by the tail window', () => {
    const lines = [
      JSON.stringify(line(AT, 'event_msg', { type: 'token_count', rate_limits: { primary: { used_percent: 1 } } })),
      JSON.stringify(line(AT, 'event_msg', { type: 'token_count', rate_limits: { primary: { used_percent: 2 } } })),
      JSON.stringify(line(AT, 'event_msg', { type: 'task_started', turn_id: 't2' })),
    ];
    expect(new CodexRollout().keptBefore(lines, 2, false)).toEqual([1]);
  });
});

const SAMPLES = resolve(__dirname, '../../../shared/real-samples/codex');
const present = existsSync(SAMPLES);
if (!present) console.log(`Codex usage-window sample tests skipped: ${SAMPLES} is not here`);

/** A real rollout applied whole. */
function sample(name: string): CodexRollout {
  const rollout = new CodexRollout();
  for (const raw of readFileSync(join(SAMPLES, name), 'utf8').split('\n')) {
    const record = parseRecord(raw);
    if (record !== null) rollout.apply(record);
  }
  return rollout;
}

describe.skipIf(!present)('Codex real rollouts: rate_limits as written (0.118–0.147)', () => {
  it('0.130: the newest 5-hour and weekly windows, resets_at in epoch seconds', () => {
    const windows = sample('irrlicht-fork-CONCATENATED-0.130.0.jsonl').usageWindows;
    expect(windows.map(({ name, usedPercent, windowMinutes, resetsAt }) => ({ name, usedPercent, windowMinutes, resetsAt }))).toEqual([
      { name: 'primary', usedPercent: 14, windowMinutes: 300, resetsAt: 1779573249_000 },
      { name: 'secondary', usedPercent: 3, windowMinutes: 10080, resetsAt: 1780095380_000 },
    ]);
  });

  it('0.147: a weekly primary and no secondary', () => {
    expect(sample('irrlicht-pending-approval-0.147.0.jsonl').usageWindows).toMatchObject([
      { name: 'primary', usedPercent: 68, windowMinutes: 10080, resetsAt: 1787205653_000 },
    ]);
  });

  it('every rollout whose token counts carry windows gives some, each dated by its event', () => {
    const files = readdirSync(SAMPLES, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.jsonl') && !name.includes('legacy'));
    let withWindows = 0;
    for (const name of files) {
      if (!readFileSync(join(SAMPLES, name), 'utf8').includes('"used_percent"')) continue;
      withWindows += 1;
      const windows = sample(name).usageWindows;
      expect(windows.length, name).toBeGreaterThan(0);
      for (const window of windows) expect(window.resetsAt ?? 0, name).toBeGreaterThan(window.at);
    }
    expect(withWindows).toBeGreaterThan(5);
  });
});
