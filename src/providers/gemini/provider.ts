// Gemini CLI as evidence: each session's chat file read incrementally, its subagents' chats as
// children, its folder from the project's .project_root. The CLI records no pid: a turn left open
// where no Gemini CLI runs any more is handed on as a writer gone (issue 24).
import type { ChildEvidence, SessionEvidence, TranscriptSignal } from '../../engine';
import { FileIndex } from '../file-index';
import { WriterCheck } from '../open-turn';
import { Problems } from '../problems';
import type { SessionIndexPort } from '../session-index';
import { NO_INDEX } from '../session-index';
import type { EvidenceSource } from '../source';
import { syncFiles, touchesRoot } from '../source';
import type { TailOptions } from '../tailed-file';
import { DEFAULT_TAIL_OPTIONS, TailedFile } from '../tailed-file';
import { GeminiChat, turnOpen } from './chat';
import type { GeminiChatFile } from './discover';
import { ProjectRoots, discoverGemini } from './discover';
import { CHAT_HEAD } from './head-facts';
import { geminiFolders } from './processes';
import { UnsureText } from './unsure-text';
import { noWriterIn } from '../system/process-folders';

export const CHAT_SOURCE = 'gemini.chat';
export const PROCESS_SOURCE = 'gemini.process';
const PROVIDER = 'gemini';

interface ChatView {
  file: GeminiChatFile;
  tail: GeminiChat;
  head: GeminiChat | null;
  skipped: number;
}

const idOf = (view: ChatView): string | null => view.head?.sessionId ?? view.tail.sessionId;

export class GeminiProvider implements EvidenceSource {
  readonly name = PROVIDER;
  readonly problems = new Problems();
  private readonly files = new Map<string, TailedFile<GeminiChat>>();
  private readonly projects: ProjectRoots;
  private readonly headIndex: FileIndex<GeminiChat> | null;
  private readonly writers = new WriterCheck(PROCESS_SOURCE);
  private readonly unsure = new UnsureText();
  /** The chats' evidence before the processes are asked, with each session's folder. */
  private base: { evidence: SessionEvidence[]; folders: Map<string, string | null> } | null = null;
  /** What the last sync handed out: the same array while nothing of this agent's changed. */
  private out: SessionEvidence[] | null = null;

  constructor(
    readonly root: string,
    private readonly options: TailOptions = DEFAULT_TAIL_OPTIONS,
    index: SessionIndexPort = NO_INDEX,
    /** The folders Gemini CLI processes run in (a test's stand-in for /proc). */
    private readonly running: () => Set<string> | null = geminiFolders,
  ) {
    this.projects = new ProjectRoots(root, this.problems);
    this.headIndex = index === NO_INDEX ? null : new FileIndex(index, this.name, CHAT_HEAD);
  }

  async sync(_now: number, changed?: ReadonlySet<string>): Promise<SessionEvidence[]> {
    if (this.out !== null && !touchesRoot(changed, this.root)) return this.out;
    this.out = await this.read(changed);
    return this.out;
  }

  private async read(changed: ReadonlySet<string> | undefined): Promise<SessionEvidence[]> {
    const chats = discoverGemini(this.root, this.problems);
    const byPath = new Map(chats.map((chat) => [chat.path, chat]));
    const touched = syncFiles(
      this.files,
      chats.map((chat) => chat.path),
      (path) => new TailedFile(path, () => new GeminiChat(), this.options, this.headIndex),
      changed,
      this.problems,
    );
    if (touched || this.base === null) this.base = this.assemble(byPath);
    const { evidence, folders } = this.base;
    // Asked at most once a sync, and only when a turn is left open.
    const lost = noWriterIn(this.running);
    // The writer is asked first: a text last where no Gemini CLI runs is a turn that ended.
    return this.unsure.apply(this.writers.apply(evidence, (session) => lost(folders.get(session.sessionId) ?? null)));
  }

  private assemble(byPath: ReadonlyMap<string, GeminiChatFile>): { evidence: SessionEvidence[]; folders: Map<string, string | null> } {
    const leads = new Map<string, ChatView>();
    const children = new Map<string, ChatView[]>();
    for (const [path, tailed] of this.files) {
      const file = byPath.get(path);
      if (file === undefined) continue;
      const view: ChatView = { file, tail: tailed.tail, head: tailed.head, skipped: tailed.skipped };
      const id = idOf(view);
      // A chat whose first line is not written yet names no session.
      if (id === null) continue;
      if (file.parent !== null || (view.head?.kind ?? view.tail.kind) === 'subagent') {
        const parent = file.parent ?? '';
        children.set(parent, [...(children.get(parent) ?? []), view]);
        continue;
      }
      // One session per id: a copy of it elsewhere (a resumed old chat) gives way to the newer.
      const known = leads.get(id);
      if (known === undefined || (view.tail.lastRecordAt ?? 0) > (known.tail.lastRecordAt ?? 0)) leads.set(id, view);
    }
    const folders = new Map<string, string | null>();
    const evidence = [...leads].map(([id, view]) => {
      const folder = this.projects.folderOf(view.file.project);
      folders.set(id, folder);
      return this.evidenceOf(id, view, folder, children.get(id) ?? []);
    });
    return { evidence, folders };
  }

  private evidenceOf(sessionId: string, view: ChatView, cwd: string | null, childViews: readonly ChatView[]): SessionEvidence {
    const { tail, head } = view;
    const children: ChildEvidence[] = childViews.map((child) => ({
      id: idOf(child) ?? child.file.path,
      name: child.head?.firstPrompt ?? child.tail.firstPrompt ?? 'subagent',
      role: 'agent',
      source: CHAT_SOURCE,
      startedAt: child.head?.firstAt ?? child.tail.firstAt ?? 0,
      lastAt: child.tail.lastRecordAt ?? child.head?.lastRecordAt ?? 0,
      signal: child.tail.signal,
      request: null,
    }));
    return {
      provider: PROVIDER,
      sessionId,
      title: tail.summary ?? head?.summary ?? head?.firstPrompt ?? tail.firstPrompt,
      cwd,
      branch: null,
      transcriptSource: CHAT_SOURCE,
      lastRecordAt: tail.lastRecordAt ?? head?.lastRecordAt ?? null,
      signal: launching(tail.signal, children),
      turn: tail.turn,
      direct: [],
      liveness: { kind: 'unreported' },
      children,
      workingTree: { kind: 'unknown' },
      notices: [],
      skippedLines: view.skipped,
      answeredAt: tail.answeredAt,
      interruptedTurns: [...tail.interruptedTurns],
    };
  }
}

/** The lead's unnamed pending call while a subagent it started works: the call is that subagent (R3). */
function launching(signal: TranscriptSignal | null, children: readonly ChildEvidence[]): TranscriptSignal | null {
  if (signal?.kind !== 'tool-call') return signal;
  const working = children.some((child) => child.startedAt >= signal.at && turnOpen(child.signal));
  return working ? { ...signal, pending: signal.pending.map((tool) => ({ ...tool, category: 'subagent' as const, detail: 'a subagent at work' })) } : signal;
}
