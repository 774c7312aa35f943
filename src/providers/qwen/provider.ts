// Qwen Code as evidence: each session's chat file read incrementally, its liveness from the
// runtime.json its process wrote, its subagents' transcripts (and their meta files) as children.
import { join } from 'node:path';
import type { ChildEvidence, Liveness, SessionEvidence } from '../../engine';
import { FileIndex } from '../file-index';
import { Problems } from '../problems';
import type { SessionIndexPort } from '../session-index';
import { NO_INDEX } from '../session-index';
import { READ_CAPS } from '../system/safe-read';
import { WholeFiles } from '../system/whole-file';
import type { EvidenceSource } from '../source';
import { syncFiles, touchesRoot } from '../source';
import type { TailOptions } from '../tailed-file';
import { DEFAULT_TAIL_OPTIONS, TailedFile } from '../tailed-file';
import { QwenChat } from './chat';
import type { QwenFiles, QwenSessionFiles } from './discover';
import { discoverQwen } from './discover';
import { CHAT_HEAD } from './head-facts';
import { parseRuntime, runtimeLiveness } from './runtime';
import type { SubagentMeta } from './subagents';
import { childSignal, parseSubagentMeta, withStartedSubagents } from './subagents';

export const CHAT_SOURCE = 'qwen.chat';
const PROVIDER = 'qwen';

/** A session's subagents: as children, and the lead's calls that started them. */
interface Subagents {
  children: ChildEvidence[];
  started: Set<string>;
}

export class QwenProvider implements EvidenceSource {
  readonly name = PROVIDER;
  readonly problems = new Problems();
  private readonly chats = new Map<string, TailedFile<QwenChat>>();
  private readonly subagents = new Map<string, TailedFile<QwenChat>>();
  private readonly metas = this.smallJsonFiles(parseSubagentMeta);
  private readonly runtimes = this.smallJsonFiles(parseRuntime);
  private readonly headIndex: FileIndex<QwenChat> | null;
  private last: { evidence: SessionEvidence[]; signature: string } | null = null;

  constructor(
    readonly root: string,
    private readonly options: TailOptions = DEFAULT_TAIL_OPTIONS,
    index: SessionIndexPort = NO_INDEX,
    /** Its projects folder: <root>/projects, or QWEN_RUNTIME_DIR's (the agent's runtime folder). */
    private readonly projects: string = join(root, 'projects'),
  ) {
    this.headIndex = index === NO_INDEX ? null : new FileIndex(index, this.name, CHAT_HEAD);
  }

  /** runtime.json, a subagent's meta file: rewritten whole; one that cannot be read is said once and read again next time. */
  private smallJsonFiles<T>(parse: (text: string) => T | null): WholeFiles<T | null> {
    return new WholeFiles<T | null>({
      cap: READ_CAPS.smallJson,
      parse: (text) => ({ value: parse(text) }),
      unreadable: (error, path) => {
        this.problems.unreadableUnlessGone(path, error);
        return { value: null, again: true };
      },
    });
  }

  /** The file's fields, or null when it is not there (usual: written later, or removed) or not readable (said once). */
  private readWhole<T>(files: WholeFiles<T | null>, path: string | null): T | null {
    if (path === null) return null;
    const found = files.read(path);
    if (found.kind === 'read') return found.value;
    this.problems.unreadableUnlessGone(path, found.error);
    return null;
  }

  async sync(now: number, changed?: ReadonlySet<string>): Promise<SessionEvidence[]> {
    if (this.last !== null && ![this.root, this.projects].some((folder) => touchesRoot(changed, folder))) return this.last.evidence;
    const files = discoverQwen(this.projects, this.problems);
    const chatsTouched = syncFiles(
      this.chats,
      files.sessions.map((session) => session.chat),
      (path) => new TailedFile(path, () => new QwenChat(), this.options, this.headIndex),
      changed,
      this.problems,
    );
    const subagentsTouched = syncFiles(
      this.subagents,
      files.subagents.map((subagent) => subagent.chat),
      (path) => new TailedFile(path, () => new QwenChat(), this.options),
      changed,
      this.problems,
    );
    // Meta files and runtime files are rewritten whole, with no append to notice: their contents are
    // part of the signature, as is whether each runtime's process still runs.
    const metas = files.subagents.map((subagent) => this.readWhole(this.metas, subagent.meta));
    this.metas.keep(new Set(files.subagents.flatMap((subagent) => (subagent.meta === null ? [] : [subagent.meta]))));
    const livenesses = files.sessions.map((session) => {
      const file = this.chats.get(session.chat);
      return runtimeLiveness(this.readWhole(this.runtimes, session.runtime), file?.tail.lastRecordAt ?? file?.head?.lastRecordAt ?? null, now);
    });
    this.runtimes.keep(new Set(files.sessions.flatMap((session) => (session.runtime === null ? [] : [session.runtime]))));
    const signature = JSON.stringify([livenesses, metas]);
    if (!chatsTouched && !subagentsTouched && this.last !== null && this.last.signature === signature) return this.last.evidence;
    const subagents = this.subagentsBySession(files, metas);
    const evidence = files.sessions.flatMap((session, index) =>
      this.evidenceOf(session, livenesses[index] ?? { kind: 'unreported' }, subagents.get(session.id)),
    );
    this.last = { evidence, signature };
    return evidence;
  }

  private subagentsBySession(files: QwenFiles, metas: readonly (SubagentMeta | null)[]): Map<string, Subagents> {
    const bySession = new Map<string, Subagents>();
    files.subagents.forEach((subagent, index) => {
      const meta = metas[index] ?? null;
      const group = bySession.get(subagent.parent) ?? { children: [], started: new Set<string>() };
      bySession.set(subagent.parent, group);
      if (meta?.toolUseId !== null && meta?.toolUseId !== undefined) group.started.add(meta.toolUseId);
      const file = this.subagents.get(subagent.chat);
      const lastAt = file?.tail.lastRecordAt ?? file?.head?.lastRecordAt ?? null;
      if (file === undefined || lastAt === null) return;
      group.children.push({
        id: subagent.id,
        name: meta?.description ?? subagent.id,
        role: 'agent',
        source: CHAT_SOURCE,
        startedAt: file.head?.firstAt ?? file.tail.firstAt ?? lastAt,
        lastAt: Math.max(lastAt, meta?.updatedAt ?? lastAt),
        signal: childSignal(meta, file.tail.signal, lastAt),
        request: null,
      });
    });
    return bySession;
  }

  private evidenceOf(session: QwenSessionFiles, liveness: Liveness, subagents: Subagents | undefined): SessionEvidence[] {
    const file = this.chats.get(session.chat);
    if (file === undefined) return [];
    const { tail, head } = file;
    return [
      {
        provider: PROVIDER,
        // Qwen names the file for its session (its hooks' session_id too); records copied into a
        // forked session's file may still name the session they came from.
        sessionId: session.id,
        title: tail.customTitle ?? head?.customTitle ?? head?.firstPrompt ?? tail.firstPrompt,
        cwd: tail.cwd ?? head?.cwd ?? null,
        branch: null,
        transcriptSource: CHAT_SOURCE,
        lastRecordAt: tail.lastRecordAt ?? head?.lastRecordAt ?? null,
        signal: withStartedSubagents(tail.signal, subagents?.started ?? new Set()),
        turn: tail.turn,
        direct: [],
        liveness,
        children: subagents?.children ?? [],
        workingTree: { kind: 'unknown' },
        notices: [],
        skippedLines: file.skipped,
        interruptedTurns: [...tail.interruptedTurns],
        answeredAt: tail.answeredAt,
      },
    ];
  }
}
