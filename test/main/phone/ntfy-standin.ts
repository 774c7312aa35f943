// A stand-in for an ntfy server on 127.0.0.1 (issue 49): no outside service can be reached from the
// tests, so this follows ntfy's public documentation (docs.ntfy.sh) for what Lookout uses:
// - Publish as JSON (docs.ntfy.sh/publish, "Publish as JSON"): POST to the server's root with a JSON
//   body {topic, message, title, tags, priority, actions, markdown}; the answer is the message as
//   JSON {id, time, event: "message", topic, …}. A plain POST/PUT to /<topic> publishes its body as
//   the message (what an `http` action's tap does).
// - Action buttons (docs.ntfy.sh/publish, "Action buttons"): at most 3; an `http` action has
//   label, url, method (default POST), headers, body, clear. The phone app performs the request
//   itself when tapped: `tap()` does the same (POSTs the body to the url with the headers).
// - Access control (docs.ntfy.sh/config, "Access control"; docs.ntfy.sh/publish, "Access tokens"):
//   a protected topic without a valid `Authorization: Bearer <token>` gets 401 (no or unknown
//   token) or 403 (a token without access), each with a JSON {code, http, error}.
// - Rate limits (docs.ntfy.sh/config, "Rate limiting"): 429 Too Many Requests, JSON error; a test
//   asks for it with `failNext(429)`.
// - Subscribe as a JSON stream (docs.ntfy.sh/subscribe/api, "JSON stream"): GET /<topic>/json
//   keeps the connection open and writes one JSON object a line: an `open` event first, a
//   `keepalive` now and then, a `message` event for each message; `since=<id>` (or `all`) first
//   sends the cached messages after that id; `since=<unix time>` those from then on. `drop()` cuts every stream (a dropped connection).
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface NtfyMessage {
  id: string;
  time: number;
  event: 'message';
  topic: string;
  title?: string;
  message: string;
  tags?: string[];
  actions?: { action: string; label: string; url: string; method?: string; body?: string; headers?: Record<string, string>; clear?: boolean }[];
  markdown?: boolean;
}

