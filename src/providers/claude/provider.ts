// Claude Code as evidence: leads, their children and the live registry, assembled per session.
import { READ_CAPS, readRegularText } from '../system/safe-read';
import { basename, dirname, join } from 'node:path';
import type { ChildEvidence, SessionEvidence } from '../../engine';
import { parseRecord, str } from '../jsonl/parse-record';
import { Problems, errorCode } from '../problems';
import type { EvidenceSource } from '../source';
import { syncFiles } from '../source';
import { appendTo } from '../groups';
import type { TailOptions } from '../tailed-file';
import { DEFAULT_TAIL_OPTIONS, TailedFile } from '../tailed-file';
import type { ClaudeFiles } from './discover';
import { discoverClaude } from './discover';
import { underRoot } from '../source';
import { ClaudeLeadFile } from './lead-file';
import type { RegistryEntry } from './registry';
import { pidAlive } from '../system/process';
import { REGISTRY_SOURCE, readRegistry, registryView } from './registry';
import { ClaudeTranscript } from './transcript';
import type { MiddleScan, SessionIndexPort } from '../session-index';
import { NO_INDEX } from '../session-index';
import { FileIndex } from '../file-index';
import { LEAD_FILE_HEAD, TRANSCRIPT_HEAD } from './head-facts';
import { scanTitles } from './middle-scan';

export const TRANSCRIPT_SOURCE = 'claude.transcript';
/** A long scan's progress is saved this often (and when it ends). */
const SAVE_EVERY = 64 * 1024 * 1024;

const stem = (path: string): string => basename(path).replace(/\.jsonl$/, '');

export class ClaudeProvider implements EvidenceSource {
  readonly name = 'claude';
  readonly problems = new Problems();
  private readonly leads = new Map<string, TailedFile<ClaudeLeadFile>>();
  private readonly children = new Map<string, TailedFile<ClaudeTranscript>>();
  private readonly childParents = new Map<string, string>();
  private readonly childNames = new Map<string, string>();
  /** Sessions seen alive in the registry, so a vanished entry reads as `registry-removed`. */
  private readonly watchedLive = new Set<string>();
  private readonly removedAt = new Map<string, number>();

  private readonly leadIndex: FileIndex<ClaudeLeadFile> | null;
  private readonly childIndex: FileIndex<ClaudeTranscript> | null;

  constructor(
    readonly root: string,
    private readonly options: TailOptions = DEFAULT_TAIL_OPTIONS,
    private readonly watching = false,
    index: SessionIndexPort = NO_INDEX,
  ) {
    this.leadIndex = index === NO_INDEX ? null : new FileIndex(index, this.name, LEAD_FILE_HEAD);
    this.childIndex = index === NO_INDEX ? null : new FileIndex(index, this.name, TRANSCRIPT_HEAD);
  }

  /**
   * What a scan of the file's middle learned, if it covers everything between the head and where
   * the tail's reading begins (issue 14). The tail reads on from there, appends included.
   */
  private middle(file: TailedFile<ClaudeLeadFile>): MiddleScan | null {
    const middle = file.known?.middle ?? null;
    return file.head !== null && middle !== null && middle.scannedTo >= file.tailFrom ? middle : null;
  }

  /**
   * One step of background work (issue 14): the next lead file whose middle no scan has covered is
   * scanned for up to `budget` bytes. Says whether a title it found changes a row.
   */
  backgroundStep(budget: number): { worked: boolean; changed: boolean } {
    // Several small files make one step (a step per file would be a timer and a pause per file).
    let left = budget;
    let worked = false;
    let changed = false;
    // The walk resumes where the last step stopped: from the first lead at every step, a pass of
    // ~150 steps over 2,000 leads looked at each ~150 times (issue 27).
    const pending = (this.pending ??= { paths: [...this.leads.keys()], at: 0 });
    for (; pending.at < pending.paths.length && left > 0; pending.at += 1) {
      const path = pending.paths[pending.at] ?? '';
      const file = this.leads.get(path);
      // A file read whole has no middle; one the index does not know is not kept.
      const entry = file?.known ?? null;
      if (file === undefined || file.head === null || entry === null) continue;
      const from = entry.middle?.scannedTo ?? 0;
      const to = file.tailFrom;
      if (from >= to) continue;
      const step = scanTitles(path, entry.identity, from, to, left, entry.middle ?? { customTitle: null, summaryTitle: null });
      // Replaced or cut short since it was loaded: its reload (the watcher's event) starts afresh.
      if (step === null) continue;
      worked = true;
      left -= Math.max(1, step.next - from);
      // What a scan learned counts once it has read up to where the tail begins (nothing unread
      // between): then it is saved and the row assembled again. On the way, progress is saved
      // every 64 MB, not every step: each save rewrites the index.
      const done = step.next >= to;
      file.learn(
        { scannedTo: step.next, customTitle: step.customTitle, summaryTitle: step.summaryTitle },
        done || Math.floor(step.next / SAVE_EVERY) > Math.floor(from / SAVE_EVERY),
      );
      if (done && (step.customTitle !== null || step.summaryTitle !== null)) changed = true;
      // Stopped inside this file (the budget spent): the next step goes on with it.
      if (!done) break;
    }
    if (changed) this.last = null;
    return { worked, changed };
  }

