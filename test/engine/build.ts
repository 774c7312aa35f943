// Builders for engine tests: evidence with sensible defaults, times as offsets from T0.
import type { ChildEvidence, DirectEvidence, PendingTool, SessionEvidence, Settings, TranscriptSignal, UserFacts } from '../../src/engine';
import { defaultSettings, emptyFacts, evaluate } from '../../src/engine';
import type { Evaluation, Row } from '../../src/engine';

export const T0 = Date.parse('2026-11-29T12:00:00.000Z');
export const sec = (n: number): number => n * 1000;
export const min = (n: number): number => n * 60_000;
export const at = (offsetMs: number): number => T0 + offsetMs;

export function session(overrides: Partial<SessionEvidence> & { id?: string } = {}): SessionEvidence {
  const { id, ...rest } = overrides;
  return {
    provider: 'claude',
    sessionId: id ?? 'aaaa0000-0000-4000-8000-000000000001',
    title: 'a session',
    cwd: '/home/me/app',
    branch: 'main',
    transcriptSource: 'claude.transcript',
    lastRecordAt: rest.signal?.at ?? T0,
    signal: { kind: 'prompt', at: T0 },
    turn: { startedAt: T0, endedAt: null, durationMs: null },
    direct: [],
    liveness: { kind: 'unreported' },
    children: [],
    workingTree: { kind: 'unknown' },
    notices: [],
    skippedLines: 0,
    ...rest,
  };
}

export function tool(name: string, category: PendingTool['category'] = 'generic', escalation = false): PendingTool {
  return { id: `call-${name}`, name, detail: `${name}: something`, category, escalation };
}

export function toolCall(offsetMs: number, pending: PendingTool[], approvalPolicy: string | null = null): TranscriptSignal {
  return { kind: 'tool-call', at: at(offsetMs), pending, approvalPolicy };
}

export function registry(status: string, offsetMs: number, waitingFor: string | null = null): DirectEvidence {
  return { kind: 'registry-status', source: 'claude.session-registry', at: at(offsetMs), status, waitingFor };
}

export function child(overrides: Partial<ChildEvidence> & { signal: TranscriptSignal | null }): ChildEvidence {
  return {
    id: 'child-1',
    name: 'Ada',
    role: 'agent',
    source: 'claude.transcript',
    startedAt: T0,
    lastAt: overrides.signal?.at ?? T0,
    request: null,
    ...overrides,
  };
}

export interface RunOptions {
  facts?: Partial<UserFacts>;
  settings?: Settings;
  onScreen?: string | null;
  providerNames?: Record<string, string>;
}

export function run(sessions: SessionEvidence[], nowOffset: number, options: RunOptions = {}): Evaluation {
  return evaluate({
    sessions,
    facts: { ...emptyFacts(), ...options.facts },
    settings: options.settings ?? defaultSettings(),
    now: at(nowOffset),
    onScreen: options.onScreen ?? null,
    providerNames: options.providerNames ?? { claude: 'Claude', codex: 'Codex' },
  });
}

/** The single row of a one-session evaluation. */
export function rowOf(evidence: SessionEvidence, nowOffset: number, options: RunOptions = {}): Row {
  const row = run([evidence], nowOffset, options).snapshot.sessions[0];
  if (row === undefined) throw new Error('no row');
  return row;
}

export const KEY = 'claude:aaaa0000-0000-4000-8000-000000000001';
