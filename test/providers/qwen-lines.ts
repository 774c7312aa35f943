// Qwen Code chat lines in the CLI's own shapes (0.24.4, as the lab and the real samples show them),
// with times in seconds after a start: the fast tests' hand-made records.
export const SESSION = 'bd926000-16ae-47ab-b06c-15f7094a3667';
export const lines = (...items: string[]): string => `${items.join('\n')}\n`;

const usage = { promptTokenCount: 12, candidatesTokenCount: 5, thoughtsTokenCount: 0, totalTokenCount: 17, cachedContentTokenCount: 0 };

/** The line builders for one session, its times counted from `t0`; `extra` goes on every record (a subagent's agentId). */
export function qwenLines(t0: number, session = SESSION, extra: Record<string, unknown> = {}) {
  const iso = (seconds: number): string => new Date(t0 + seconds * 1000).toISOString();
  let n = 0;
  const base = (type: string, seconds: number, fields: Record<string, unknown>): string => {
    n += 1;
    return JSON.stringify({
      uuid: `u-${n}`,
      parentUuid: n === 1 ? null : `u-${n - 1}`,
      sessionId: session,
      timestamp: iso(seconds),
      type,
      cwd: '/home/dev/app',
      version: '0.24.4',
      ...extra,
      ...fields,
    });
  };
  const system = (seconds: number, subtype: string, payload: Record<string, unknown> = {}): string =>
    base('system', seconds, { provenance: 'system', subtype, systemPayload: payload });
  const telemetry = (seconds: number, event: Record<string, unknown>, prompt: string): string =>
    system(seconds, 'ui_telemetry', { uiEvent: { 'event.timestamp': iso(seconds), model: 'fake-model', prompt_id: prompt, auth_type: 'openai', ...event } });
  const turn = `${session}########0`;
  return {
    iso,
    at: (seconds: number): number => t0 + seconds * 1000,
    prompt: (seconds: number, text: string): string => base('user', seconds, { provenance: 'real_user', message: { role: 'user', parts: [{ text }] } }),
    system,
    /** The api_response Qwen writes as a model call of the turn answers. */
    api: (seconds: number, prompt = turn): string =>
      telemetry(seconds, { 'event.name': 'qwen-code.api_response', response_id: 'chatcmpl-1', status_code: 200, duration_ms: 300 }, prompt),
    /** One failed attempt of a model call. */
    apiError: (seconds: number, status: number, message: string, prompt = turn): string =>
      telemetry(
        seconds,
        {
          'event.name': 'qwen-code.api_error',
          response_id: '',
          duration_ms: 3000,
          error_message: `${status} ${message}`,
          error_type: 'APIError',
          status_code: status,
        },
        prompt,
      ),
    /** The model's answer; `whole: false` is one cut short (Escape), written with no usage. */
    assistant: (seconds: number, text: string, whole = true): string =>
      base('assistant', seconds, {
        provenance: 'assistant_output',
        model: 'fake-model',
        message: { role: 'model', parts: [{ text }] },
        ...(whole ? { usageMetadata: usage } : {}),
      }),
    /** The model thinking (a thought part only): work under way. */
    thought: (seconds: number): string =>
      base('assistant', seconds, {
        provenance: 'assistant_output',
        model: 'fake-model',
        message: { role: 'model', parts: [{ text: 'Considering…', thought: true }] },
      }),
    call: (seconds: number, id: string, name: string, args: Record<string, unknown>): string =>
      base('assistant', seconds, {
        provenance: 'assistant_output',
        model: 'fake-model',
        message: { role: 'model', parts: [{ functionCall: { id, name, args } }] },
        usageMetadata: usage,
      }),
    result: (seconds: number, id: string, status: 'success' | 'error' | 'cancelled'): string =>
      base('tool_result', seconds, {
        provenance: 'tool_result',
        message: {
          role: 'user',
          parts: [
            {
              functionResponse: {
                id,
                name: 'run_shell_command',
                response: status === 'cancelled' ? { error: '[Operation Cancelled] Reason: User did not allow tool call' } : { output: 'ok' },
              },
            },
          ],
        },
        toolCallResult: { callId: id, status },
      }),
  };
}

export const T0 = Date.parse('2026-12-01T13:33:45.000Z');
export const { iso, at, prompt, system, api, apiError, assistant, call, result } = qwenLines(T0);