  private last: { evidence: SessionEvidence[]; registry: string } | null = null;

  /** The leads the background pass walks, and how far it got; dropped when the leads change (a new, reloaded or gone file). */
  private pending: { paths: string[]; at: number } | null = null;

  /** The folders' last listing, and whether a change may have altered it. */
  private discovered: ClaudeFiles | null = null;

  /**
   * Files known already are all that changed under the root: the listing stands (an append is no
   * reason to list every project folder). A change elsewhere alone (a hook's spool line) still
   * lists them: the root may not be watched yet (it did not exist when watching began), and a
   * hook is often the first word of a session whose file is new.
   */
  private listingStands(changed: ReadonlySet<string> | undefined): boolean {
    if (this.discovered === null || changed === undefined) return false;
    let known = false;
    for (const path of changed) {
      if (!underRoot(path, this.root)) continue;
      if (!this.leads.has(path) && !this.children.has(path)) return false;
      known = true;
    }
    return known;
  }

  async sync(now: number, changed?: ReadonlySet<string>): Promise<SessionEvidence[]> {
    const files = this.listingStands(changed) && this.discovered !== null ? this.discovered : discoverClaude(this.root, this.problems);
    this.discovered = files;
    const leadsTouched = syncFiles(
      this.leads,
      files.leads,
      (path) => new TailedFile(path, () => new ClaudeLeadFile(), this.options, this.leadIndex),
      changed,
      this.problems,
    );
    if (leadsTouched) this.pending = null;
    for (const { path, parentStem } of files.subagents) this.childParents.set(path, parentStem);
    const childPaths = [...files.subagents.map((item) => item.path), ...files.looseAgents];
    const childrenTouched = syncFiles(
      this.children,
      childPaths,
      (path) => new TailedFile(path, () => new ClaudeTranscript(), this.options, this.childIndex),
      changed,
      this.problems,
    );
    this.loadChildNames(files.subagents.map((item) => item.path));
    const { entries: registry, incomplete } = readRegistry(this.root, this.problems);
    // The registry's word includes which pids are alive: a crash changes it with no file change.
    const signature = JSON.stringify(registry.map((entry) => [entry, pidAlive(entry.pid)]));
    if (!leadsTouched && !childrenTouched && this.last !== null && this.last.registry === signature) return this.last.evidence;
    const evidence = this.assemble(registry, now, incomplete);
    this.last = { evidence, registry: signature };
    return evidence;
  }

  private loadChildNames(paths: readonly string[]): void {
    for (const path of paths) {
      if (this.childNames.has(path)) continue;
      const metaPath = join(dirname(path), `${stem(path)}.meta.json`);
      try {
        const meta = parseRecord(readRegularText(metaPath, READ_CAPS.smallJson));
        const name = str(meta?.description) ?? str(meta?.agentType);
        if (name !== null) this.childNames.set(path, name);
      } catch (error) {
        // No name file is usual; one that cannot be read (a FIFO, a device, too large) is said once.
        if (errorCode(error) !== 'ENOENT') this.problems.add({ kind: 'unreadable', path: metaPath, detail: errorCode(error) ?? String(error) });
        this.childNames.set(path, stem(path).replace(/^agent-/, ''));
      }
    }
  }

  private childEvidence(path: string, file: TailedFile<ClaudeTranscript>): ChildEvidence | null {
    const { tail, head } = file;
    const lastAt = tail.lastRecordAt ?? head?.lastRecordAt ?? null;
    if (lastAt === null) return null;
    const id = tail.agentId ?? head?.agentId ?? stem(path).replace(/^agent-/, '');
    return {
      id,
      name: this.childNames.get(path) ?? id,
      role: 'agent',
      source: TRANSCRIPT_SOURCE,
      startedAt: head?.firstAt ?? tail.firstAt ?? lastAt,
      lastAt,
      signal: tail.signal,
      request: null,
    };
  }

