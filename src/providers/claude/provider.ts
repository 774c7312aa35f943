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
import { discoverClaude } from './discover';
import { ClaudeLeadFile } from './lead-file';
import type { RegistryEntry } from './registry';
import { pidAlive } from '../system/process';
import { REGISTRY_SOURCE, readRegistry, registryView } from './registry';
import { ClaudeTranscript } from './transcript';
import { statSync } from 'node:fs';
import type { MiddleFacts, SessionIndexPort } from '../session-index';
import { NO_INDEX } from '../session-index';
import { identityOf, sameFile, scanTitles } from './middle-scan';

export const TRANSCRIPT_SOURCE = 'claude.transcript';

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

  /** Per lead file: the middle's facts if they still hold for the file as it is (checked once per size). */
  private readonly middles = new Map<string, { ino: number; size: number; facts: MiddleFacts | null }>();

  constructor(
    readonly root: string,
    private readonly options: TailOptions = DEFAULT_TAIL_OPTIONS,
    private readonly watching = false,
    private readonly index: SessionIndexPort = NO_INDEX,
  ) {}

  /**
   * What a scan of the file's middle learned, if it still holds: the same file, grown by no more
   * than the cold read's first window past where the scan stopped (so nothing unread lies between).
   */
  private middle(path: string, file: TailedFile<ClaudeLeadFile>): MiddleFacts | null {
    // Nothing learned of it (most files, and every file of a first run): no syscall at all.
    if (file.head === null || this.index.get(this.name, path) === undefined) return null;
    let info: { ino: number; size: number };
    try {
      info = statSync(path);
    } catch {
      return null;
    }
    const known = this.middles.get(path);
    if (known !== undefined && known.ino === info.ino && known.size === info.size) return known.facts;
    const facts = this.index.get(this.name, path);
    const now = facts === undefined ? null : identityOf(path);
    const holds = facts !== undefined && now !== null && sameFile(facts.identity, now) && now.size - facts.identity.size <= this.options.firstWindow;
    this.middles.set(path, { ino: info.ino, size: info.size, facts: holds ? facts : null });
    return holds ? facts : null;
  }

  /**
   * One step of background work (issue 14): the next lead file whose middle no scan has covered is
   * scanned for up to `budget` bytes. Says whether a title it found changes a row.
   */
  backgroundStep(budget: number): { worked: boolean; changed: boolean } {
    for (const [path, file] of this.leads) {
      // A file read whole by its cold read has no middle.
      if (file.head === null) continue;
      const now = identityOf(path);
      if (now === null) continue;
      const before = this.index.get(this.name, path);
      const valid = before !== undefined && sameFile(before.identity, now);
      const from = valid ? before.identity.size : 0;
      if (from >= now.size) continue;
      const carry = valid ? before : { customTitle: null, summaryTitle: null };
      const step = scanTitles(path, from, now.size, budget, carry);
      this.index.put(this.name, path, { identity: { ...now, size: step.next }, customTitle: step.customTitle, summaryTitle: step.summaryTitle });
      this.middles.delete(path);
      // What a scan learned counts once it has read up to the end it started from (nothing unread
      // between it and the cold read's window): then the row is assembled again.
      const done = step.next >= now.size;
      const changed = done && (step.customTitle !== null || step.summaryTitle !== null);
      if (changed) this.last = null;
      return { worked: true, changed };
    }
    return { worked: false, changed: false };
  }

  private last: { evidence: SessionEvidence[]; registry: string } | null = null;

  async sync(now: number, changed?: ReadonlySet<string>): Promise<SessionEvidence[]> {
    const files = discoverClaude(this.root, this.problems);
    const leadsTouched = await syncFiles(this.leads, files.leads, (path) => new TailedFile(path, () => new ClaudeLeadFile(), this.options), changed, this.problems);
    for (const { path, parentStem } of files.subagents) this.childParents.set(path, parentStem);
    const childPaths = [...files.subagents.map((item) => item.path), ...files.looseAgents];
    const childrenTouched = await syncFiles(this.children, childPaths, (path) => new TailedFile(path, () => new ClaudeTranscript(), this.options), changed, this.problems);
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
      const middle = this.middle(path, file);
      const sessionId = lead.sessionId ?? head?.sessionId ?? stem(path);
      const children = [...(byParentStem.get(stem(path)) ?? []), ...(bySessionId.get(sessionId) ?? [])];
      if (sawSidechain && sidechain.lastRecordAt !== null) {
        children.push({ id: 'sidechain', name: 'sidechain', role: 'agent', source: TRANSCRIPT_SOURCE, startedAt: sidechain.firstAt ?? sidechain.lastRecordAt, lastAt: sidechain.lastRecordAt, signal: sidechain.signal, request: null });
      }
      const skipped = file.skipped + (skippedByParentStem.get(stem(path)) ?? 0);
      const evidence: SessionEvidence = {
        provider: 'claude',
        sessionId,
        // §11: a custom title wherever it was read (the end, else the middle a scan read, else the
        // head), then a summary or ai-title likewise, then the first prompt.
        title: lead.customTitle ?? middle?.customTitle ?? head?.customTitle ?? lead.summaryTitle ?? middle?.summaryTitle ?? head?.summaryTitle ?? head?.firstPrompt ?? lead.firstPrompt,
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
      if (existing !== undefined && !entries.has(sessionId)) sessions.set(sessionId, { ...existing, liveness: { kind: 'removed', source: REGISTRY_SOURCE, at } });
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
