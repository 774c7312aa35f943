// Lays hook facts onto the providers' evidence as direct evidence (source `<provider>.hook` or
// `<provider>.notify`): the engine weighs it against the transcript (R8).
import type { ChildEvidence, DirectEvidence, SessionEvidence } from '../../engine';
import { sessionKey } from '../../engine';
import type { HookMark, HookSession } from './spool-reader';

function direct(session: HookSession): DirectEvidence[] {
  const last = session.last;
  return last === null
    ? []
    : [{ kind: 'hook', source: last.source, at: last.at, event: last.event, detail: last.detail, ...(last.restates === true ? { restates: true } : {}) }];
}

/** What a child's latest hook event asks of the user, if anything. */
function requestOf(last: HookMark | null): ChildEvidence['request'] {
  if (last === null || (last.event !== 'permission-request' && last.event !== 'input-request')) return null;
  return { kind: last.event === 'permission-request' ? 'approval' : 'input', at: last.at, detail: last.detail ?? 'waiting' };
}

function hookChildren(session: HookSession, known: readonly ChildEvidence[]): ChildEvidence[] {
  const children = [...known];
  for (const [agentId, agent] of session.subagents) {
    const request = requestOf(agent.last);
    const index = children.findIndex((child) => child.id === agentId);
    if (index !== -1) {
      const child = children[index];
      // The transcript says what the child did; the hook adds what it asks (never shown in files).
      if (child !== undefined && request !== null) children[index] = { ...child, request };
      continue;
    }
    if (agent.stoppedAt !== null) continue;
    const lastAt = agent.last?.at ?? agent.startedAt;
    children.push({
      id: agentId,
      name: agent.name,
      role: 'agent',
      source: `${session.provider}.hook`,
      startedAt: agent.startedAt,
      lastAt,
      signal: { kind: 'progress', at: lastAt },
      request,
    });
  }
  return children;
}

/**
 * `transcriptSource` names the provider's transcript source (from its descriptor): a session
 * hooks report before its transcript exists carries it too.
 */
export function mergeHooks(
  evidence: readonly SessionEvidence[],
  hooks: ReadonlyMap<string, HookSession>,
  transcriptSource: (provider: string) => string,
): SessionEvidence[] {
  if (hooks.size === 0) return [...evidence];
  const seen = new Set<string>();
  const merged = evidence.map((item) => {
    const key = sessionKey(item.provider, item.sessionId);
    const session = hooks.get(key);
    if (session === undefined) return item;
    seen.add(key);
    return {
      ...item,
      cwd: item.cwd ?? session.cwd,
      direct: [...item.direct, ...direct(session)],
      notices:
        session.notice === null ? item.notices : [...item.notices, { source: session.notice.source, at: session.notice.at, message: session.notice.message }],
      children: hookChildren(session, item.children),
    };
  });
  // A session that is another's child (an agent whose subagents are sessions of their own): what its hooks ask is the child's.
  const owners = new Map<string, number>();
  merged.forEach((item, index) => {
    for (const child of item.children) owners.set(sessionKey(item.provider, child.id), index);
  });
  for (const [key, session] of hooks) {
    const owner = seen.has(key) ? undefined : owners.get(key);
    const parent = owner === undefined ? undefined : merged[owner];
    if (owner === undefined || parent === undefined) continue;
    seen.add(key);
    const request = requestOf(session.last);
    merged[owner] = {
      ...parent,
      children: parent.children.map((child) => (child.id === session.sessionId ? { ...child, request: request ?? child.request } : child)),
    };
  }
  // A session hooks report before its transcript exists (a fresh one) still gets a row, unless it
  // ended, or all its hooks said is that it moved on (nothing to show).
  for (const [key, session] of hooks) {
    if (seen.has(key) || session.last === null || session.last.event === 'session-end' || session.last.event === 'settled') continue;
    // A notify program's turn-complete opens no session: Codex fires it for its own title thread too,
    // which has no rollout (issue 22).
    if (session.last.source.endsWith('.notify')) continue;
    merged.push({
      provider: session.provider,
      sessionId: session.sessionId,
      title: null,
      cwd: session.cwd,
      branch: null,
      transcriptSource: transcriptSource(session.provider),
      lastRecordAt: session.last.at,
      signal: null,
      turn: null,
      direct: direct(session),
      liveness: { kind: 'unreported' },
      children: hookChildren(session, []),
      workingTree: { kind: 'unknown' },
      notices: [],
      skippedLines: 0,
    });
  }
  return merged;
}
