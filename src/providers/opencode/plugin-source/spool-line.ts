// The spool part of the plugin: one line per event Lookout reads, only the fields it reads (a
// permission's metadata can hold a whole diff), one append; a line cut short before is ended first.
import { appendFileSync, closeSync, mkdirSync, openSync, readSync, renameSync, statSync } from 'node:fs';
import { PAYLOAD_MAX_BYTES, SPOOL_ROTATE_BYTES } from '../../hooks/spool-format';
import type { Bag } from './config';
import { bag, config } from './config';
import { OPENCODE_PLUGIN_EVENTS } from './events';

const HEARD: ReadonlySet<unknown> = new Set<string>(OPENCODE_PLUGIN_EVENTS);
// The spool's own cut for a field's words: enough for every line Lookout shows.
const SPOOL_TEXT_MAX = 500;
const text = (value: unknown): string | undefined => (typeof value === 'string' ? value.slice(0, SPOOL_TEXT_MAX) : undefined);

// Only what Lookout reads: ids, what is asked, the status, an error's name and message.
function pick(p: Bag): Bag {
  const given = bag(p.status);
  const status = given !== null ? { type: text(given.type), attempt: given.attempt, message: text(given.message) } : undefined;
  const failed = bag(p.error);
  const error = failed !== null ? { name: text(failed.name), data: { message: text(bag(failed.data)?.message) } } : undefined;
  const questions = Array.isArray(p.questions)
    ? p.questions.slice(0, 3).map((q: unknown) => ({ question: text(bag(q)?.question), header: text(bag(q)?.header) }))
    : undefined;
  const patterns = Array.isArray(p.patterns) ? p.patterns.slice(0, 5).map((item: unknown) => text(item)) : undefined;
  return {
    sessionID: text(p.sessionID),
    id: text(p.id),
    requestID: text(p.requestID),
    permissionID: text(p.permissionID),
    permission: text(p.permission),
    type: text(p.type),
    pattern: text(p.pattern),
    patterns,
    title: text(p.title),
    reply: text(p.reply),
    response: text(p.response),
    questions,
    status,
    error,
  };
}

// A line cut short before (a full disk) is ended first, so this one stands on its own.
function endsClean(file: string): boolean {
  let fd: number | undefined;
  try {
    const size = statSync(file).size;
    if (size === 0) return true;
    if (size > SPOOL_ROTATE_BYTES) {
      renameSync(file, `${file}.1`);
      return true;
    }
    fd = openSync(file, 'r');
    const last = Buffer.alloc(1);
    readSync(fd, last, 0, 1, size - 1);
    return last[0] === 10;
  } catch {
    return true;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Appends one payload to this install's spool file as a hook line (an agent's in-process plugin); throws on failure. */
export function appendPayload(payload: string): void {
  if (payload.length > PAYLOAD_MAX_BYTES) return;
  const { spool, file, provider } = config();
  const line = `{"payload":${payload},"provider":${JSON.stringify(provider)},"at":${Date.now()},"precision":"ms","channel":"hook"}\n`;
  mkdirSync(spool, { recursive: true, mode: 0o700 });
  appendFileSync(file, (endsClean(file) ? '' : '\n') + line, { mode: 0o600 });
}

/** Appends the event's line when it is one Lookout reads; never throws. */
export function spoolEvent(event: Bag | null, directory: unknown): void {
  try {
    if (event === null || !HEARD.has(event.type)) return;
    appendPayload(
      JSON.stringify({
        type: event.type,
        properties: pick(bag(event.properties) ?? {}),
        directory: typeof directory === 'string' ? directory : null,
      }),
    );
  } catch {
    // Lookout must never get in opencode's way.
  }
}
