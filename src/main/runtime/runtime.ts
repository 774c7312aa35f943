// The headless runtime shared by `lookout watch`, `lookout serve` and the tray app: it watches
// the providers, re-derives rows on every change and every beat, keeps the user's facts,
// notifies, and records what the engine decided.
import { existsSync, mkdirSync } from 'node:fs';
import { join, sep } from 'node:path';
import type { Evaluation, NotificationPlan, ReviewState, SessionEvidence, Snapshot } from '../../engine';
import { evaluate, iso, isoOrNull, planNotification, sessionKey } from '../../engine';
import type { EvidenceSource } from '../../providers/source';
import type { Notifier } from '../notify/notifier';
import { createSources, createSpool, describeProblems, spoolFolder } from '../snapshot-source';
import { mergeHooks } from '../../providers/hooks/merge';
import type { HookSession } from '../../providers/hooks/spool-reader';
import type { HookSpool } from '../../providers/hooks/spool-reader';
import type { RuntimeState } from '../state';
import { loadState } from '../state';
import type { StoreFile } from '../store/schema';
import { toFacts } from '../store/facts-store';
import { settingsPath } from '../store/settings-store';
import { readWorkingTree } from '../working-tree';
import type { WatchTarget } from './file-watch';
import { ChangeWatcher } from './file-watch';
import { TreeCache } from './tree-cache';
import { HeapSettle, fullCollector } from './heap-settle';

/** Whether a snapshot differs: a reused derivation keeps its very row object, so most compare by reference. */
export function changedRows(before: Evaluation, after: Evaluation): boolean {
  const a = before.snapshot;
  const b = after.snapshot;
  if (a.attention.count !== b.attention.count || a.attention.level !== b.attention.level || a.sessions.length !== b.sessions.length) return true;
  return a.sessions.some((row, index) => {
    const other = b.sessions[index];
    return other !== row && JSON.stringify(other) !== JSON.stringify(row);
  });
}

/** A full re-read every so often: the safety net for missed events and crashed processes. */
export const RESCAN_MS = 30_000;

export interface RuntimeOptions {
  env: NodeJS.ProcessEnv;
  clock: () => number;
  notifier: Notifier | null;
  /** One line per problem, each reported once (unreadable paths, a store kept aside, no notifications). */
  onProblem: (line: string) => void;
  /** Opens a session when its notification is clicked (R44). */
  onOpen?: (key: string) => void;
}

export type SnapshotListener = (snapshot: Snapshot, evaluation: Evaluation) => void;

export class Runtime {
  private state: RuntimeState;
  private sources: EvidenceSource[] = [];
  private spool: HookSpool | null = null;
  private hooks: ReadonlyMap<string, HookSession> = new Map();
  private watcher: ChangeWatcher | null = null;
  private watchedTargets = '';
  private evidence: SessionEvidence[] = [];
  private results: SessionEvidence[][] = [];
  private last: Evaluation | null = null;
  private readonly listeners = new Set<SnapshotListener>();
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly trees = new TreeCache();
  private readonly settle = new HeapSettle(fullCollector());
  private readonly notifiedHere = new Set<string>();
  private notifyFailed = false;
  private syncing: Promise<void> | null = null;
  private queued: Set<string> | null | undefined = undefined;
  private disposed = false;
  /** The session selected in an open popover (R40, §5): never notified, never awarded ready-for-review. */
  onScreen: string | null = null;

  constructor(private readonly options: RuntimeOptions) {
    this.state = loadState(options.clock(), options.env);
    for (const line of this.state.problems) options.onProblem(line);
  }

  get home(): string {
    return this.state.home;
  }

  get evaluation(): Evaluation | null {
    return this.last;
  }

  get roots(): { claude: string; codex: string } {
    return this.state.roots;
  }

  get settings(): RuntimeState['settings'] {
    return this.state.settings;
  }

