// Reads the hook spools (LOOKOUT_HOME/spool/<provider>.jsonl and the rotated .1) into per-session
// hook facts: the latest event, the latest program notice, the subagents (and when each stopped).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { HookEvent } from '../../engine';
import type { JsonRecord } from '../jsonl/parse-record';
import { Problems, errorCode } from '../problems';
import type { Accumulator } from '../tailed-file';
import { DEFAULT_TAIL_OPTIONS, TailedFile } from '../tailed-file';
import type { HookFact, HookReading, ToolCall, TurnStep } from './events';
import type { SpoolEntry, SpoolProvider } from './spool-format';
import { SPOOL_ROTATE_BYTES, readEntry, spoolName } from './spool-format';

export interface HookMark {
  event: HookEvent;
  at: number;
  detail: string | null;
  /** A notification that some prompt waits, not which (it restates a prompt; it never answers one). */
  restates?: boolean;
  source: string;
}

/** What the hooks of one agent (the lead, or a subagent inside it) said last, and what tells a late word. */
interface HookThread {
  /** The latest event: a permission request stands until a later one that is not written late (issue 6). */
  last: HookMark | null;
  /** The tool call of the latest PreToolUse or PermissionRequest, kept across the notifications that restate it. */
  call: ToolCall | null;
  /**
   * The latest turn a hook named, its tool calls (by tool-use id: the call's key, or null until its
   * start is seen), those that ended, whether its Stop came, and the ids of the turns before it.
   */
  turn: { id: string; calls: Map<string, string | null>; done: Set<string>; ended: boolean; earlier: string[] } | null;
}

interface HookSubagent extends HookThread {
  name: string;
  startedAt: number;
  stoppedAt: number | null;
}

export interface HookSession extends HookThread {
  provider: SpoolProvider;
  sessionId: string;
  cwd: string | null;
  notice: { at: number; message: string; source: string } | null;
  subagents: Map<string, HookSubagent>;
}

/** A second-precision time is read as the end of its second: a request is never dated early. */
function timeOf(entry: SpoolEntry): number {
  return entry.precision === 's' ? entry.at + 999 : entry.at;
}

/** How a provider reads its own spool lines (its descriptor's `hooks.read`). */
export type PayloadReader = (payload: JsonRecord, channel: 'hook' | 'notify') => HookReading;

export class SpoolFold implements Accumulator {
  readonly sessions = new Map<string, HookSession>();
  readonly settled = false;
  readonly headDone = true;

  /** `before`: the sessions as the rotated file left them, so a word written late across the rotation is still known as late. */
  constructor(
    private readonly provider: SpoolProvider,
    private readonly read: PayloadReader,
    before?: ReadonlyMap<string, HookSession>,
  ) {
    for (const [key, session] of before ?? []) this.sessions.set(key, copySession(session));
  }

  apply(record: JsonRecord): void {
    const entry = readEntry(record, this.provider);
    if (entry === null) return;
    const { sessionId, cwd, agentId, fact } = this.read(entry.payload, entry.channel);
    if (sessionId === null) return;
    const key = `${entry.provider}:${sessionId}`;
    const session = this.sessions.get(key) ?? {
      provider: entry.provider,
      sessionId,
      cwd: null,
      last: null,
      call: null,
      turn: null,
      notice: null,
      subagents: new Map(),
    };
    this.sessions.set(key, session);
    session.cwd = cwd ?? session.cwd;
    const at = timeOf(entry);
    const source = entry.channel === 'notify' ? `${entry.provider}.notify` : `${entry.provider}.hook`;
    switch (fact.kind) {
      case 'event': {
        const mark: HookMark = { event: fact.event, at, detail: fact.detail, source, ...(fact.vague === true ? { restates: true } : {}) };
        // Inside a subagent it is the child's state, not the lead's; its hooks land in any order too.
        const thread = agentId === null ? session : subagentOf(session, agentId, at);
        if (fact.event === 'idle-notice' && endsTurnWith(thread.last)) {
          // An idle notice after a turn's end adds nothing, and must not hide how it ended.
        } else if (!writtenLate(fact, thread) && !sameRequestNamed(fact, thread.last)) {
          thread.last = restatedQuestion(mark, thread) ?? mark;
          // A notification names no call: the one it is about is still the one pending.
          thread.call = fact.vague === true ? thread.call : (fact.call ?? null);
        }
        return;
      }
      case 'notice':
        session.notice = { at, message: fact.message, source };
        return;
      case 'subagent-start': {
        // Kept, not made anew: the child's own events (a request too), or its stop, may have landed first.
        const child = subagentOf(session, fact.agentId, at);
        child.name = fact.name;
        child.startedAt = Math.min(child.startedAt, at);
        return;
      }
      case 'subagent-stop': {
        subagentOf(session, fact.agentId, at).stoppedAt = at;
        return;
      }
      case 'ignored':
        return;
    }
  }
}

