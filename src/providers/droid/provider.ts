// Factory Droid as evidence: each session's JSONL read incrementally, its settings file for how it
// runs (`droid exec`, or a subagent's session: a child of the session that called it). Droid keeps
// no pid file and holds no file open: a turn left open where no Droid runs is handed on as a
// writer gone (issue 24).
import type { ChildEvidence, SessionEvidence, TranscriptSignal } from '../../engine';
import { FileIndex } from '../file-index';
import { WriterCheck } from '../open-turn';
import { Problems } from '../problems';
import type { SessionIndexPort } from '../session-index';
import { NO_INDEX } from '../session-index';
import type { EvidenceSource } from '../source';
import { syncFiles, touchesRoot } from '../source';
import { noWriterIn } from '../system/process-folders';
import type { TailOptions } from '../tailed-file';
import { DEFAULT_TAIL_OPTIONS, TailedFile } from '../tailed-file';
import type { DroidSessionFiles } from './discover';
import { discoverDroid } from './discover';
import { TRANSCRIPT_HEAD } from './head-facts';
import { droidFolders } from './processes';
import type { SessionMode } from './session-settings';
import { SessionSettings } from './session-settings';
import { DroidTranscript } from './transcript';

export const TRANSCRIPT_SOURCE = 'droid.session';
export const PROCESS_SOURCE = 'droid.process';
const PROVIDER = 'droid';

interface SessionView {
  files: DroidSessionFiles;
  tail: DroidTranscript;
  head: DroidTranscript | null;
  skipped: number;
  mode: SessionMode;
}

/**
 * `droid exec` has no one to ask: a call it may not run fails at once (a tool result), so a pending
 * call of an exec session is running. Said to the engine as an approval policy of "never" (R3).
 */
function underMode(signal: TranscriptSignal | null, mode: SessionMode): TranscriptSignal | null {
  return signal?.kind === 'tool-call' && mode.exec ? { ...signal, approvalPolicy: 'never' } : signal;
}

export class DroidProvider implements EvidenceSource {
  readonly name = PROVIDER;
  readonly problems = new Problems();
  private readonly files = new Map<string, TailedFile<DroidTranscript>>();
  private readonly settings = new SessionSettings(this.problems);
  private readonly headIndex: FileIndex<DroidTranscript> | null;
  private readonly writers = new WriterCheck(PROCESS_SOURCE);
  private base: { evidence: SessionEvidence[]; signature: string } | null = null;
  /** What the last sync handed out: the same array while nothing of this agent's changed. */
  private out: SessionEvidence[] | null = null;

  constructor(
    readonly root: string,
    private readonly options: TailOptions = DEFAULT_TAIL_OPTIONS,
    index: SessionIndexPort = NO_INDEX,
    /** The folders Droid processes run in (a test's stand-in for /proc). */
    private readonly running: () => Set<string> | null = droidFolders,
  ) {
    this.headIndex = index === NO_INDEX ? null : new FileIndex(index, this.name, TRANSCRIPT_HEAD);
  }

  async sync(_now: number, changed?: ReadonlySet<string>): Promise<SessionEvidence[]> {
    if (this.out !== null && !touchesRoot(changed, this.root)) return this.out;
    this.out = await this.read(changed);
    return this.out;
  }

  private async read(changed: ReadonlySet<string> | undefined): Promise<SessionEvidence[]> {
    const sessions = discoverDroid(this.root, this.problems);
    const touched = syncFiles(
      this.files,
      sessions.map((session) => session.transcript),
      (path) => new TailedFile(path, () => new DroidTranscript(), this.options, this.headIndex),
      changed,
      this.problems,
    );
    this.settings.keep(new Set(sessions.map((session) => session.settings)));
    // A settings file is written a moment after its transcript, and rewritten at each run.
    const modes = sessions.map((session) => this.settings.read(session.settings));
    const signature = JSON.stringify(modes);
    if (touched || this.base === null || this.base.signature !== signature) this.base = { evidence: this.assemble(sessions, modes), signature };
    // Asked at most once a sync, and only when a turn is left open.
    const lost = noWriterIn(this.running);
    return this.writers.apply(this.base.evidence, (session) => lost(session.cwd));
  }

  private assemble(sessions: readonly DroidSessionFiles[], modes: readonly SessionMode[]): SessionEvidence[] {
    const leads = new Map<string, SessionView>();
    const children = new Map<string, SessionView[]>();
    for (const [index, files] of sessions.entries()) {
      const file = this.files.get(files.transcript);
      const mode = modes[index];
      if (file === undefined || mode === undefined) continue;
      const view: SessionView = { files, tail: file.tail, head: file.head, skipped: file.skipped, mode };
      // A subagent's session is its caller's child, never a row of its own (R10).
      if (mode.callingSessionId !== null) children.set(mode.callingSessionId, [...(children.get(mode.callingSessionId) ?? []), view]);
      else leads.set(files.id, view);
    }
    return [...leads.entries()].map(([id, view]) => this.evidenceOf(id, view, children.get(id) ?? []));
  }

  private evidenceOf(sessionId: string, view: SessionView, childViews: readonly SessionView[]): SessionEvidence {
    const { tail, head } = view;
    const children: ChildEvidence[] = childViews.flatMap((child) => {
      const lastAt = child.tail.lastRecordAt ?? child.head?.lastRecordAt ?? null;
      if (lastAt === null) return [];
      return [
        {
          id: child.files.id,
          name: child.head?.title ?? child.tail.title ?? child.head?.firstPrompt ?? child.tail.firstPrompt ?? 'subagent',
          role: 'agent',
          source: TRANSCRIPT_SOURCE,
          startedAt: child.head?.firstAt ?? child.tail.firstAt ?? lastAt,
          lastAt,
          signal: underMode(child.tail.signal, child.mode),
          request: null,
        },
      ];
    });
    return {
      provider: PROVIDER,
      // The file is named for its session: one file never holds another's.
      sessionId,
      title: tail.title ?? head?.title ?? head?.firstPrompt ?? tail.firstPrompt,
      cwd: tail.cwd ?? head?.cwd ?? null,
      branch: null,
      transcriptSource: TRANSCRIPT_SOURCE,
      lastRecordAt: tail.lastRecordAt ?? head?.lastRecordAt ?? null,
      signal: underMode(tail.signal, view.mode),
      turn: tail.turn,
      direct: [],
      liveness: { kind: 'unreported' },
      children,
      workingTree: { kind: 'unknown' },
      notices: [],
      skippedLines: view.skipped + childViews.reduce((sum, child) => sum + child.skipped, 0),
      answeredAt: tail.answeredAt,
      interruptedTurns: [...tail.interruptedTurns],
    };
  }
}
