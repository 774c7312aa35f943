// The prompts hooks bring to the running Lookout, held until the person answers, lets them go to
// the terminal, or the agent moves on (R70–R75). An answer is carried out only for the request it
// names, with the digest it was shown, while the row still shows it; anything else is refused
// with the reason and nothing reaches the agent. Lookout never answers on its own (R74).
import { createHash, randomBytes } from 'node:crypto';
import type { Socket } from 'node:net';
import type { AnswerRequest, AnswerView } from '../../engine';
import { sessionKey } from '../../engine';
import { sendLine } from './lines';
import type { AnswerFrom, ClientMessage, Decision, RequestDraft, ResultMessage } from './protocol';

/** A request that did not show as the row's prompt this long after it came has been answered elsewhere. */
export const SETTLE_MS = 3000;

export interface HeldRequest {
  key: string;
  provider: string;
  sessionId: string;
  request: AnswerRequest;
  draft: RequestDraft;
  /** The waiting hook's connection; null once it is gone. */
  hook: Socket | null;
  /** The hook event the row showed it on, once it did: anything after it means the prompt moved on. */
  askedAt: number | null;
}

/** What the audit keeps of an answer (R75). */
export interface AnswerRecord {
  key: string;
  request: string;
  requestAt: number;
  tool: string;
  shown: string;
  /** Characters of the whole text not in `shown` (issue 47: the audit says what no one saw). */
  hidden: number;
  digest: string;
  answer: 'allow' | 'deny' | 'options' | 'released' | 'elsewhere' | 'expired';
  message: string | null;
  options: string[];
  from: AnswerFrom | 'terminal' | 'agent' | null;
  /** The phone channel it came through (R95): "ntfy ntfy.sh/abcd…"; absent for every other answer. */
  channel?: string;
  at: number;
}

export interface BrokerOptions {
  clock: () => number;
  /** The row's view of its prompt as last evaluated (R70, R72). */
  viewOf: (key: string) => AnswerView | null;
  /** Whether the session did something after the request came (a hook event, a record): see movedOnSince. */
  movedOn: (key: string, request: AnswerRequest, askedAt: number | null) => boolean;
  /** The held requests changed: written for every Lookout process, and evaluated. */
  onChange: () => void;
  onAnswer: (record: AnswerRecord) => void;
}

export type AnswerAttempt = { request: string; digest: string; decision: Decision; from: AnswerFrom; via: 'key' | 'click' | 'command'; channel?: string };

/** What is shown and the whole input it stands for, digested: an answer carries the same or is refused (R71). */
export function requestDigest(draft: Pick<RequestDraft, 'tool' | 'text' | 'questions' | 'hidden' | 'whole'>): string {
  return createHash('sha256')
    .update(JSON.stringify([draft.tool, draft.text, draft.questions, draft.hidden, draft.whole]))
    .digest('hex');
}

function decisionWords(decision: Decision): { answer: AnswerRecord['answer']; message: string | null; options: string[]; label: string } {
  switch (decision.behavior) {
    case 'allow':
      return { answer: 'allow', message: null, options: [], label: 'allowed' };
    case 'deny':
      return { answer: 'deny', message: decision.message, options: [], label: 'denied' };
    case 'answers': {
      const options = decision.answers.map((labels) => labels.join(', '));
      return { answer: 'options', message: null, options, label: options.join('; ') };
    }
  }
}

/** Why this decision does not fit this prompt, or null: a question gets its answers, an approval allow or deny. */
function decisionProblem(request: AnswerRequest, decision: Decision): string | null {
  if (request.prompt === 'approval') return decision.behavior === 'answers' ? 'this prompt asks for allow or deny, not options' : null;
  if (decision.behavior === 'allow') return 'a question is answered with its options, never a bare allow';
  if (decision.behavior === 'deny') return null;
  if (decision.answers.length !== request.questions.length)
    return `the prompt has ${request.questions.length} question(s); ${decision.answers.length} answer(s) given`;
  for (const [index, question] of request.questions.entries()) {
    const chosen = decision.answers[index] ?? [];
    if (chosen.length === 0) return `question ${index + 1} has no answer`;
    if (!question.multiple && chosen.length > 1) return `question ${index + 1} takes one option`;
    const labels = new Set(question.options.map((option) => option.label));
    const unknown = chosen.find((label) => !labels.has(label));
    if (unknown !== undefined) return `"${unknown}" is not an option of question ${index + 1}`;
  }
  return null;
}

