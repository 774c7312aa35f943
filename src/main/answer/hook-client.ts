// The answering hook, as the agent runs it (`lookout hook <provider>-answer`, from the sh shim
// once it saw a Lookout running): it brings the prompt to Lookout and waits on the same
// connection. It fails open: no Lookout, a refused or broken connection, a malformed reply, its
// own time limit — it prints nothing and exits 0, and the agent's own prompt decides. It never
// exits 2 and never allows on its own (R74).
import { createConnection } from 'node:net';
import type { AnswerHook } from '../../providers/answer-hook';
import type { JsonRecord } from '../../providers/jsonl/parse-record';
import { folderProblem, readToken, socketAt } from '../../providers/system/channel-checks';
import { readLines, sendLine } from './lines';
import { runFolder, socketPath, tokenPath } from './paths';
import type { Decision, RequestDraft } from './protocol';
import { serverMessageSchema } from './protocol';

const isRecord = (value: unknown): value is JsonRecord => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The agent's payload, when it is a JSON object. */
export function parsePayload(text: string): JsonRecord | null {
  try {
    const value: unknown = JSON.parse(text);
    return isRecord(value) ? value : null;
  } catch {
    return null;
  }
}

/**
 * Waits for the decision on the prompt in `payload`; resolves with what to print (empty for
 * none). `wait` bounds it, kept below the agent's own time limit for the hook.
 */
export function askLookout(home: string, hook: AnswerHook, payload: JsonRecord, wait = hook.wait): Promise<string> {
  // The provider's draft is the channel's (the protocol's schema): a drift fails to compile here.
  const draft: RequestDraft | null = hook.read(payload);
  if (draft === null || folderProblem(runFolder(home)) !== null || socketAt(socketPath(home)).kind !== 'socket') return Promise.resolve('');
  const token = readToken(tokenPath(home));
  if (token === null) return Promise.resolve('');
  return new Promise((resolve) => {
    let done = false;
    const connection = createConnection(socketPath(home));
    const finish = (decision: Decision | null): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      connection.destroy();
      resolve(decision === null ? '' : hook.reply(decision, payload));
    };
    const timer = setTimeout(() => finish(null), wait);
    connection.on('error', () => finish(null));
    connection.on('close', () => finish(null));
    connection.on('connect', () => sendLine(connection, { type: 'request', token, pid: process.pid, draft, serial: hook.mode === 'serial', wait }));
    readLines(connection, (value) => {
      const parsed = serverMessageSchema.safeParse(value);
      if (!parsed.success) return finish(null);
      switch (parsed.data.type) {
        case 'pending':
          return;
        case 'decision':
          return finish(parsed.data.decision);
        case 'release':
        case 'result':
          return finish(null);
      }
    });
  });
}
