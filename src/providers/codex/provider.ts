// Codex as evidence: rollouts keyed by their first session_meta, children by parent thread.
import { basename, join } from 'node:path';
import type { ChildEvidence, SessionEvidence } from '../../engine';
import { Problems, errorCode } from '../problems';
import type { EvidenceSource } from '../source';
import { syncFiles } from '../source';
import { appendTo } from '../groups';
import type { TailOptions } from '../tailed-file';
import { DEFAULT_TAIL_OPTIONS, TailedFile } from '../tailed-file';
import type { CompressedRollout } from './compressed';
import { readCompressed } from './compressed';
import { discoverCodex } from './discover';
import { CodexRollout } from './rollout';
import { ThreadNames } from './thread-names';
import { LOCK_SOURCE, LockTable, writerLock } from './writer-lock';
import { WriterCheck } from '../open-turn';

import type { SessionIndexPort } from '../session-index';
import { NO_INDEX } from '../session-index';
import { FileIndex } from '../file-index';
import { ROLLOUT_HEAD } from './head-facts';

export const ROLLOUT_SOURCE = 'codex.rollout';

interface RolloutView {
  path: string;
  tail: CodexRollout;
  head: CodexRollout | null;
  skipped: number;
}

/** The thread id: the first session_meta's id, else the uuid at the end of the file name. */
function threadId(view: RolloutView): string | null {
  const meta = view.head?.meta ?? view.tail.meta;
  if (meta !== null) return meta.id;
  const match = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl(\.zst)?$/i.exec(basename(view.path));
  return match?.[1] ?? null;
}

/**
 * A rollout's first prompt comes after its session_meta and injected instructions: 35–117 KB into
 * the files Codex 0.118–0.147 wrote, most 50–58 KB (shared/real-samples). One read of this much
 * finds most, where 4 KB and then 16 KB steps took five (issue 51).
 */
const ROLLOUT_HEAD_FIRST_READ = 64 * 1024;

export class CodexProvider implements EvidenceSource {
  readonly name = 'codex';
  readonly problems = new Problems();
  private readonly rollouts = new Map<string, TailedFile<CodexRollout>>();
  private readonly compressed = new Map<string, CompressedRollout>();
  private readonly index: TailedFile<ThreadNames>;

  private readonly headIndex: FileIndex<CodexRollout> | null;
  private readonly rolloutOptions: TailOptions;

  constructor(
    readonly root: string,
    private readonly options: TailOptions = DEFAULT_TAIL_OPTIONS,
    index: SessionIndexPort = NO_INDEX,
  ) {
    this.headIndex = index === NO_INDEX ? null : new FileIndex(index, this.name, ROLLOUT_HEAD);
    this.rolloutOptions = { headFirstRead: ROLLOUT_HEAD_FIRST_READ, ...options };
    const whole = 8 * 1024 * 1024;
    this.index = new TailedFile(join(root, 'session_index.jsonl'), () => new ThreadNames(), { ...options, firstWindow: whole, maxWindow: whole });
  }

  /** The rollouts' evidence, before the writer locks are asked. */
  private base: SessionEvidence[] | null = null;
  private readonly writers = new WriterCheck(LOCK_SOURCE);

  async sync(_now: number, changed?: ReadonlySet<string>): Promise<SessionEvidence[]> {
    const files = discoverCodex(this.root, this.problems);
    const rollouts = syncFiles(
      this.rollouts,
      files.rollouts,
      (path) => new TailedFile(path, () => new CodexRollout(), this.rolloutOptions, this.headIndex),
      changed,
      this.problems,
    );
    const compressed = await this.syncCompressed(files.compressed);
    const index = await this.syncIndex(changed);
    if (rollouts || compressed || index || this.base === null) this.base = this.assemble();
    // A turn the rollout leaves open whose writer lock nobody holds: the Codex that wrote it is gone.
    let table: LockTable | null | undefined;
    return this.writers.apply(this.base, (session) => writerLock(this.root, session.sessionId, (table ??= LockTable.read())) === 'free');
  }