export class AnswerBroker {
  private readonly held = new Map<string, HeldRequest>();

  constructor(private readonly options: BrokerOptions) {}

  /** Every request held, open and recently closed. */
  get requests(): readonly HeldRequest[] {
    return [...this.held.values()];
  }

  /** A message from the channel (already checked for its token). */
  message(message: ClientMessage, socket: Socket): void {
    switch (message.type) {
      case 'request':
        this.open(message.draft, message.serial, message.wait, socket);
        return;
      case 'resolved':
        if (message.request !== undefined) this.close(message.request, 'elsewhere', null, 'agent');
        else for (const held of [...this.held.values()]) if (held.hook === socket) this.close(held.request.id, 'elsewhere', null, 'agent');
        return;
      case 'answer':
        sendLine(socket, this.answer(message));
        socket.end();
        return;
      case 'release':
        sendLine(socket, this.release(message.request, message.from));
        socket.end();
        return;
      case 'snapshot':
      case 'status':
        // The service answers it (it holds the runtime's rows); a broker alone has none to give.
        socket.end();
        return;
    }
  }

  private open(draft: RequestDraft, serial: boolean, wait: number, hook: Socket): void {
    const now = this.options.clock();
    const id = `req_${randomBytes(12).toString('hex')}`;
    const request: AnswerRequest = {
      id,
      at: now,
      source: `${draft.provider}.answer`,
      agentId: draft.agentId,
      prompt: draft.prompt,
      tool: draft.tool,
      text: draft.text,
      hidden: draft.hidden,
      digest: requestDigest(draft),
      questions: draft.questions,
      serial,
      deadline: now + wait,
      closed: null,
    };
    this.held.set(id, {
      key: sessionKey(draft.provider, draft.sessionId),
      provider: draft.provider,
      sessionId: draft.sessionId,
      request,
      draft,
      hook,
      askedAt: null,
    });
    sendLine(hook, { type: 'pending', request: id });
    this.options.onChange();
  }

  /** R71, R72, R70 in that order; then the decision goes to the waiting hook and is recorded (R75). */
  answer(attempt: AnswerAttempt): ResultMessage {
    const refused = (error: string) => ({ type: 'result' as const, ok: false, error });
    const held = this.held.get(attempt.request);
    if (held === undefined) return refused('no such request: it was answered, let go or has gone');
    const { request } = held;
    if (request.closed !== null)
      return refused(
        request.closed.how === 'answered'
          ? 'this prompt was already answered from Lookout'
          : request.closed.how === 'elsewhere'
            ? 'this prompt was answered in the terminal'
            : 'this prompt is no longer waiting for Lookout',
      );
    if (attempt.digest !== request.digest) return refused('the prompt changed since it was shown; nothing was sent');
    // Never an answer to more than was shown (issue 47): a prompt too long to show whole is the terminal's.
    if (request.hidden > 0) return refused(`the prompt is too long to show whole (${String(request.hidden)} characters not shown): answer it in the terminal`);
    const view = this.options.viewOf(held.key);
    if (view?.state !== 'open' || view.request.id !== request.id)
      return refused(view?.state === 'unavailable' ? view.why : 'this prompt is not the one the session shows now; nothing was sent');
    const now = this.options.clock();
    if (attempt.via !== 'click' && now < view.keysFrom)
      return refused(
        `the prompt appeared ${Math.round((now - request.at) / 100) / 10} s ago; a key or command answers it after ${Math.round((view.keysFrom - request.at) / 1000)} s (a click on the card can now)`,
      );
    const problem = decisionProblem(request, attempt.decision);
    if (problem !== null) return refused(problem);
    if (held.hook === null || held.hook.destroyed) return refused("the agent's hook is gone: answer in the terminal");
    sendLine(held.hook, { type: 'decision', decision: attempt.decision });
    const words = decisionWords(attempt.decision);
    this.finish(held, 'answered', words.label, attempt.from, now);
    this.options.onAnswer({
      ...this.recordBase(held, now),
      answer: words.answer,
      message: words.message,
      options: words.options,
      from: attempt.from,
      ...(attempt.channel === undefined ? {} : { channel: attempt.channel }),
    });
    return { type: 'result', ok: true };
  }