  onSnapshot(listener: SnapshotListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async start(): Promise<void> {
    // Lookout's own folder is watched for facts another process records.
    mkdirSync(this.state.home, { recursive: true });
    this.sources = createSources(this.state.roots, true);
    this.spool = createSpool(this.state.home);
    mkdirSync(spoolFolder(this.state.home), { recursive: true });
    await this.sync(undefined);
    await this.rewatch();
    const beat = setInterval(() => this.beat(), this.state.settings.timings.beat);
    const rescan = setInterval(() => {
      void this.rewatch();
      void this.sync(undefined);
    }, RESCAN_MS);
    this.timers.push(beat, rescan);
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    for (const timer of this.timers) clearInterval(timer);
    this.settle.dispose();
    this.timers.length = 0;
    await this.watcher?.dispose();
    this.watcher = null;
    await this.syncing;
    this.listeners.clear();
  }

  /** Folders to watch: only those that exist (a fresh machine may have no ~/.codex yet). */
  private targets(): WatchTarget[] {
    const { claude, codex } = this.state.roots;
    const wanted: WatchTarget[] = [
      { path: join(claude, 'projects'), depth: 3 },
      { path: join(claude, 'sessions'), depth: 0 },
      { path: join(codex, 'sessions'), depth: 3 },
      { path: join(codex, 'session_index.jsonl'), depth: 0 },
      { path: this.state.home, depth: 0 },
      { path: spoolFolder(this.state.home), depth: 0 },
    ];
    return wanted.filter((target) => existsSync(target.path));
  }

  private async rewatch(): Promise<void> {
    const targets = this.targets();
    const signature = JSON.stringify(targets);
    if (signature === this.watchedTargets || this.disposed) return;
    this.watchedTargets = signature;
    await this.watcher?.dispose();
    const watcher = new ChangeWatcher(targets, (paths) => this.changed(paths), (error) => this.options.onProblem(`lookout: watching files failed: ${error.message}`));
    this.watcher = watcher;
    await watcher.ready();
  }

  private changed(paths: ReadonlySet<string>): void {
    const storePath = this.state.store.path;
    const settings = settingsPath(this.state.home);
    if ([...paths].some((path) => path === storePath || path === settings)) {
      this.reloadFacts();
      this.evaluateNow();
    }
    // Lookout's own folder (lock, temp files) is never provider evidence; its spool is.
    const home = `${this.state.home}${sep}`;
    const spool = `${spoolFolder(this.state.home)}${sep}`;
    const provider = new Set([...paths].filter((path) => path.startsWith(spool) || (!path.startsWith(home) && path !== this.state.home)));
    if (provider.size > 0) void this.sync(provider);
  }

  /** Another process (a command, the other face) changed the store or the settings. */
  reloadFacts(): void {
    const fresh = loadState(this.options.clock(), this.options.env);
    for (const line of fresh.problems) this.options.onProblem(line);
    this.state = { ...this.state, facts: fresh.facts, settings: fresh.settings };
  }

  /** Re-reads changed files (all known files without a set); one sync at a time, the rest merged. */
  sync(changed: ReadonlySet<string> | undefined): Promise<void> {
    if (this.syncing !== null) {
      if (changed === undefined || this.queued === null) this.queued = null;
      else this.queued = new Set([...(this.queued ?? []), ...changed]);
      return this.syncing;
    }
    this.syncing = (async () => {
      try {
        const now = this.options.clock();
        const spool = this.spool;
        const touchesSpool = changed === undefined || [...changed].some((path) => path.startsWith(spoolFolder(this.state.home)));
        const hooks = spool !== null && touchesSpool ? await spool.sync() : this.hooks;
        const results = await Promise.all(this.sources.map((source) => source.sync(now, changed)));
        const problems = [...this.sources.flatMap((source) => source.problems.drain()), ...(spool?.problems.drain() ?? [])];
        for (const line of describeProblems(problems)) this.options.onProblem(line);
        // Sources and the spool hand back the very same objects when nothing changed: then the beat suffices.
        const same = hooks === this.hooks && this.results.length === results.length && results.every((result, index) => result === this.results[index]);
        this.results = results;
        this.hooks = hooks;
        if (!same || this.last === null) {
          this.evidence = mergeHooks(results.flat(), hooks);
          this.evaluateNow();
        }
      } finally {
        this.syncing = null;
      }
      const next = this.queued;
      this.queued = undefined;
      if (next !== undefined && !this.disposed) await this.sync(next ?? undefined);
    })();
    return this.syncing;
  }

  /** The beat: re-derive only when a timed transition may have happened (nextChangeAt). */
  private beat(): void {
    const next = this.last?.nextChangeAt;
    if (this.last !== null && (next === null || next === undefined || this.options.clock() < next)) return;
    this.evaluateNow();
  }

  /** One evaluation at the clock's now: emit if a row changed, carry out the decisions. */
  evaluateNow(): Evaluation {
    const now = this.options.clock();
    const sessions = this.evidence.map((item) => {
      const tree = this.trees.get(item.cwd);
      return tree === undefined ? item : { ...item, workingTree: tree };
    });
    const evaluation = evaluate({ sessions, facts: this.state.facts, settings: this.state.settings, now, onScreen: this.onScreen, previous: this.last ?? undefined });
    const before = this.last;
    this.last = evaluation;
    if (before === null || changedRows(before, evaluation)) {
      for (const listener of this.listeners) listener(evaluation.snapshot, evaluation);
      this.settle.touch();
    }
    this.carryOut(evaluation, now);
    void this.trees.refresh(evaluation, now, this.state.settings.timings.gitRefresh).then((changed) => {
      if (changed && !this.disposed) this.evaluateNow();
    });
    return evaluation;
  }

  private carryOut(evaluation: Evaluation, now: number): void {
    if (evaluation.ruleApplications.length > 0) {
      this.update(now, (file) => {
        for (const entry of evaluation.ruleApplications) {
          file.ruleLedger.push({ key: entry.key, ruleId: entry.ruleId, version: entry.version, set: entry.set, at: iso(entry.at), lastActivityAt: isoOrNull(entry.lastActivityAt) });
        }
      });
    }
    const plan = evaluation.notification === null ? null : this.withoutUntoldFinishes(evaluation, evaluation.notification);
    if (plan !== null && this.options.notifier !== null) this.notify(plan, now);
  }

  /**
   * A finish is told once its working tree is known: until git has answered, "finished" could
   * still turn out "ready for review" (another claim), and the user would hear of it twice.
   */
  private withoutUntoldFinishes(evaluation: Evaluation, plan: NotificationPlan): NotificationPlan | null {
    const due = [...evaluation.derived.values()].filter((session) => session.claim !== null && plan.claimIds.includes(session.claim.id));
    const told = due.filter((session) => {
      const kind = session.claim?.kind;
      if (kind !== 'finished' && kind !== 'ready-for-review') return true;
      const cwd = session.evidence.cwd;
      const finishedAt = session.claim?.since ?? 0;
      return !session.wantsWorkingTree || cwd === null || this.trees.readSince(cwd, finishedAt);
    });
    if (told.length === due.length) return plan;
    return planNotification(told.map((session) => ({ key: session.key, provider: session.evidence.provider, cwd: session.evidence.cwd, branch: session.evidence.branch, claim: session.claim, muted: session.muted !== null, historical: session.historical })));
  }

  private notify(plan: NotificationPlan, now: number): void {
    // If the store could not record them, this set still keeps each claim to one notification.
    if (plan.claimIds.every((id) => this.notifiedHere.has(id))) return;
    for (const id of plan.claimIds) this.notifiedHere.add(id);
    // The ledger is written first: each claim notifies at most once, across restarts too (R41).
    this.update(now, (file) => {
      for (const id of plan.claimIds) file.notified.push({ id, at: iso(now) });
    });
    this.options.notifier?.send(plan, (key) => this.options.onOpen?.(key)).catch((error: unknown) => {
      if (this.notifyFailed) return;
      this.notifyFailed = true;
      this.options.onProblem(`lookout: notifications are unavailable (${error instanceof Error ? error.message.split('\n')[0] : String(error)}); Lookout goes on without them`);
    });
  }

  private update(now: number, change: (file: StoreFile) => void): void {
    try {
      const result = this.state.store.update(now, change);
      for (const line of result.problems) this.options.onProblem(line);
      this.state = { ...this.state, facts: toFacts(result.file) };
    } catch (error) {
      this.options.onProblem(`lookout: could not save to the store: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private rowCwd(key: string): string | null {
    return this.evidence.find((item) => sessionKey(item.provider, item.sessionId) === key)?.cwd ?? null;
  }

  private lastActivity(key: string): string | null {
    return this.last?.snapshot.sessions.find((row) => row.key === key)?.lastActivityAt ?? null;
  }

  // The user's actions, for the popover and the tray (the command line has its own commands).
  review(key: string, state: ReviewState): void {
    const now = this.options.clock();
    this.update(now, (file) => {
      file.reviews[key] = { state, at: iso(now), lastActivityAt: this.lastActivity(key) };
    });
    this.evaluateNow();
  }

  mute(key: string, until: number | null): void {
    const now = this.options.clock();
    this.update(now, (file) => {
      file.mutes[key] = { at: iso(now), until: isoOrNull(until) };
    });
    this.evaluateNow();
  }

  unmute(key: string): void {
    this.update(this.options.clock(), (file) => {
      delete file.mutes[key];
    });
    this.evaluateNow();
  }

  async visit(key: string): Promise<void> {
    const now = this.options.clock();
    const tree = await readWorkingTree(this.rowCwd(key), now);
    this.update(now, (file) => {
      file.visits[key] = { at: iso(now), fingerprint: tree.kind === 'read' ? tree.fingerprint : null };
    });
    this.evaluateNow();
  }
}