  private assemble(registry: readonly RegistryEntry[], now: number, incomplete: boolean): SessionEvidence[] {
    // Grouped in one pass each: thousands of subagent files must not cost leads × children.
    const byParentStem = new Map<string, ChildEvidence[]>();
    const bySessionId = new Map<string, ChildEvidence[]>();
    const skippedByParentStem = new Map<string, number>();
    for (const [path, file] of this.children) {
      const parent = this.childParents.get(path);
      if (parent !== undefined) skippedByParentStem.set(parent, (skippedByParentStem.get(parent) ?? 0) + file.skipped);
      const child = this.childEvidence(path, file);
      if (child === null) continue;
      const target = parent !== undefined ? byParentStem : bySessionId;
      const key = parent ?? file.tail.sessionId ?? file.head?.sessionId ?? '';
      appendTo(target, key, child);
    }
    const entriesBySession = new Map<string, RegistryEntry[]>();
    for (const entry of registry) appendTo(entriesBySession, entry.sessionId, entry);

    const sessions = new Map<string, SessionEvidence>();
    for (const [path, file] of this.leads) {
      const { lead, sidechain, sawSidechain } = file.tail;
      const head = file.head?.lead ?? null;
      const middle = this.middle(file);
      const fileStem = stem(path);
      const sessionId = lead.sessionId ?? head?.sessionId ?? fileStem;
      const children = [...(byParentStem.get(fileStem) ?? []), ...(bySessionId.get(sessionId) ?? [])];
      if (sawSidechain && sidechain.lastRecordAt !== null) {
        children.push({
          id: 'sidechain',
          name: 'sidechain',
          role: 'agent',
          source: TRANSCRIPT_SOURCE,
          startedAt: sidechain.firstAt ?? sidechain.lastRecordAt,
          lastAt: sidechain.lastRecordAt,
          signal: sidechain.signal,
          request: null,
        });
      }
      const skipped = file.skipped + (skippedByParentStem.get(fileStem) ?? 0);
      const evidence: SessionEvidence = {
        provider: 'claude',
        sessionId,
        // §11: a custom title wherever it was read (the end, else the middle a scan read, else the
        // head), then a summary or ai-title likewise, then the first prompt.
        title:
          lead.customTitle ??
          middle?.customTitle ??
          head?.customTitle ??
          lead.summaryTitle ??
          middle?.summaryTitle ??
          head?.summaryTitle ??
          head?.firstPrompt ??
          lead.firstPrompt,
        cwd: lead.cwd ?? head?.cwd ?? null,
        branch: lead.branch ?? head?.branch ?? null,
        transcriptSource: TRANSCRIPT_SOURCE,
        lastRecordAt: lead.lastRecordAt ?? head?.lastRecordAt ?? null,
        signal: lead.signal,
        turn: lead.turn,
        direct: [],
        liveness: { kind: 'unreported' },
        children,
        workingTree: { kind: 'unknown' },
        notices: [],
        skippedLines: skipped,
        interruptedTurns: [...(head?.interruptedTurns ?? []), ...lead.interruptedTurns],
        answeredAt: lead.answeredAt,
      };
      const previous = sessions.get(sessionId);
      // Two files claiming one session: keep the one with the newer records.
      if (previous === undefined || (evidence.lastRecordAt ?? 0) > (previous.lastRecordAt ?? 0)) sessions.set(sessionId, evidence);
    }
    this.applyRegistry(sessions, entriesBySession, now, incomplete);
    return [...sessions.values()];
  }

  private applyRegistry(sessions: Map<string, SessionEvidence>, entries: Map<string, RegistryEntry[]>, now: number, incomplete: boolean): void {
    for (const [sessionId, list] of entries) {
      const view = registryView(list, now);
      if (view === null) continue;
      const existing = sessions.get(sessionId);
      if (existing === undefined && view.liveness.kind !== 'alive') continue; // a crash leftover with no transcript
      const base = existing ?? blankSession(sessionId, view.cwd);
      sessions.set(sessionId, { ...base, cwd: base.cwd ?? view.cwd, liveness: view.liveness, direct: [...base.direct, ...view.direct] });
      if (view.liveness.kind === 'alive') {
        this.watchedLive.add(sessionId);
        this.removedAt.delete(sessionId);
      }
    }
    if (!this.watching) return;
    // A registry file caught mid-write says nothing about which sessions went away.
    for (const sessionId of incomplete ? [] : this.watchedLive) {
      if (entries.has(sessionId)) continue;
      this.watchedLive.delete(sessionId);
      this.removedAt.set(sessionId, now);
    }
    for (const [sessionId, at] of this.removedAt) {
      const existing = sessions.get(sessionId);
      if (existing !== undefined && !entries.has(sessionId))
        sessions.set(sessionId, { ...existing, liveness: { kind: 'removed', source: REGISTRY_SOURCE, at } });
    }
  }
}

function blankSession(sessionId: string, cwd: string | null): SessionEvidence {
  return {
    provider: 'claude',
    sessionId,
    title: null,
    cwd,
    branch: null,
    transcriptSource: TRANSCRIPT_SOURCE,
    lastRecordAt: null,
    signal: null,
    turn: null,
    direct: [],
    liveness: { kind: 'unreported' },
    children: [],
    workingTree: { kind: 'unknown' },
    notices: [],
    skippedLines: 0,
  };
}
