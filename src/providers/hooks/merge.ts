// Lays hook facts onto the providers' evidence as direct evidence (source `<provider>.hook` or
// `<provider>.notify`): the engine weighs it against the transcript (R8).
import type { ChildEvidence, DirectEvidence, SessionEvidence } from '../../engine';
import { sessionKey } from '../../engine';
import type { HookSession } from './spool-reader';

function direct(session: HookSession): DirectEvidence[] {
  const last = session.last;
  return last === null ? [] : [{ kind: 'hook', source: last.source, at: last.at, event: last.event, detail: last.detail }];
}

function hookChildren(session: HookSession, known: readonly ChildEvidence[]): ChildEvidence[] {
  const children = [...known];
  for (const [agentId, agent] of session.subagents) {
    const request = agent.last !== null && (agent.last.event === 'permission-request' || agent.last.event === 'input-request') ? { kind: agent.last.event === 'permission-request' ? ('approval' as const) : ('input' as const), at: agent.last.at, detail: agent.last.detail ?? 'waiting' } : null;
    const index = children.findIndex((child) => child.id === agentId);
    if (index !== -1) {
      const child = children[index];
      // The transcript says what the child did; the hook adds what it asks (never shown in files).
      if (child !== undefined && request !== null) children[index] = { ...child, request };
      continue;
    }
    if (agent.stoppedAt !== null) continue;
    const lastAt = agent.last?.at ?? agent.startedAt;
    children.push({ id: agentId, name: agent.name, role: 'agent', source: `${session.provider}.hook`, startedAt: agent.startedAt, lastAt, signal: { kind: 'progress', at: lastAt }, request });
  }
  return children;
}

/**
 * `transcriptSource` names the provider's transcript source (from its descriptor): a session
 * hooks report before its transcript exists carries it too.
 */
export function mergeHooks(evidence: readonly SessionEvidence[], hooks: ReadonlyMap<string, HookSession>, transcriptSource: (provider: string) => string): SessionEvidence[] {
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
      notices: session.notice === null ? item.notices : [...item.notices, { source: session.notice.source, at: session.notice.at, message: session.notice.message }],
      children: hookChildren(session, item.children),
    };
  });
  // A session hooks report before its transcript exists (a fresh one) still gets a row, unless it ended.
  for (const [key, session] of hooks) {
    if (seen.has(key) || session.last === null || session.last.event === 'session-end') continue;
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