  /** Says whether any compressed rollout appeared, went or changed. */
  private async syncCompressed(paths: readonly string[]): Promise<boolean> {
    const wanted = new Set(paths);
    let touched = false;
    for (const path of this.compressed.keys()) {
      if (wanted.has(path)) continue;
      this.compressed.delete(path);
      touched = true;
    }
    for (const path of paths) {
      try {
        const before = this.compressed.get(path);
        const after = await readCompressed(path, this.options.maxLineBytes, before);
        if (after !== before) touched = true;
        this.compressed.set(path, after);
      } catch (error) {
        if (errorCode(error) !== 'ENOENT') this.problems.add({ kind: 'unreadable', path, detail: errorCode(error) ?? String(error) });
      }
    }
    return touched;
  }

  /** Says whether the thread names may have changed. */
  private async syncIndex(changed: ReadonlySet<string> | undefined): Promise<boolean> {
    if (changed !== undefined && !changed.has(this.index.path)) return false;
    try {
      return await this.index.update();
    } catch (error) {
      if (errorCode(error) !== 'ENOENT') this.problems.add({ kind: 'unreadable', path: this.index.path, detail: errorCode(error) ?? String(error) });
      return false;
    }
  }

  private views(): RolloutView[] {
    const views: RolloutView[] = [];
    for (const [path, file] of this.rollouts) views.push({ path, tail: file.tail, head: file.head, skipped: file.skipped });
    for (const [path, item] of this.compressed) {
      // A live .jsonl wins over a compressed copy of the same thread.
      if (!this.rollouts.has(path.replace(/\.zst$/, ''))) views.push({ path, tail: item.rollout, head: null, skipped: item.skipped });
    }
    return views;
  }

  private assemble(): SessionEvidence[] {
    const names = this.index.tail.names;
    const leads: { id: string; view: RolloutView }[] = [];
    const children = new Map<string, ChildEvidence[]>();
    const childSkips = new Map<string, number>();
    for (const view of this.views()) {
      const id = threadId(view);
      if (id === null) continue;
      const meta = view.head?.meta ?? view.tail.meta;
      const parent = meta?.parentThreadId ?? null;
      if (parent === null) {
        leads.push({ id, view });
        continue;
      }
      const lastAt = view.tail.lastRecordAt;
      if (lastAt === null) continue;
      const child: ChildEvidence = {
        id,
        name: meta?.nickname ?? names.get(id) ?? id.slice(0, 8),
        role: 'agent',
        source: ROLLOUT_SOURCE,
        startedAt: meta?.startedAt ?? view.head?.firstAt ?? view.tail.firstAt ?? lastAt,
        lastAt,
        signal: view.tail.signal,
        request: null,
      };
      appendTo(children, parent, child);
      childSkips.set(parent, (childSkips.get(parent) ?? 0) + view.skipped);
    }
    const sessions = new Map<string, SessionEvidence>();
    for (const { id, view } of leads) {
      const { tail, head } = view;
      const meta = head?.meta ?? tail.meta;
      const evidence: SessionEvidence = {
        provider: 'codex',
        sessionId: id,
        title: names.get(id) ?? head?.firstPrompt ?? tail.firstPrompt,
        cwd: tail.cwd ?? head?.cwd ?? meta?.cwd ?? null,
        branch: meta?.branch ?? null,
        transcriptSource: ROLLOUT_SOURCE,
        lastRecordAt: tail.lastRecordAt ?? head?.lastRecordAt ?? null,
        signal: tail.signal,
        turn: tail.turn,
        direct: [],
        liveness: { kind: 'unreported' },
        children: children.get(id) ?? [],
        workingTree: { kind: 'unknown' },
        notices: [],
        skippedLines: view.skipped + (childSkips.get(id) ?? 0),
        interruptedTurns: tail.interruptedTurns,
        answeredAt: tail.answeredAt,
        ...(tail.usageWindows.length > 0 ? { usageWindows: tail.usageWindows } : {}),
      };
      const previous = sessions.get(id);
      if (previous === undefined || (evidence.lastRecordAt ?? 0) > (previous.lastRecordAt ?? 0)) sessions.set(id, evidence);
    }
    return [...sessions.values()];
  }
}
