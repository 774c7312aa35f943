// The lab's fake model on its own: each wire format's stream as an agent's parser expects it, the
// script's errors, holds and cuts, and side requests kept apart from the script.
import { afterEach, describe, expect, it } from 'vitest';
import type { Wire } from '../lab/fake-model';
import { FakeModel } from '../lab/fake-model';
import type { Reply } from '../lab/script';
import { Script } from '../lab/script';
import { QUOTA_MESSAGE, usageLimitReply } from '../lab/usage-limit';

let model: FakeModel | null = null;
afterEach(async () => {
  await model?.stop();
  model = null;
});

async function serve(replies: Reply[]): Promise<FakeModel> {
  model = await new FakeModel(new Script(replies)).start();
  return model;
}

const routes: Record<Wire, { path: string; body: Record<string, unknown> }> = {
  anthropic: { path: '/v1/messages?beta=true', body: { model: 'fake-model', stream: true, messages: [] } },
  responses: { path: '/v1/responses', body: { model: 'fake-model', stream: true, tools: [{ type: 'function', name: 'exec_command' }], input: [] } },
  chat: { path: '/v1/chat/completions', body: { model: 'fake-model', stream: true, tools: [{ type: 'function', function: { name: 'bash' } }], messages: [] } },
  gemini: { path: '/v1beta/models/fake-model:streamGenerateContent?alt=sse', body: { contents: [] } },
};

/** The data lines of an SSE body, parsed where they are JSON. */
function events(text: string): unknown[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => line.slice(6))
    .map((data) => (data === '[DONE]' ? data : (JSON.parse(data) as unknown)));
}

async function ask(lab: FakeModel, wire: Wire): Promise<{ status: number; text: string }> {
  const route = routes[wire];
  const response = await fetch(`${lab.url}${route.path}`, {
    method: 'POST',
    body: JSON.stringify(route.body),
    headers: { 'content-type': 'application/json' },
  });
  return { status: response.status, text: await response.text() };
}

describe("the lab's fake model", () => {
  it('binds 127.0.0.1 on an ephemeral port', async () => {
    const lab = await serve([]);
    expect(lab.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(lab.port).toBeGreaterThan(0);
  });

  it('streams text and a tool call in each wire format, ending each reply as its parser expects', async () => {
    const call = { name: 'bash', input: { command: 'ls' } };
    for (const wire of ['anthropic', 'responses', 'chat', 'gemini'] as const) {
      const lab = await serve([{ kind: 'tool', call, text: 'Listing.' }]);
      const { status, text } = await ask(lab, wire);
      expect(status).toBe(200);
      const all = JSON.stringify(events(text));
      expect(all, wire).toContain('Listing.');
      expect(all, wire).toContain('bash');
      expect(all, wire).toContain(wire === 'gemini' ? '"args":{"command":"ls"}' : '\\"command\\":\\"ls\\"');
      const ends = {
        anthropic: '"stop_reason":"tool_use"',
        responses: '"response.completed"',
        chat: '"finish_reason":"tool_calls"',
        gemini: '"finishReason":"STOP"',
      };
      expect(all, wire).toContain(ends[wire]);
      await lab.stop();
      model = null;
    }
  });

  it('answers every retry with the scripted error until the script moves on', async () => {
    const lab = await serve([
      { kind: 'error', status: 529, message: 'Overloaded (lab)' },
      { kind: 'text', text: 'Back.' },
    ]);
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const { status, text } = await ask(lab, 'anthropic');
      expect(status).toBe(529);
      expect(JSON.parse(text)).toMatchObject({ type: 'error', error: { type: 'overloaded_error' } });
    }
    lab.script.skip();
    expect((await ask(lab, 'anthropic')).text).toContain('Back.');
    expect(lab.mainRequests).toHaveLength(4);
  });

  it("a usage-limit error carries its headers and its code (OpenAI's insufficient_quota on chat)", async () => {
    const lab = await serve([usageLimitReply(60)]);
    const response = await fetch(`${lab.url}${routes.chat.path}`, {
      method: 'POST',
      body: JSON.stringify(routes.chat.body),
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('60');
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual({ error: { message: QUOTA_MESSAGE, type: 'insufficient_quota', code: 'insufficient_quota' } });
  });

  it('holds a stream open until released, then ends it normally', async () => {
    const lab = await serve([{ kind: 'hold', text: 'Working…' }]);
    const pending = ask(lab, 'chat');
    while (lab.openHolds === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    lab.release();
    const { text } = await pending;
    expect(text).toContain('Working…');
    expect(text).toContain('[DONE]');
  });

  it('cuts a stream mid-reply: part of the reply, no end', async () => {
    const lab = await serve([{ kind: 'cut', text: 'Half a' }]);
    const response = await fetch(`${lab.url}${routes.responses.path}`, { method: 'POST', body: JSON.stringify(routes.responses.body) });
    const read = await response.text().then(
      (text) => ({ text, failed: false }),
      () => ({ text: '', failed: true }),
    );
    expect(read.failed || !read.text.includes('response.completed')).toBe(true);
  });

  it('answers side requests (a title, a classifier) apart: they never take a scripted reply', async () => {
    const lab = await serve([{ kind: 'text', text: 'The real answer.' }]);
    await fetch(`${lab.url}/v1/responses`, {
      method: 'POST',
      body: JSON.stringify({ stream: true, tools: [], input: [{ content: 'Generate a concise, single-line task title' }] }),
    });
    await fetch(`${lab.url}/v1beta/models/fake-model:generateContent`, { method: 'POST', body: '{}' });
    expect(lab.requests.map((request) => request.role)).toEqual(['side', 'side']);
    expect((await ask(lab, 'responses')).text).toContain('The real answer.');
  });
});
