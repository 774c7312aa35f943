// GitHub Copilot CLI as evidence: each session's events.jsonl read incrementally, its title and
// folder from workspace.yaml and session.start, its liveness from inuse.<pid>.lock.
import { statSync } from 'node:fs';
import type { ChildEvidence, DirectEvidence, Liveness, SessionEvidence } from '../../engine';
import { Problems } from '../problems';
import type { EvidenceSource } from '../source';
import { syncFiles } from '../source';
import { stampOf } from '../system/file-stamp';
import { readRegularHead } from '../system/safe-read';
import { pidAlive, processStartedAt } from '../system/process';
import type { TailOptions } from '../tailed-file';
import { DEFAULT_TAIL_OPTIONS, TailedFile } from '../tailed-file';
import type { CopilotSessionFiles } from './discover';
import { discoverCopilot } from './discover';
import { childSignal, failureTaken } from './children';
import { CopilotEvents } from './events';
import { WORKSPACE_HEAD_BYTES, usedWorkspaceFields } from './workspace';

export const EVENTS_SOURCE = 'copilot.events';
export const LOCK_SOURCE = 'copilot.session-lock';
const PROVIDER = 'copilot';

interface Workspace {
  stamp: string;
  summary: string | null;
  cwd: string | null;
  branch: string | null;
}

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value : null);

/**
 * The session's lock files as liveness: a lock whose process is alive and started before the lock
 * was written holds the session; locks whose processes are gone (or whose pid now belongs to a
 * newer process, R7) mean it ended. No lock: not reported.
 */
export function lockLiveness(
  locks: CopilotSessionFiles['locks'],
  lastAt: number | null,
  now: number,
  check: (pid: number, lockedAt: number) => 'alive' | 'no-process' | 'pid-reused' = checkLock,
): Liveness {
  let gone: 'no-process' | 'pid-reused' | null = null;
  let pid = 0;
  for (const lock of locks) {
    let lockedAt: number;
    try {
      lockedAt = statSync(lock.path).mtimeMs;
    } catch {
      continue; // Released between discovery and now.
    }
    const result = check(lock.pid, lockedAt);
    if (result === 'alive') return { kind: 'alive', pid: lock.pid };
    gone = result;
    pid = lock.pid;
  }
  return gone === null ? { kind: 'unreported' } : { kind: 'dead', source: LOCK_SOURCE, pid, at: lastAt ?? now, why: gone };
}

function checkLock(pid: number, lockedAt: number): 'alive' | 'no-process' | 'pid-reused' {
  if (!pidAlive(pid)) return 'no-process';
  const started = processStartedAt(pid);
  // A second's slack: the lock is written by the process itself, just after it starts.
  return started !== null && started > lockedAt + 1000 ? 'pid-reused' : 'alive';
}

import type { SessionIndexPort } from '../session-index';
import { NO_INDEX } from '../session-index';
import { FileIndex } from '../file-index';
import { EVENTS_HEAD } from './head-facts';

export class CopilotProvider implements EvidenceSource {
  readonly name = PROVIDER;
  readonly problems = new Problems();
  private readonly files = new Map<string, TailedFile<CopilotEvents>>();
  private readonly workspaces = new Map<string, Workspace>();
  private last: { evidence: SessionEvidence[]; signature: string } | null = null;

  private readonly headIndex: FileIndex<CopilotEvents> | null;

  constructor(
    readonly root: string,
    private readonly options: TailOptions = DEFAULT_TAIL_OPTIONS,
    index: SessionIndexPort = NO_INDEX,
  ) {
    this.headIndex = index === NO_INDEX ? null : new FileIndex(index, this.name, EVENTS_HEAD);
  }

  async sync(now: number, changed?: ReadonlySet<string>): Promise<SessionEvidence[]> {
    const sessions = discoverCopilot(this.root, this.problems);
    const touched = syncFiles(
      this.files,
      sessions.map((session) => session.events),
      (path) => new TailedFile(path, () => new CopilotEvents(), this.options, this.headIndex),
      changed,
      this.problems,
    );
    const workspaces = sessions.map((session) => this.workspace(session.workspace));
    // Liveness changes with no file change (a process exits): it is part of the signature.
    const livenesses = sessions.map((session) => {
      const file = this.files.get(session.events);
      return lockLiveness(session.locks, file?.tail.lastRecordAt ?? file?.head?.lastRecordAt ?? null, now);
    });
    const signature = JSON.stringify([workspaces.map((item) => item?.stamp ?? null), livenesses]);
    if (!touched && this.last !== null && this.last.signature === signature) return this.last.evidence;
    const evidence = sessions.flatMap((session, index) => this.evidenceOf(session, workspaces[index] ?? null, livenesses[index] ?? { kind: 'unreported' }));
    this.last = { evidence, signature };
    return evidence;
  }

  /** workspace.yaml's summary (the session's title), folder and branch; read again only when its stamp changes. */
  private workspace(path: string | null): Workspace | null {
    if (path === null) return null;
    try {
      const stamp = stampOf(statSync(path));
      const cached = this.workspaces.get(path);
      if (cached?.stamp === stamp) return cached;
      let fields: Record<string, string> = {};
      try {
        fields = usedWorkspaceFields(readRegularHead(path, WORKSPACE_HEAD_BYTES));
      } catch {
        // Not YAML Lookout can read: the title and folder come from the events instead.
      }
      const workspace = { stamp, summary: text(fields.summary), cwd: text(fields.cwd), branch: text(fields.branch) };
      this.workspaces.set(path, workspace);
      return workspace;
    } catch {
      return null;
    }
  }

  private evidenceOf(session: CopilotSessionFiles, workspace: Workspace | null, liveness: Liveness): SessionEvidence[] {
    const file = this.files.get(session.events);
    if (file === undefined) return [];
    const { tail, head } = file;
    const lastRecordAt = tail.lastRecordAt ?? head?.lastRecordAt ?? null;
    const direct: DirectEvidence[] = [];
    if (tail.permission !== null)
      direct.push({ kind: 'hook', source: EVENTS_SOURCE, at: tail.permission.at, event: 'permission-request', detail: tail.permission.detail });
    // A shutdown with no process holding the session: it ended (a resume would have come after).
    if (tail.shutdownAt !== null && liveness.kind !== 'alive')
      direct.push({ kind: 'hook', source: EVENTS_SOURCE, at: tail.shutdownAt, event: 'session-end', detail: null });
    const children: ChildEvidence[] = [...tail.children.values()]
      .filter((child) => !failureTaken(child, tail.turn))
      .map((child) => ({
        id: child.id,
        name: child.name,
        role: 'agent',
        source: EVENTS_SOURCE,
        startedAt: child.startedAt,
        lastAt: child.lastAt,
        signal: childSignal(child),
        request: null,
      }));
    return [
      {
        provider: PROVIDER,
        // The folder (or the flat file) is named for the session; a file never holds another's.
        sessionId: session.id,
        title: workspace?.summary ?? head?.firstPrompt ?? tail.firstPrompt,
        cwd: tail.cwd ?? head?.cwd ?? workspace?.cwd ?? null,
        branch: tail.branch ?? head?.branch ?? workspace?.branch ?? null,
        transcriptSource: EVENTS_SOURCE,
        lastRecordAt,
        signal: tail.signal,
        turn: tail.turn,
        direct,
        liveness,
        children,
        workingTree: { kind: 'unknown' },
        notices: [],
        skippedLines: file.skipped,
        answeredAt: tail.answeredAt,
      },
    ];
  }
}
