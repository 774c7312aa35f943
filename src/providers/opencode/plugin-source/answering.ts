// The answering part of the plugin (issue 23): a permission or a question opencode asks is brought
// to a running Lookout over its private socket; the person's answer comes back through opencode's
// own reply routes, beside the TUI's prompt (the first reply wins; a late one is a harmless "not
// found"). Everything here fails quietly: opencode's own prompt always decides then.
import type { Socket } from 'node:net';
import { ANSWER_LINE_MAX_BYTES } from '../../../engine/answer-caps';
import { channelToken, socketFile } from './channel';
import type { Bag } from './config';
import { bag } from './config';
import { draftOf } from './draft';
import { reply } from './reply';

// How long a request waits for the person: below what opencode's prompt is kept for.
const WAIT_MS = 570_000;

interface Held {
  socket: Socket;
  token: string;
  /** Lookout's id, once its "pending" came. */
  request: string | null;
}

const held = new Map<string, Held>();

async function askLookout(client: unknown, type: string, p: Bag): Promise<void> {
  const token = channelToken();
  const draft = token === null ? null : draftOf(type, p);
  if (token === null || draft === null || draft.sessionId === '' || draft.agentRequest === '' || draft.agentRequest === null) return;
  const agentRequest = draft.agentRequest;
  const { createConnection } = await import('node:net');
  const socket = createConnection(socketFile());
  const entry: Held = { socket, token, request: null };
  held.set(agentRequest, entry);
  let buffer = '';
  const done = (): void => {
    clearTimeout(timer);
    held.delete(agentRequest);
    socket.destroy();
  };
  const timer = setTimeout(done, WAIT_MS);
  socket.on('error', done);
  socket.on('close', done);
  socket.on('connect', () => socket.write(`${JSON.stringify({ type: 'request', token, pid: process.pid, draft, serial: false, wait: WAIT_MS })}\n`));
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    buffer += chunk;
    if (buffer.length > ANSWER_LINE_MAX_BYTES) return done();
    let newline: number;
    while ((newline = buffer.indexOf('\n')) !== -1) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      let message: Bag | null;
      try {
        message = bag(JSON.parse(line));
      } catch {
        return done();
      }
      const decision = bag(message?.decision);
      if (message?.type === 'pending' && typeof message.request === 'string') entry.request = message.request;
      else if (message?.type === 'decision' && decision !== null && typeof decision.behavior === 'string') {
        done();
        reply(client, type, agentRequest, decision).catch(() => undefined);
      } else return done();
    }
    return undefined;
  });
}

// Answered in the TUI (or anywhere): Lookout is told, and lets its request go.
function answeredElsewhere(p: Bag): void {
  const id = typeof p.requestID === 'string' ? p.requestID : '';
  const entry = held.get(id);
  if (entry === undefined) return;
  held.delete(id);
  // Not connected yet: Lookout never saw the request, so there is nothing to tell.
  if (entry.socket.connecting) {
    entry.socket.destroy();
    return;
  }
  try {
    // Lookout's id when its "pending" came; else it knows the request by this connection.
    entry.socket.write(
      `${JSON.stringify(entry.request !== null ? { type: 'resolved', token: entry.token, request: entry.request } : { type: 'resolved', token: entry.token })}\n`,
    );
  } catch {
    // A connection gone already: Lookout lets the request go on its own.
  }
  entry.socket.end();
}

/** Brings an asked prompt to Lookout, or tells it one was answered elsewhere; never throws. */
export function answering(client: unknown, event: Bag): void {
  try {
    const p = bag(event.properties) ?? {};
    if (event.type === 'permission.asked' || event.type === 'question.asked') askLookout(client, event.type, p).catch(() => undefined);
    else if (event.type === 'permission.replied' || event.type === 'question.replied' || event.type === 'question.rejected') answeredElsewhere(p);
  } catch {
    // Lookout must never get in opencode's way.
  }
}
