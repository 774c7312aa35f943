// `lookout serve` refuses requests without the token, with a foreign Host or Origin, and
// malformed commands; it listens on loopback only.
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, fixtures } from '../../providers/fixture-roots';
import type { Served } from '../serve-process';
import { serve } from '../serve-process';

const dir = mkdtempSync(join(tmpdir(), 'lookout-serve-sec-'));
let served: Served;
const key = fixtures('claude').find((item) => item.name === 'question-pending')?.meta.sessionKey ?? '';

beforeAll(async () => {
  cpSync(join(FIXTURES, 'claude', 'question-pending'), join(dir, 'claude'), { recursive: true });
  served = await serve({ CLAUDE_CONFIG_DIR: join(dir, 'claude'), CODEX_HOME: join(dir, 'codex'), LOOKOUT_HOME: join(dir, 'home'), HOME: dir }, [
    '--now',
    '2026-11-29T12:01:00Z',
  ]);
});
afterAll(async () => {
  await served.stop();
  rmSync(dir, { recursive: true, force: true });
});

function call(path: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: served.url.port, path, method: options.method ?? 'GET', headers: options.headers }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

const command = (body: unknown, headers: Record<string, string> = {}) =>
  call('/command', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-lookout-token': served.token, ...headers },
    body: JSON.stringify(body),
  });

describe('lookout serve security', () => {
  it('prints its URL first: loopback, with a token', () => {
    expect(served.url.hostname).toBe('127.0.0.1');
    expect(served.token.length).toBeGreaterThanOrEqual(24);
  });

  it('the page loads with the token, carrying a strict CSP', async () => {
    const page = await call(`/?token=${served.token}`);
    expect(page.status).toBe(200);
    expect(page.body).toContain(`<meta name="lookout-token" content="${served.token}" />`);
  });

  it.each([
    ['no token on the event stream', '/events', {}],
    ['a wrong token on the event stream', '/events?token=not-the-token', {}],
    ['no token on an explanation', '/explain?key=claude%3Ax', {}],
  ])('refuses %s', async (_label, path, headers) => {
    const response = await call(path, { headers });
    expect(response.status).toBe(401);
  });

  it.each([
    ['no token', '/'],
    ['a wrong token', '/?token=not-the-token'],
    ['an asset without a token', '/app.js'],
  ])('serves the page and its assets with %s, but never the token', async (_label, path) => {
    const response = await call(path);
    expect(response.status).toBe(200);
    expect(response.body).not.toContain(served.token);
    if (path.startsWith('/?') || path === '/') expect(response.body).toContain('<meta name="lookout-token" content="" />');
  });

  it('refuses a foreign Host (DNS rebinding), even with the token', async () => {
    const response = await call(`/?token=${served.token}`, { headers: { host: 'evil.example:80' } });
    expect(response.status).toBe(403);
  });

  it('refuses a command from a foreign Origin, even with the token', async () => {
    const response = await command({ type: 'review', key, state: 'flagged' }, { origin: 'http://evil.example' });
    expect(response.status).toBe(403);
    const crossSite = await command({ type: 'review', key, state: 'flagged' }, { 'sec-fetch-site': 'cross-site' });
    expect(crossSite.status).toBe(403);
  });

  it('refuses a command without the token', async () => {
    const response = await call('/command', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ type: 'unmute', key }) });
    expect(response.status).toBe(401);
  });

  it.each([
    [{ type: 'review', key, state: 'done' }],
    [{ type: 'frobnicate', key }],
    [{ type: 'mute', key, span: '5 years' }],
    [{ type: 'review', key: 42, state: 'flagged' }],
    ['not an object'],
  ])('refuses a malformed command: %j', async (body) => {
    const response = await command(body);
    expect(response.status).toBe(400);
    expect(JSON.parse(response.body)).toMatchObject({ ok: false });
  });

  it('accepts a well-formed command with the token and a same-origin Origin', async () => {
    const response = await command({ type: 'review', key, state: 'flagged' }, { origin: `http://127.0.0.1:${served.url.port}` });
    expect(response.status).toBe(200);
  });

  it('explains a row, and 404s an unknown one', async () => {
    const known = await call(`/explain?key=${encodeURIComponent(key)}`, { headers: { 'x-lookout-token': served.token } });
    expect(known.status).toBe(200);
    expect(JSON.parse(known.body).decidedBy).toContain('R3 question tool pending');
    expect((await call('/explain?key=claude%3Anope', { headers: { 'x-lookout-token': served.token } })).status).toBe(404);
  });

  it('the token cannot make Lookout run a program: the open template is not writable through serve', async () => {
    const settingsFile = join(dir, 'home', 'settings.json');
    const before = existsSync(settingsFile) ? readFileSync(settingsFile, 'utf8') : null;
    const response = await command({ type: 'settings', openCommand: ['/bin/sh', '-c', 'touch /tmp/lookout-pwned'] });
    expect(response.status).toBe(400);
    expect(JSON.parse(response.body).error).toContain('changes only in settings.json');
    expect(existsSync(settingsFile) ? readFileSync(settingsFile, 'utf8') : null).toBe(before);
    // Other settings still save through the page.
    expect((await command({ type: 'settings', notifications: { finished: false } })).status).toBe(200);
    expect(JSON.parse(readFileSync(settingsFile, 'utf8')).openCommand).toBeNull();
  });

  it('a command with the token only in its query is refused: the query carries it only for the page and the event stream', async () => {
    const response = await call(`/command?token=${served.token}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'review', key, state: 'flagged' }),
    });
    expect(response.status).toBe(401);
    expect((await call(`/explain?key=${encodeURIComponent(key)}&token=${served.token}`)).status).toBe(401);
  });
});