/** The subagent's record, made when an event of it comes before its start (or with none). */
function subagentOf(session: HookSession, agentId: string, at: number): HookSubagent {
  const known = session.subagents.get(agentId);
  if (known !== undefined) return known;
  const child: HookSubagent = { name: agentId, startedAt: at, stoppedAt: null, last: null, call: null, turn: null };
  session.subagents.set(agentId, child);
  return child;
}

/** The mark says how the turn ended: an idle notice after it adds nothing, and must not hide it. */
function endsTurnWith(last: HookMark | null): boolean {
  return last !== null && (last.event === 'stop' || last.event === 'stop-failure');
}

/**
 * A notification about the prompt a PermissionRequest already named ("Claude needs your
 * permission", 2.1.332) adds nothing: the precise request stands, from its own time.
 */
function sameRequestNamed(fact: Extract<HookFact, { kind: 'event' }>, last: HookMark | null): boolean {
  // Claude's Notification says "needs your permission" for a question's prompt too: any prompt named counts.
  return fact.vague === true && last !== null && (last.event === 'permission-request' || last.event === 'input-request') && last.detail !== null;
}

/**
 * Whether an event is one that happened before the thread's latest word but was written after it
 * (async hooks each run as their own process and land in any order); also notes its turn's calls.
 */
function writtenLate(fact: Extract<HookFact, { kind: 'event' }>, session: HookThread): boolean {
  const last = session.last;
  const step = fact.step;
  // Noted first: a start written late still tells which call a standing request is about.
  const turn = step === undefined ? null : notedStep(step, fact.call, session);
  const standing = last !== null && last.restates !== true && (last.event === 'permission-request' || last.event === 'input-request') ? session.call : null;
  // The start of the call a standing request names: its start came first, and the prompt still waits.
  if (fact.event === 'mid-turn' && fact.call !== undefined && fact.call.key === standing?.key) return true;
  if (step === undefined || turn === null || turn.fresh) return false;
  // A turn before the latest one ended before it began (a queued prompt is sent as the turn stops): only a request still counts.
  if (turn.earlier) return step.step !== 'request';
  switch (step.step) {
    case 'end':
      return false;
    case 'prompt':
      // A turn is prompted once: its prompt after its own Stop was written late.
      return turn.ended && endsTurnWith(last);
    case 'tool-end':
      // Its tool ended before the turn stopped (a stop hook's continuation starts its tools afresh);
      // or another call ended while the one a request names still waits (a parallel call, or written late).
      return (turn.ended && endsTurnWith(last)) || (standing !== null && waitsOn(turn, standing.key, step.toolUseId));
    case 'tool-start':
      // A call whose end came already started before it; a call seen already in a turn that
      // stopped (a new call after a Stop is a stop hook's continuation).
      return turn.finished || (turn.ended && endsTurnWith(last) && turn.seen);
    case 'request':
      // A request is never dropped: on doubt, the prompt shows.
      return false;
  }
}

/** How many turns before the latest are remembered: an event of one of them was written late. */
const EARLIER_TURNS = 8;

/**
 * Notes an event's place in its turn: `fresh` when it opens the turn, `earlier` when it belongs to a
 * turn before the latest (noted nowhere), `seen` when its call was seen before, `finished` for a
 * start after its call's end.
 */
function notedStep(
  step: TurnStep,
  call: ToolCall | undefined,
  session: HookThread,
): { fresh: boolean; earlier: boolean; seen: boolean; finished: boolean; ended: boolean; calls: Map<string, string | null>; done: Set<string> } {
  const id = step.toolUseId;
  const key = step.step === 'tool-start' ? (call?.key ?? null) : null;
  const turn = session.turn;
  if (turn?.earlier.includes(step.turn)) return { ...turn, fresh: false, earlier: true, seen: false, finished: false };
  if (turn === null || turn.id !== step.turn) {
    const earlier = turn === null ? [] : [...turn.earlier.slice(1 - EARLIER_TURNS), turn.id];
    const fresh = {
      id: step.turn,
      calls: new Map<string, string | null>(id === null ? [] : [[id, key]]),
      done: new Set<string>(step.step === 'tool-end' && id !== null ? [id] : []),
      ended: step.step === 'end',
      earlier,
    };
    session.turn = fresh;
    return { ...fresh, fresh: true, earlier: false, seen: false, finished: false };
  }
  const seen = id !== null && turn.calls.has(id);
  const finished = id !== null && step.step === 'tool-start' && turn.done.has(id);
  if (id !== null) turn.calls.set(id, key ?? turn.calls.get(id) ?? null);
  if (id !== null && step.step === 'tool-end') turn.done.add(id);
  if (step.step === 'end') turn.ended = true;
  return { fresh: false, earlier: false, seen, finished, ended: turn.ended, calls: turn.calls, done: turn.done };
}

