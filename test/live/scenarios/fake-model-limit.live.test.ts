// The lab model's usage-limit reply on its own: the headers and body each agent reads, the
// transient kind, and `times` moving the script on.
import { afterEach, describe, expect, it } from 'vitest';
import { FakeModel } from '../lab/fake-model';
import type { Reply } from '../lab/script';
import { Script } from '../lab/script';

let model: FakeModel | null = null;
afterEach(async () => {
  await model?.stop();
  model = null;
});

async function post(
  lab: FakeModel,
  path: string,
  body: Record<string, unknown>,
): Promise<{ status: number; headers: Headers; json: Record<string, unknown> | null }> {
  const response = await fetch(`${lab.url}${path}`, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    json: response.headers.get('content-type') === 'application/json' ? (JSON.parse(text) as Record<string, unknown>) : null,
  };
}

const anthropic = { model: 'fake-model', stream: true, messages: [] };
const responses = { model: 'fake-model', stream: true, tools: [{ type: 'function', name: 'exec_command' }], input: [] };

describe('the lab model at a usage limit', () => {
  const resetsAt = 1_796_425_293;

  it("Anthropic: 429 with the unified headers (rejected, reset, representative claim, the window's own), a rate_limit_error body", async () => {
    model = await new FakeModel(new Script([{ kind: 'limit', resetsAt }])).start();
    const answer = await post(model, '/v1/messages?beta=true', anthropic);
    expect(answer.status).toBe(429);
    expect(answer.headers.get('anthropic-ratelimit-unified-status')).toBe('rejected');
    expect(answer.headers.get('anthropic-ratelimit-unified-reset')).toBe(String(resetsAt));
    expect(answer.headers.get('anthropic-ratelimit-unified-representative-claim')).toBe('five_hour');
    expect(answer.headers.get('anthropic-ratelimit-unified-5h-status')).toBe('rejected');
    expect(answer.json).toMatchObject({ type: 'error', error: { type: 'rate_limit_error' } });
    // Without `times` it stays, like an error: every retry is refused.
    expect((await post(model, '/v1/messages?beta=true', anthropic)).status).toBe(429);
  });

  it("Responses: 429 usage_limit_reached with resets_at and resets_in_seconds, and Codex's x-codex-* usage headers", async () => {
    model = await new FakeModel(new Script([{ kind: 'limit', resetsAt: Math.floor(Date.now() / 1000) + 3600 }])).start();
    const answer = await post(model, '/v1/responses', responses);
    expect(answer.status).toBe(429);
    const error = answer.json?.error as Record<string, unknown>;
    expect(error).toMatchObject({ type: 'usage_limit_reached', plan_type: 'plus' });
    expect(error.resets_in_seconds).toBeGreaterThan(3500);
    expect(answer.headers.get('x-codex-primary-used-percent')).toBe('100');
    expect(answer.headers.get('x-codex-primary-window-minutes')).toBe('300');
  });

  it("plain: a transient 429 with a short retry-after and none of the limit's fields; `times` moves the script on", async () => {
    const replies: Reply[] = [
      { kind: 'limit', resetsAt: 0, plain: true, times: 2 },
      { kind: 'text', text: 'Answered.' },
    ];
    model = await new FakeModel(new Script(replies)).start();
    const first = await post(model, '/v1/messages?beta=true', anthropic);
    expect(first.status).toBe(429);
    expect(first.headers.get('retry-after')).toBe('1');
    expect(first.headers.get('anthropic-ratelimit-unified-status')).toBeNull();
    expect((await post(model, '/v1/responses', responses)).json).toMatchObject({ error: { type: 'rate_limit_exceeded' } });
    expect((await post(model, '/v1/messages?beta=true', anthropic)).status).toBe(200);
    expect(model.mainRequests.map((request) => request.reply)).toEqual(['limit', 'limit', 'text']);
  });
});
