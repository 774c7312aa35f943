// Pi as evidence: each session's JSONL read incrementally. Pi keeps no pid file and holds no file
// open: a turn left open where no Pi runs any more is handed on as a writer gone. Pi never asks
// before a tool call itself, so a pending call is running, unless an extension is loaded that may ask.
import type { SessionEvidence, TranscriptSignal } from '../../engine';
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
import { AgentSettings } from './agent-settings';
import type { PiSessionFiles } from './discover';
import { discoverPi } from './discover';
import { SESSION_HEAD } from './head-facts';
import { piFolders } from './processes';
import { PiTranscript } from './transcript';

export const SESSION_SOURCE = 'pi.session';
export const PROCESS_SOURCE = 'pi.process';
const PROVIDER = 'pi';

/** Without an extension that may ask, nothing waits on a pending call: said to the engine as a policy of "never" (R3). */
function underSetup(signal: TranscriptSignal | null, mayAsk: boolean): TranscriptSignal | null {
  return signal?.kind === 'tool-call' && !mayAsk ? { ...signal, approvalPolicy: 'never' } : signal;
}

export class PiProvider implements EvidenceSource {
  readonly name = PROVIDER;
  readonly problems = new Problems();
  private readonly files = new Map<string, TailedFile<PiTranscript>>();
  private readonly settings: AgentSettings;
  private readonly headIndex: FileIndex<PiTranscript> | null;
  private readonly writers = new WriterCheck(PROCESS_SOURCE);
  private base: { evidence: SessionEvidence[]; signature: string } | null = null;
  /** What the last sync handed out: the same array while nothing of this agent's changed. */
  private out: SessionEvidence[] | null = null;

  constructor(
    readonly root: string,
    /** Its sessions folder: <root>/sessions, or PI_CODING_AGENT_SESSION_DIR. */
    private readonly sessions: string,
    private readonly options: TailOptions = DEFAULT_TAIL_OPTIONS,
    index: SessionIndexPort = NO_INDEX,
    /** The folders Pi processes run in (a test's stand-in for /proc). */
    private readonly running: () => Set<string> | null = piFolders,
  ) {
    this.settings = new AgentSettings(root, this.problems);
    this.headIndex = index === NO_INDEX ? null : new FileIndex(index, this.name, SESSION_HEAD);
  }

  async sync(_now: number, changed?: ReadonlySet<string>): Promise<SessionEvidence[]> {
    if (this.out !== null && ![this.root, this.sessions].some((folder) => touchesRoot(changed, folder))) return this.out;
    const setup = this.settings.read();
    const sessions = discoverPi(this.sessions, this.problems);
    const touched = syncFiles(
      this.files,
      sessions.map((session) => session.path),
      (path) => new TailedFile(path, () => new PiTranscript(setup.retry), this.options, this.headIndex),
      changed,
      this.problems,
    );
    // Whether an extension may ask is asked of the folders only for a session with a call pending.
    const mayAsk = this.settings.asker(setup);
    const asks = sessions.map((session) => {
      const tail = this.files.get(session.path)?.tail;
      return tail?.signal?.kind === 'tool-call' && mayAsk(tail.cwd);
    });
    const signature = JSON.stringify([setup, asks]);
    if (touched || this.base === null || this.base.signature !== signature)
      this.base = { evidence: sessions.flatMap((session, index) => this.evidenceOf(session, asks[index] === true)), signature };
    // Asked at most once a sync, and only when a turn is left open.
    const lost = noWriterIn(this.running);
    this.out = this.writers.apply(this.base.evidence, (session) => lost(session.cwd));
    return this.out;
  }

  private evidenceOf(session: PiSessionFiles, mayAsk: boolean): SessionEvidence[] {
    const file = this.files.get(session.path);
    if (file === undefined) return [];
    const { tail, head } = file;
    const cwd = tail.cwd ?? head?.cwd ?? null;
    const signal = underSetup(tail.signal, mayAsk);
    return [
      {
        provider: PROVIDER,
        sessionId: tail.sessionId ?? head?.sessionId ?? session.id,
        title: tail.title ?? head?.title ?? head?.firstPrompt ?? tail.firstPrompt,
        cwd,
        branch: null,
        transcriptSource: SESSION_SOURCE,
        lastRecordAt: tail.lastRecordAt ?? head?.lastRecordAt ?? null,
        signal,
        turn: tail.turn,
        direct: [],
        liveness: { kind: 'unreported' },
        children: [],
        workingTree: { kind: 'unknown' },
        notices: [],
        skippedLines: file.skipped,
        interruptedTurns: [...tail.interruptedTurns],
        answeredAt: tail.answeredAt,
      },
    ];
  }
}