/**
 * Whether the request is about a call other than `ended` that has not ended: the latest started
 * with the key it names (a call denied and asked again has the same key; the first never ends).
 */
function waitsOn(turn: { calls: Map<string, string | null>; done: Set<string> }, key: string, ended: string | null): boolean {
  let latest: string | null = null;
  for (const [id, started] of turn.calls) if (started === key) latest = id;
  return latest !== null && latest !== ended && !turn.done.has(latest);
}

/**
 * A "needs your permission" notification while a question's tool has started (its PermissionRequest
 * not in the spool yet, or never) is that question waiting: input, in the question's own words.
 */
function restatedQuestion(mark: HookMark, session: HookThread): HookMark | null {
  const asks = session.call?.asks ?? null;
  if (mark.restates !== true || asks === null || session.last?.event !== 'mid-turn') return null;
  // Dated by the notification: a request is never dated early.
  return { ...mark, event: 'input-request', detail: asks };
}

/** The spools of every provider with hooks (live and rotated), read whole (the writers rotate them at 8 MB). */
export class HookSpool {
  readonly problems = new Problems();
  private readonly files = new Map<string, TailedFile<SpoolFold>>();
  private readonly owners = new Map<string, { provider: SpoolProvider; read: PayloadReader }>();
  private last: Map<string, HookSession> | null = null;

  constructor(
    readonly folder: string,
    providers: readonly { id: SpoolProvider; read: PayloadReader }[],
  ) {
    for (const { id, read } of providers) {
      this.owners.set(join(this.folder, `${spoolName(id)}.1`), { provider: id, read });
      this.owners.set(join(this.folder, spoolName(id)), { provider: id, read });
    }
  }

  paths(): string[] {
    return [...this.owners.keys()];
  }

  /** A spool file's fold: the live file's goes on from where the rotated one ended (read first: paths() lists it first). */
  private fold(path: string, owner: { provider: SpoolProvider; read: PayloadReader }): SpoolFold {
    return new SpoolFold(owner.provider, owner.read, path.endsWith('.1') ? undefined : this.files.get(`${path}.1`)?.tail.sessions);
  }

  /** The hook facts by session key; the very same map as last time when no spool changed. */
  async sync(): Promise<Map<string, HookSession>> {
    const whole = SPOOL_ROTATE_BYTES * 2;
    let touched = this.last === null;
    for (const path of this.paths()) {
      if (!existsSync(path)) {
        if (this.files.delete(path)) touched = true;
        continue;
      }
      const owner = this.owners.get(path);
      if (owner === undefined) continue;
      const file =
        this.files.get(path) ?? new TailedFile(path, () => this.fold(path, owner), { ...DEFAULT_TAIL_OPTIONS, firstWindow: whole, maxWindow: whole });
      try {
        if (file.update()) touched = true;
        this.files.set(path, file);
      } catch (error) {
        if (errorCode(error) !== 'ENOENT') this.problems.add({ kind: 'unreadable', path, detail: errorCode(error) ?? String(error) });
      }
    }
    if (!touched && this.last !== null) return this.last;
    // The rotated file holds the older events: newer ones (the live file) are laid over them.
    const merged = new Map<string, HookSession>();
    for (const path of this.paths()) {
      const fold = this.files.get(path)?.tail;
      if (fold === undefined) continue;
      for (const [key, session] of fold.sessions) {
        const before = merged.get(key);
        merged.set(key, before === undefined ? session : layer(before, session));
      }
    }
    this.last = merged;
    return merged;
  }
}

/** A session's own copy: a fold changes what it holds in place. */
function copySession(session: HookSession): HookSession {
  return {
    ...session,
    ...copyThread(session),
    subagents: new Map([...session.subagents].map(([id, child]): [string, HookSubagent] => [id, { ...child, ...copyThread(child) }])),
  };
}

function copyThread(thread: HookThread): HookThread {
  const turn = thread.turn;
  return {
    last: thread.last,
    call: thread.call,
    turn: turn === null ? null : { ...turn, calls: new Map(turn.calls), done: new Set(turn.done), earlier: [...turn.earlier] },
  };
}

function layer(older: HookSession, newer: HookSession): HookSession {
  return {
    ...newer,
    cwd: newer.cwd ?? older.cwd,
    last: newer.last ?? older.last,
    notice: newer.notice ?? older.notice,
    subagents: new Map([...older.subagents, ...newer.subagents]),
  };
}
