// Pi's dialogs as Lookout sees them. Pi never asks before a tool call itself; an extension of the
// person's may, through `ctx.ui.select` or `ctx.ui.confirm`. Every extension's `ctx.ui` is one
// object (Pi's runner hands the same one to all), so Lookout's extension wraps those two methods
// there: each dialog is told to Lookout's spool as it opens and closes, and brought to a running
// Lookout to be answered, while Pi's own dialog stays up. The first answer wins; an answer from
// Lookout closes Pi's dialog through the signal Pi's dialogs honour. Anything odd: Pi's dialog
// alone decides, as it would without Lookout.
import { createHash, randomUUID } from 'node:crypto';
import { ANSWER_LABEL_MAX, ANSWER_OPTIONS_MAX, ANSWER_QUESTION_MAX, ANSWER_TEXT_MAX, ANSWER_WORD_MAX } from '../../../engine/answer-caps';
import type { AnswerDraft } from '../../answer-hook';
import { ask } from '../../opencode/plugin-source/ask';
import type { Bag } from '../../opencode/plugin-source/config';
import { bag } from '../../opencode/plugin-source/config';
import { appendPayload } from '../../opencode/plugin-source/spool-line';

// How long a dialog is offered to Lookout: Pi's dialogs have no time limit of their own.
const WAIT_MS = 570_000;
const WRAPPED = Symbol.for('lookout.pi.dialog');
// The spool's own cut for a field's words: enough for every line Lookout shows.
const SPOOL_TEXT_MAX = 500;

/** The tool call Pi is preparing or running now (its dialogs come from a `tool_call` handler). */
let call: { id: string; tool: string; input: unknown } | null = null;

export function callStarted(event: Bag | null): void {
  if (event === null || typeof event.toolCallId !== 'string') return;
  call = { id: event.toolCallId, tool: typeof event.toolName === 'string' ? event.toolName : 'tool', input: event.args ?? null };
}

export function callEnded(event: Bag | null): void {
  if (event !== null && call !== null && event.toolCallId === call.id) call = null;
}

interface Session {
  id: string;
  cwd: string | null;
}

function sessionOf(ctx: Bag): Session | null {
  const manager = bag(ctx.sessionManager);
  const getId = manager?.getSessionId;
  if (manager === null || typeof getId !== 'function') return null;
  const id: unknown = Reflect.apply(getId, manager, []);
  const cwd = ctx.cwd;
  return typeof id === 'string' && id !== '' ? { id, cwd: typeof cwd === 'string' ? cwd : null } : null;
}

function spool(type: string, session: Session, fields: Bag): void {
  try {
    appendPayload(JSON.stringify({ type, sessionId: session.id, cwd: session.cwd, ...fields }));
  } catch {
    // Lookout must never get in Pi's way.
  }
}

const words = (value: unknown, max: number): string => (typeof value === 'string' ? value.slice(0, max) : '');

/** The draft of a dialog Lookout can answer whole; null for one it cannot show whole (answered in Pi only). */
function draftOf(session: Session, kind: 'select' | 'confirm', request: string, title: string, detail: string, options: readonly string[]): AnswerDraft | null {
  const text = kind === 'confirm' && detail !== '' ? `${title}\n\n${detail}` : title;
  if (text.length > ANSWER_TEXT_MAX || title.length > ANSWER_QUESTION_MAX) return null;
  if (kind === 'select' && (options.length === 0 || options.length > ANSWER_OPTIONS_MAX || options.some((label) => label.length > ANSWER_LABEL_MAX)))
    return null;
  const base = {
    provider: 'pi',
    sessionId: session.id.slice(0, ANSWER_WORD_MAX),
    agentId: null,
    agentRequest: request,
    // The answer is bound to the dialog and the call it is about, every field.
    whole: createHash('sha256')
      .update(JSON.stringify({ kind, title, detail, options, call }) || '')
      .digest('hex'),
    tool: (call?.tool ?? 'dialog').slice(0, ANSWER_WORD_MAX),
    text,
    hidden: 0,
  };
  if (kind === 'confirm') return { ...base, prompt: 'approval', questions: [] };
  return {
    ...base,
    prompt: 'question',
    questions: [{ question: title, header: null, multiple: false, options: options.map((label) => ({ label, description: null })) }],
  };
}

/** The value Pi's dialog would have given for Lookout's decision; undefined when the decision does not fit it. */
function answerValue(kind: 'select' | 'confirm', decision: Bag, options: readonly string[]): { value: unknown } | undefined {
  if (kind === 'confirm') return decision.behavior === 'allow' ? { value: true } : decision.behavior === 'deny' ? { value: false } : undefined;
  if (decision.behavior === 'deny') return { value: undefined };
  const first = Array.isArray(decision.answers) && Array.isArray(decision.answers[0]) ? decision.answers[0][0] : undefined;
  return typeof first === 'string' && options.includes(first) ? { value: first } : undefined;
}