export class NtfyStandin {
  readonly messages: NtfyMessage[] = [];
  /** Every request, for the tests: method, path, Authorization header. */
  readonly requests: { method: string; path: string; auth: string | null }[] = [];
  /** Topics that need a token, and the tokens that open them. */
  private readonly protectedTopics = new Map<string, Set<string>>();
  private readonly failures: number[] = [];
  private readonly streams = new Set<{ topic: string; response: ServerResponse }>();
  private readonly server = createServer((request, response) => void this.handle(request, response));
  url = '';

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  async stop(): Promise<void> {
    this.drop();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  protect(topic: string, tokens: readonly string[]): void {
    this.protectedTopics.set(topic, new Set(tokens));
  }

  /** The next requests (publish or subscribe) answer with these statuses, one each. */
  failNext(...statuses: number[]): void {
    this.failures.push(...statuses);
  }

  /** New subscriptions wait until `release()` (a connection that takes a while to come back). */
  private held: (() => void)[] | null = null;

  hold(): void {
    this.held = [];
  }

  release(): void {
    const waiting = this.held ?? [];
    this.held = null;
    for (const go of waiting) go();
  }

  drop(): void {
    for (const stream of this.streams) stream.response.destroy();
    this.streams.clear();
  }

  get subscribers(): number {
    return this.streams.size;
  }

  /** What the ntfy phone app does when an `http` action is tapped: the request, as the action says. */
  async tap(message: NtfyMessage, label: string): Promise<number> {
    const action = message.actions?.find((item) => item.label === label);
    if (action === undefined) throw new Error(`no action "${label}" on ${message.id}`);
    const response = await fetch(action.url, { method: action.method ?? 'POST', headers: action.headers ?? {}, body: action.body ?? '' });
    return response.status;
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', this.url);
    const auth = request.headers.authorization ?? null;
    this.requests.push({ method: request.method ?? '', path: url.pathname, auth });
    const failure = this.failures.shift();
    if (failure !== undefined) {
      response.writeHead(failure, { 'Content-Type': 'application/json', ...(failure === 429 ? { 'Retry-After': '1' } : {}) });
      response.end(JSON.stringify({ code: failure * 100 + 1, http: failure, error: failure === 429 ? 'limit reached: too many requests' : 'failed' }));
      return;
    }
    const body = await new Promise<string>((resolve) => {
      let text = '';
      request.setEncoding('utf8');
      request.on('data', (chunk: string) => {
        text += chunk;
      });
      request.on('end', () => resolve(text));
    });
    const stream = /^\/([A-Za-z0-9_-]{1,64})\/json$/.exec(url.pathname);
    if (request.method === 'GET' && stream !== null) {
      const topic = stream[1] ?? '';
      if (!this.allowed(topic, auth, response)) return;
      if (this.held !== null) await new Promise<void>((resolve) => this.held?.push(resolve));
      this.subscribe(topic, url.searchParams.get('since'), response);
      return;
    }
    if (request.method !== 'POST' && request.method !== 'PUT') return this.error(response, 404, 'page not found');
    let published: Omit<NtfyMessage, 'id' | 'time' | 'event'>;
    if (url.pathname === '/') {
      let json: Record<string, unknown>;
      try {
        json = JSON.parse(body) as Record<string, unknown>;
      } catch {
        return this.error(response, 400, 'invalid request: request body must be message JSON');
      }
      if (typeof json.topic !== 'string') return this.error(response, 400, 'invalid request: topic invalid');
      const actions = json.actions as NtfyMessage['actions'];
      if (actions !== undefined && actions.length > 3) return this.error(response, 400, 'invalid request: actions invalid: too many actions');
      published = {
        topic: json.topic,
        message: typeof json.message === 'string' ? json.message : 'triggered',
        ...(typeof json.title === 'string' ? { title: json.title } : {}),
        ...(Array.isArray(json.tags) ? { tags: json.tags as string[] } : {}),
        ...(actions === undefined ? {} : { actions }),
        ...(json.markdown === true ? { markdown: true } : {}),
      };
    } else {
      const topic = /^\/([A-Za-z0-9_-]{1,64})$/.exec(url.pathname)?.[1];
      if (topic === undefined) return this.error(response, 404, 'page not found');
      published = { topic, message: body };
    }
    if (Buffer.byteLength(published.message, 'utf8') > 4096) return this.error(response, 413, 'message too large');
    if (!this.allowed(published.topic, auth, response)) return;
    const message: NtfyMessage = { id: `m${randomBytes(8).toString('base64url')}`, time: Math.floor(Date.now() / 1000), event: 'message', ...published };
    this.messages.push(message);
    for (const subscriber of this.streams) if (subscriber.topic === message.topic) subscriber.response.write(`${JSON.stringify(message)}\n`);
    response.writeHead(200, { 'Content-Type': 'application/json' });
    response.end(`${JSON.stringify(message)}\n`);
  }

  private allowed(topic: string, auth: string | null, response: ServerResponse): boolean {
    const tokens = this.protectedTopics.get(topic);
    if (tokens === undefined) return true;
    const token = auth?.startsWith('Bearer ') === true ? auth.slice(7) : null;
    if (token === null || !/^tk_/.test(token)) {
      this.error(response, 401, 'unauthorized');
      return false;
    }
    if (!tokens.has(token)) {
      this.error(response, 403, 'forbidden');
      return false;
    }
    return true;
  }

  private subscribe(topic: string, since: string | null, response: ServerResponse): void {
    response.writeHead(200, { 'Content-Type': 'application/x-ndjson; charset=utf-8' });
    const now = Math.floor(Date.now() / 1000);
    response.write(`${JSON.stringify({ id: randomBytes(6).toString('base64url'), time: now, event: 'open', topic })}\n`);
    if (since !== null) {
      const cached = this.messages.filter((message) => message.topic === topic);
      // since=all, since=<unix time> (messages from then on), or since=<message id> (those after it).
      const after = /^\d+$/.test(since)
        ? cached.filter((message) => message.time >= Number(since))
        : cached.slice(since === 'all' ? 0 : cached.findIndex((message) => message.id === since) + 1);
      for (const message of after) response.write(`${JSON.stringify(message)}\n`);
    }
    response.write(`${JSON.stringify({ id: randomBytes(6).toString('base64url'), time: now, event: 'keepalive', topic })}\n`);
    const entry = { topic, response };
    this.streams.add(entry);
    response.on('close', () => this.streams.delete(entry));
  }

  private error(response: ServerResponse, status: number, error: string): void {
    response.writeHead(status, { 'Content-Type': 'application/json' });
    response.end(JSON.stringify({ code: status * 100, http: status, error }));
  }
}
