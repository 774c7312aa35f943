// `lookout serve`: the popover as a local web page on 127.0.0.1, for Linux and remote (SSH
// port-forward) users, and for testing the popover in a real browser. State streams as
// Server-Sent Events; commands come back as JSON, validated by the same contract as IPC.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { PopoverHost } from '../popover/popover-host';
import type { Guard } from './guard';
import { hasToken, refuse } from './guard';

const MAX_BODY = 64 * 1024;
const HEARTBEAT_MS = 15_000;
/** A client that has read nothing for this long is closed (a browser tab reads at once). */
const STALL_MS = 60_000;
const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const STATIC: Record<string, { file: string; type: string }> = {
  '/app.js': { file: 'app.js', type: 'text/javascript; charset=utf-8' },
  '/popover.css': { file: 'popover.css', type: 'text/css; charset=utf-8' },
};

function send(response: ServerResponse, status: number, type: string, body: string | Buffer): void {
  response.writeHead(status, {
    'content-type': type,
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'content-security-policy': CSP,
  });
  response.end(body);
}

function json(response: ServerResponse, status: number, value: unknown): void {
  send(response, status, 'application/json; charset=utf-8', JSON.stringify(value));
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let size = 0;
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) {
        reject(new Error('body too large'));
        request.destroy();
      } else chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

/** The part of a response an event stream uses. */
export interface StreamSink {
  write(chunk: string): boolean;
  on(event: 'drain', listener: () => void): unknown;
  off(event: 'drain', listener: () => void): unknown;
  destroy(): unknown;
}

/**
 * One event-stream client that may stop reading: while the socket is full, only the newest state
 * waits (older ones are dropped, each superseded), and a client stalled past STALL_MS is closed.
 * Memory per client stays at one state, however slow the reader.
 */
export class LatestOnly {
  private waiting: string | null = null;
  private stalledSince: number | null = null;
  private readonly onDrain = (): void => {
    const next = this.waiting;
    this.waiting = null;
    this.stalledSince = null;
    if (next !== null) this.send(next);
  };

  constructor(
    private readonly response: StreamSink,
    private readonly clock: () => number = Date.now,
  ) {
    response.on('drain', this.onDrain);
  }

  send(event: string): void {
    if (this.stalledSince !== null) {
      this.waiting = event;
      return;
    }
    if (!this.response.write(event)) this.stalledSince = this.clock();
  }

  /** The heartbeat: a comment line to a reading client; a client stalled too long is closed. */
  beat(): void {
    if (this.stalledSince === null) {
      // A beat that fills the socket starts the stall clock too: a client may stop reading while no state changes.
      if (!this.response.write(': beat\n\n')) this.stalledSince = this.clock();
    } else if (this.clock() - this.stalledSince > STALL_MS) this.response.destroy();
  }

  dispose(): void {
    this.response.off('drain', this.onDrain);
    this.waiting = null;
  }
}

export interface ServeHandle {
  url: string;
  close(): Promise<void>;
}

export async function startServer(host: PopoverHost, assets: string, port: number): Promise<ServeHandle> {
  const token = randomBytes(24).toString('base64url');
  const guard: Guard = { token, port: 0 };
  const page = readFileSync(join(assets, 'index.html'), 'utf8');
  const streams = new Set<ServerResponse>();

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const url = new URL(request.url ?? '/', `http://127.0.0.1:${guard.port}`);
    const route = `${request.method ?? 'GET'} ${url.pathname}`;
    const asset = request.method === 'GET' ? STATIC[url.pathname] : undefined;
    // The page and its assets are the same for everyone: a reload without the token (which left
    // the address bar) still loads them; the page then takes the token from its session storage.
    const refused = refuse(request, url, guard, !(route === 'GET /' || asset !== undefined), route === 'GET /events');
    if (refused !== null) return json(response, refused.status, { ok: false, error: refused.reason });
    if (route === 'GET /') {
      // The token travels in the page; the page sends it in a header, and in the query only for the
      // event stream (EventSource cannot set headers).
      const html = hasToken(request, url, guard, true)
        ? page.replace('<meta name="lookout-token" content="" />', `<meta name="lookout-token" content="${token}" />`)
        : page;
      return send(response, 200, 'text/html; charset=utf-8', html);
    }
    if (asset !== undefined) return send(response, 200, asset.type, readFileSync(join(assets, asset.file)));
    if (route === 'GET /events') {
      response.writeHead(200, {
        'content-type': 'text/event-stream',
        'cache-control': 'no-store',
        connection: 'keep-alive',
        'x-content-type-options': 'nosniff',
      });
      streams.add(response);
      const stream = new LatestOnly(response);
      const unsubscribe = host.subscribe((state) => stream.send(`data: ${JSON.stringify(state)}\n\n`));
      const heartbeat = setInterval(() => stream.beat(), HEARTBEAT_MS);
      request.on('close', () => {
        clearInterval(heartbeat);
        stream.dispose();
        unsubscribe();
        streams.delete(response);
        // The last page closed: nothing is on screen any more (R40, §5).
        if (streams.size === 0) void host.command({ type: 'select', key: null });
      });
      return;
    }
    if (route === 'GET /explain') {
      const explanation = host.explain({ key: url.searchParams.get('key') });
      return explanation === null ? json(response, 404, { ok: false, error: 'no such session' }) : json(response, 200, explanation);
    }
    if (route === 'POST /command') {
      if (!(request.headers['content-type'] ?? '').startsWith('application/json')) return json(response, 415, { ok: false, error: 'commands are JSON' });
      let body: unknown;
      try {
        body = JSON.parse(await readBody(request));
      } catch (error) {
        return json(response, 400, { ok: false, error: error instanceof Error ? error.message : 'bad body' });
      }
      const result = await host.command(body);
      return json(response, result.ok ? 200 : 400, result);
    }
    return json(response, 404, { ok: false, error: 'not found' });
  };

  const server: Server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => json(response, 500, { ok: false, error: error instanceof Error ? error.message : String(error) }));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  guard.port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${guard.port}/?token=${token}`,
    close: () =>
      new Promise((resolve) => {
        for (const stream of streams) stream.end();
        server.close(() => resolve());
      }),
  };
}