type Dialog = (...args: unknown[]) => Promise<unknown>;

/** The session whose start came last: a dialog belongs to it (a /new or /resume starts another). */
let latest: Bag | null = null;

function currentSession(): Session | null {
  try {
    return latest === null ? null : sessionOf(latest);
  } catch {
    // A context Pi has retired: no session to name.
    return null;
  }
}

interface Prepared {
  session: Session;
  request: string;
  title: string;
  detail: string;
  options: string[];
  own: AbortController;
  piArgs: unknown[];
}

/** What Lookout needs of a dialog call, or null to leave it to Pi alone. */
function prepare(kind: 'select' | 'confirm', args: readonly unknown[]): Prepared | null {
  const session = currentSession();
  const [title, second, third] = args;
  if (session === null || typeof title !== 'string') return null;
  const options = kind === 'select' && Array.isArray(second) ? second.filter((item): item is string => typeof item === 'string') : [];
  if (kind === 'select' && (!Array.isArray(second) || options.length !== second.length)) return null;
  const given = bag(third);
  // Pi's own dialog, closable by Lookout's answer (and still by the caller's own signal).
  const own = new AbortController();
  const callerSignal = given?.signal;
  if (callerSignal instanceof AbortSignal) {
    if (callerSignal.aborted) own.abort();
    else callerSignal.addEventListener('abort', () => own.abort(), { once: true });
  }
  return {
    session,
    request: randomUUID(),
    title: title.slice(0, ANSWER_TEXT_MAX + 1),
    detail: kind === 'confirm' ? words(second, ANSWER_TEXT_MAX + 1) : '',
    options,
    own,
    piArgs: [title, second, { ...(given ?? {}), signal: own.signal }],
  };
}

/** Pi's dialog, offered to Lookout too: the first answer wins. */
function wrapped(ui: Bag, kind: 'select' | 'confirm', original: Dialog): Dialog {
  const dialog = async (...args: unknown[]): Promise<unknown> => {
    let prepared: Prepared | null = null;
    try {
      prepared = prepare(kind, args);
    } catch {
      prepared = null;
    }
    if (prepared === null) return Reflect.apply(original, ui, args);
    const { session, request, title, detail, options, own, piArgs } = prepared;
    spool('dialog.open', session, {
      request,
      kind,
      title: words(title, SPOOL_TEXT_MAX),
      tool: call?.tool ?? null,
      options: options.slice(0, 8).map((label) => words(label, 100)),
    });
    let asked: ReturnType<typeof ask> | null = null;
    try {
      const draft = draftOf(session, kind, request, title, detail, options);
      asked = draft === null ? null : ask(draft, WAIT_MS);
    } catch {
      asked = null;
    }
    const fromPi = Promise.resolve(Reflect.apply(original, ui, piArgs)).then((value: unknown) => ({ from: 'pi' as const, value }));
    const fromLookout = (asked?.decision ?? Promise.resolve(null)).then((decision) => {
      const value = decision === null || own.signal.aborted ? undefined : answerValue(kind, decision, options);
      // No usable answer from Lookout: Pi's dialog alone decides.
      return value === undefined ? new Promise<never>(() => undefined) : { from: 'lookout' as const, value: value.value };
    });
    try {
      const winner = await Promise.race([fromPi, fromLookout]);
      if (winner.from === 'pi') asked?.answeredElsewhere();
      else own.abort();
      spool('dialog.closed', session, { request, by: winner.from });
      return winner.value;
    } catch (error) {
      asked?.answeredElsewhere();
      spool('dialog.closed', session, { request, by: 'pi' });
      throw error;
    }
  };
  Object.defineProperty(dialog, WRAPPED, { value: true });
  return dialog;
}

/** At each session's start: the dialogs of Pi's shared UI wrapped once (a /reload binds new ones). */
export function watchDialogs(given: unknown): void {
  const ctx = bag(given);
  if (ctx === null || ctx.hasUI !== true) return;
  latest = ctx;
  const ui = bag(ctx.ui);
  if (ui === null) return;
  for (const kind of ['select', 'confirm'] as const) {
    const original = ui[kind];
    if (typeof original !== 'function' || Reflect.get(original, WRAPPED) === true) continue;
    Reflect.set(ui, kind, wrapped(ui, kind, original as Dialog));
  }
}
