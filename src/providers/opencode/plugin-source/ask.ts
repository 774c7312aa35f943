// One prompt brought to a running Lookout over its private socket (the answer channel), for code
// that runs inside an agent (opencode's plugin, Pi's extension): the decision when the person
// answers from Lookout, null when there is no Lookout, it lets go, or the wait ends. Never throws.
import type { Socket } from 'node:net';
import { ANSWER_LINE_MAX_BYTES } from '../../../engine/answer-caps';
import type { AnswerDraft } from '../../answer-hook';
import { channelToken, socketFile } from './channel';
import type { Bag } from './config';
import { bag } from './config';

export interface Asked {
  /** The person's decision from Lookout, or null (no Lookout, let go, timed out). */
  decision: Promise<Bag | null>;
  /** The prompt was answered elsewhere (the agent's own prompt): Lookout is told, and lets its request go. */
  answeredElsewhere(): void;
}

const NOT_ASKED: Asked = { decision: Promise.resolve(null), answeredElsewhere: () => undefined };

/** Brings the draft to Lookout for at most `waitMs`; nothing is asked without a running Lookout. */
export function ask(draft: AnswerDraft, waitMs: number): Asked {
  const token = channelToken();
  if (token === null || draft.sessionId === '' || draft.agentRequest === '' || draft.agentRequest === null) return NOT_ASKED;
  let socket: Socket | null = null;
  let request: string | null = null;
  let settle: (decision: Bag | null) => void = () => undefined;
  const decision = new Promise<Bag | null>((resolve) => {
    settle = resolve;
  });
  const done = (answer: Bag | null): void => {
    clearTimeout(timer);
    settle(answer);
    socket?.destroy();
  };
  const timer = setTimeout(() => done(null), waitMs);
  import('node:net')
    .then(({ createConnection }) => {
      const connection = createConnection(socketFile());
      socket = connection;
      let buffer = '';
      connection.on('error', () => done(null));
      connection.on('close', () => done(null));
      connection.on('connect', () => connection.write(`${JSON.stringify({ type: 'request', token, pid: process.pid, draft, serial: false, wait: waitMs })}\n`));
      connection.setEncoding('utf8');
      connection.on('data', (chunk: string) => {
        buffer += chunk;
        if (buffer.length > ANSWER_LINE_MAX_BYTES) return done(null);
        let newline: number;
        while ((newline = buffer.indexOf('\n')) !== -1) {
          const line = buffer.slice(0, newline);
          buffer = buffer.slice(newline + 1);
          let message: Bag | null;
          try {
            message = bag(JSON.parse(line));
          } catch {
            return done(null);
          }
          const given = bag(message?.decision);
          if (message?.type === 'pending' && typeof message.request === 'string') request = message.request;
          else if (message?.type === 'decision' && given !== null && typeof given.behavior === 'string') return done(given);
          else return done(null);
        }
        return undefined;
      });
    })
    .catch(() => done(null));
  return {
    decision,
    answeredElsewhere: () => {
      const connection = socket;
      clearTimeout(timer);
      settle(null);
      if (connection === null) return;
      // Not connected yet: Lookout never saw the request, so there is nothing to tell.
      if (connection.connecting) {
        connection.destroy();
        return;
      }
      try {
        // Lookout's id when its "pending" came; else it knows the request by this connection.
        connection.write(`${JSON.stringify(request !== null ? { type: 'resolved', token, request } : { type: 'resolved', token })}\n`);
      } catch {
        // A connection gone already: Lookout lets the request go on its own.
      }
      connection.end();
    },
  };
}