  /** "Answer in terminal": the hook leaves at once with no decision; the agent's prompt decides. */
  release(id: string, from: AnswerFrom): ResultMessage {
    const held = this.held.get(id);
    if (held === undefined || held.request.closed !== null) return { type: 'result', ok: false, error: 'this prompt is no longer waiting for Lookout' };
    this.close(id, 'released', null, from);
    return { type: 'result', ok: true };
  }

  /** The hook's connection closed: its wait ended (its own time limit, or the agent stopped it). */
  hookGone(socket: Socket): void {
    for (const held of this.held.values()) {
      if (held.hook !== socket) continue;
      held.hook = null;
      if (held.request.closed === null) this.close(held.request.id, 'expired', null, null);
    }
  }

  /**
   * After each evaluation: a request the row no longer shows (answered in the terminal, the turn
   * moved on) is let go, and so is one past its deadline; closed ones are forgotten after the hold.
   */
  reconcile(answeredHold: number): void {
    const now = this.options.clock();
    let changed = false;
    for (const held of [...this.held.values()]) {
      const { request } = held;
      if (request.closed !== null) {
        if (now >= request.closed.at + answeredHold) {
          this.held.delete(request.id);
          changed = true;
        }
        continue;
      }
      if (now >= request.deadline) {
        this.close(request.id, 'expired', null, null);
        continue;
      }
      const view = this.options.viewOf(held.key);
      if (view?.state === 'open' && view.request.id === request.id) {
        held.askedAt = view.askedAt;
        // The grace ends where the first showing put it, whenever the next evaluation comes (issue 47).
        if (request.keysFrom === undefined || request.keysFrom === null) {
          held.request = { ...request, keysFrom: view.keysFrom };
          changed = true;
        }
        continue;
      }
      // Let go only on evidence that the prompt was answered: the session moved on, or a newer prompt came.
      if (now - request.at >= SETTLE_MS && (this.options.movedOn(held.key, request, held.askedAt) || this.newerThan(held)))
        this.close(request.id, 'elsewhere', null, 'terminal');
    }
    if (changed) this.options.onChange();
  }

  /** Whether a newer prompt of the same agent in the same session came after this one. */
  private newerThan(held: HeldRequest): boolean {
    return [...this.held.values()].some(
      (other) => other.key === held.key && other.request.agentId === held.request.agentId && other.request.at > held.request.at,
    );
  }

  /**
   * Lets every waiting hook go (Lookout is stopping): the agents' own prompts decide. Each is
   * closed and audited now, while Lookout's home is still its own, not when its hook's connection drops.
   */
  releaseAll(): void {
    for (const held of [...this.held.values()]) if (held.request.closed === null) this.close(held.request.id, 'released', null, null);
  }

  private close(id: string, how: 'elsewhere' | 'released' | 'expired', answer: string | null, from: AnswerRecord['from']): void {
    const held = this.held.get(id);
    if (held === undefined || held.request.closed !== null) return;
    const now = this.options.clock();
    if (held.hook !== null) sendLine(held.hook, { type: 'release' });
    this.finish(held, how, answer, from, now);
    this.options.onAnswer({ ...this.recordBase(held, now), answer: how, message: null, options: [], from });
  }

  private finish(held: HeldRequest, how: NonNullable<AnswerRequest['closed']>['how'], answer: string | null, from: string | null, now: number): void {
    held.request = { ...held.request, closed: { at: now, how, answer, from } };
    this.options.onChange();
  }

  private recordBase(held: HeldRequest, now: number): Pick<AnswerRecord, 'key' | 'request' | 'requestAt' | 'tool' | 'shown' | 'hidden' | 'digest' | 'at'> {
    const { request } = held;
    return {
      key: held.key,
      request: request.id,
      requestAt: request.at,
      tool: request.tool,
      shown: request.text,
      hidden: request.hidden,
      digest: request.digest,
      at: now,
    };
  }
}
