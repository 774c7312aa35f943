// The headless runtime shared by `lookout watch`, `lookout serve` and the tray app: it watches
// the providers, runs the pipeline on every change and every beat, keeps the user's facts through
// the fact writer, and carries out what the engine decided (notifications, the ledgers).
import { type Evaluation, type NotifyCandidate, type Snapshot, mergeHosts, movedOnSince, planNotification } from '../../engine';
import type { CommandResult, FeedCommand } from '../../engine/contract';
import { HostSet } from '../hosts/host-set';
import { BackgroundScan, backgroundPassOn } from './background-scan';
import { SessionIndexStore } from '../store/session-index-store';
import type { HostConfig } from '../store/schema';
import type { ProviderRoots } from '../../providers';
import { FactWriter } from '../facts/fact-writer';
import type { Notifier } from '../notify/notifier';
import type { Notices } from './notices';
import { RemoteNotices } from './remote-notices';
import { Recheck } from './recheck';
import type { Clock } from '../pipeline/clock';
import { Pipeline } from '../pipeline/pipeline';
import type { RuntimeState } from '../pipeline/state';
import { loadState } from '../pipeline/state';
import { settingsPath } from '../store/settings-store';
import { ChangeWatcher } from './file-watch';
import { ownFolders } from './own-folders';
import type { WatchedPlaces } from './watched-paths';
import { sortChanged, watchTargets } from './watched-paths';
import { HeapSettle, fullCollector, quietHeap, whenGrown } from './heap-settle';
import type { AnswerAttempt } from '../answer/broker';
import { AnswerService, NOT_ANSWERING } from '../answer/answer-service';
import type { AnswerFrom } from '../answer/protocol';
import { BURST_PATHS, BURST_SETTLE_MS, changedRows, rescanInterval } from './pace';
import { Rescan } from './rescan';
import { shownSnapshot, statusReply } from './status-reply';
import type { PhoneOptions, PhoneSwitch } from './phone-wiring';
import type { TellingPorts } from './telling';
import { hostClaimsDue, noticesFor, phoneFor, shownOpen } from './telling';
import { phonePath } from '../phone/phone-config';

export interface RuntimeOptions {
  env: NodeJS.ProcessEnv;
  clock: Clock;
  notifier: Notifier | null;
  /** One line per problem, each reported once (unreadable paths, a store kept aside, no notifications). */
  onProblem: (line: string) => void;
  /** Opens a session when its notification is clicked or its Open is picked (R44); several, a digest's. */
  onOpen?: (keys: readonly string[]) => void;
  /**
   * Whether to connect to the settings' other machines (default true). `lookout feed` does not:
   * it tells only its own machine's sessions, and two machines naming each other never loop.
   */
  hosts?: boolean;
  /** Whether to hold the answer channel (§13): every long-running face does; tests may not. */
  answering?: boolean;
  /**
   * The phone (issue 49), from phone.json: `force` sends always (`watch --phone`), `awayKnown` for
   * a face that can tell the person is away (the tray); false: no phone at all.
   */
  phone?: PhoneOptions | false;
}

export type SnapshotListener = (snapshot: Snapshot, evaluation: Evaluation) => void;

export class Runtime {
  private state: RuntimeState;
  /** The one writer of user facts, for the popover host and the tray as well. */
  readonly facts: FactWriter;
  private readonly pipeline: Pipeline;
  private watcher: ChangeWatcher | null = null;
  private watchedTargets = '';
  private last: Evaluation | null = null;
  private readonly listeners = new Set<SnapshotListener>();
  private readonly timers: NodeJS.Timeout[] = [];
  private rescan: Rescan | null = null;
  private readonly settle = new HeapSettle(whenGrown(fullCollector()));
  /** Notifications carried out: null without a notifier. */
  private readonly notices: Notices | null;
  private syncing: Promise<void> | null = null;
  private queued: Set<string> | null | undefined = undefined;
  private disposed = false;
  /** What chokidar's throttle held back is read once more a little later. */
  private readonly recheck = new Recheck((paths) => this.changed(paths, true));
  private settleTimer: NodeJS.Timeout | null = null;
  /** The session selected in an open popover (R40, §5): never notified, never awarded ready-for-review. */
  onScreen: string | null = null;
  /** Other machines' Lookouts, over ssh (issue 13): their rows join this machine's. */
  readonly hosts: HostSet;
  private published: Snapshot | null = null;
  private readonly index: SessionIndexStore;
  private readonly background: BackgroundScan;
  private hostsChanged = false;
  /** Other machines' claims to notify: capped a host, one notification a host at a time (issue 25). */
  private readonly remoteNotices = new RemoteNotices((line) => this.options.onProblem(line));
  private hostsTimer: NodeJS.Timeout | null = null;
  /** The answer channel and the prompts its hooks bring (issue 23); null when not answering. */
  private readonly answering: AnswerService | null;
  /** The phone (issue 49), wrapping the desktop's notifier and rebuilt when phone.json changes; null for a face without it. */
  private readonly phone: PhoneSwitch | null;

  constructor(private readonly options: RuntimeOptions) {
    quietHeap();
    this.state = loadState(options.clock(), options.env);
    for (const line of this.state.problems) options.onProblem(line);
    this.facts = new FactWriter(this.state.store, this.state.facts, options.onProblem);
    this.index = new SessionIndexStore(this.state.home, options.clock, options.onProblem);
    this.pipeline = new Pipeline({
      roots: this.state.roots,
      home: this.state.home,
      watching: true,
      writer: this.facts,
      onProblem: options.onProblem,
      index: this.index,
    });
    this.background = new BackgroundScan(
      this.pipeline,
      () => void this.sync(new Set()),
      () => this.index.flush(),
      backgroundPassOn(options.env),
    );
    this.answering =
      options.answering === false
        ? null
        : new AnswerService({
            home: this.state.home,
            clock: options.clock,
            viewOf: (key) => this.last?.derived.get(key)?.answer ?? null,
            movedOn: (key, request, askedAt) => {
              const derived = this.last?.derived.get(key);
              return derived !== undefined && movedOnSince(request, derived.evidence, askedAt);
            },
            onRequests: (path) => void this.sync(new Set([path])),
            onAnswer: (record) => this.facts.recordAnswer(record),
            onProblem: options.onProblem,
            snapshot: () => shownSnapshot(this.published, this.last),
            status: (question) => statusReply(shownSnapshot(this.published, this.last), question, options.clock()),
          });
    this.hosts = new HostSet({ clock: options.clock, env: options.env, onChange: () => this.hostChanged(), onProblem: options.onProblem });
    const telling: TellingPorts = {
      home: this.state.home,
      clock: options.clock,
      facts: this.facts,
      settings: () => this.state.settings,
      onProblem: options.onProblem,
      rows: () => this.published?.sessions ?? [],
      remoteAsk: (command) => this.remoteAsk(command),
      answer: (attempt) => this.answer(attempt),
      open: (keys) => this.options.onOpen?.(keys),
      evaluateNow: () => this.evaluateNow(),
    };
    this.phone = phoneFor(options.notifier, options.phone, telling);
    this.notices = noticesFor(this.phone ?? options.notifier, telling);
  }

  /** A fact for another machine's session, to that machine's Lookout: false for a local key; throws, saying why, when not recorded there. */
  remoteAsk(command: FeedCommand): Promise<boolean> {
    return this.hosts.relay(command);
  }

  /** The snapshot last published: this machine's rows and every host's, in one order. */
  get snapshot(): Snapshot | null {
    return this.published;
  }

  /** A host's link or rows changed: published at once, several changes in one go. */
  private hostChanged(): void {
    this.hostsChanged = true;
    if (this.hostsTimer !== null || this.disposed) return;
    this.hostsTimer = setTimeout(() => {
      this.hostsTimer = null;
      if (this.last !== null && !this.disposed) this.publish(this.last, false, []);
    }, 0);
  }

  get home(): string {
    return this.state.home;
  }

  get evaluation(): Evaluation | null {
    return this.last;
  }

  get roots(): ProviderRoots {
    return this.state.roots;
  }

  /** The other machines of the settings. */
  get hostConfigs(): readonly HostConfig[] {
    return this.state.hosts;
  }

  /** The environment it runs in (where the agents' config folders are). */
  get env(): NodeJS.ProcessEnv {
    return this.options.env;
  }

  get settings(): RuntimeState['settings'] {
    return this.state.settings;
  }

  /** The tray app's global key (settings.json), or null for none. */
  get shortcut(): string | null {
    return this.state.shortcut;
  }

  get now(): number {
    return this.options.clock();
  }

  onSnapshot(listener: SnapshotListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async start(): Promise<void> {
    ownFolders(this.state.home, this.pipeline.spoolFolder, this.options.onProblem);
    await this.sync(undefined);
    await this.answering?.start();
    this.phone?.start();
    if (this.options.hosts !== false) this.hosts.update(this.state.hosts);
    await this.rewatch();
    // Whatever changed while the watcher made its first scan is read now: no write between the
    // first read and the watcher's readiness waits for the rescan.
    await this.sync(undefined);
    // Only now, with the first snapshot out: the middles of long files, for what a cold read missed.
    this.background.kick();
    this.timers.push(setInterval(() => this.beat(), this.state.settings.timings.beat));
    this.rescan = new Rescan(async () => {
      await Promise.all([this.rewatch(), this.sync(undefined)]);
      this.background.kick();
    }, rescanInterval(this.options.env));
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    for (const timer of this.timers) clearInterval(timer);
    this.rescan?.dispose();
    this.recheck.dispose();
    if (this.settleTimer !== null) clearTimeout(this.settleTimer);
    if (this.hostsTimer !== null) clearTimeout(this.hostsTimer);
    this.background.dispose();
    this.notices?.dispose();
    this.index.dispose();
    this.hosts.dispose();
    this.settle.dispose();
    this.timers.length = 0;
    await this.watcher?.dispose();
    this.watcher = null;
    await this.syncing;
    await this.answering?.stop();
    this.pipeline.dispose();
    this.listeners.clear();
  }

  /**
   * An answer to a prompt this machine's Lookout holds (R70–R75): carried out by the channel's
   * owner, refused with the reason otherwise. Never retried.
   */
  answer(attempt: AnswerAttempt): Promise<CommandResult> {
    return this.answering?.answer(attempt) ?? Promise.resolve(NOT_ANSWERING);
  }

  /** The tray's word (R91): the person is away (idle for awayAfter, or the screen locked). */
  setAway(away: boolean): void {
    this.phone?.setAway(away);
  }

  /** "Answer in terminal": the waiting hook lets go and the agent's own prompt decides. */
  release(request: string, from: AnswerFrom): Promise<CommandResult> {
    return this.answering?.release(request, from) ?? Promise.resolve(NOT_ANSWERING);
  }

  private places(): WatchedPlaces {
    return { roots: this.state.roots, home: this.state.home, storePath: this.state.store.path, spoolFolder: this.pipeline.spoolFolder };
  }

  private async rewatch(): Promise<void> {
    const targets = watchTargets(this.places());
    const signature = JSON.stringify(targets);
    if (signature === this.watchedTargets || this.disposed) return;
    this.watchedTargets = signature;
    await this.watcher?.dispose();
    const watcher = new ChangeWatcher(
      targets,
      (paths) => this.changed(paths),
      (error) => this.options.onProblem(`lookout: watching files failed: ${error.message}`),
    );
    this.watcher = watcher;
    await watcher.ready();
  }

  /** Changed paths from the watcher (`recheck` false), or the same read once more (true). */
  private changed(paths: ReadonlySet<string>, recheck = false): void {
    // `lookout phone add|remove|mode`, or the popover: the phone's channels change without a restart.
    if (paths.has(phonePath(this.state.home)) && !recheck) this.phone?.reload();
    const { own, provider } = sortChanged(paths, this.places());
    if (own.size > 0) {
      this.reloadFacts();
      // A settings change shows at once in every face (the popover's view of settings.json), rows changed or not.
      this.evaluateNow(own.has(settingsPath(this.state.home)));
      // Facts another process writes in quick succession (several `lookout mute`) come within chokidar's throttle too.
      if (!recheck) this.recheck.schedule(own);
    }
    if (provider.size === 0) return;
    void this.sync(provider);
    if (recheck) return;
    this.recheck.schedule(provider);
    if (provider.size >= BURST_PATHS && this.settleTimer === null) {
      this.settleTimer = setTimeout(() => {
        this.settleTimer = null;
        if (!this.disposed) void this.sync(undefined);
      }, BURST_SETTLE_MS);
    }
  }

  /** Another process (a command, the other face) changed the store or the settings. */
  reloadFacts(): void {
    const fresh = loadState(this.options.clock(), this.options.env);
    for (const line of fresh.problems) this.options.onProblem(line);
    this.facts.adopt(fresh.facts);
    this.state = { ...this.state, settings: fresh.settings, hosts: fresh.hosts, shortcut: fresh.shortcut };
    if (this.published !== null && this.options.hosts !== false) this.hosts.update(fresh.hosts);
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
        // Nothing changed: the beat suffices.
        if ((await this.pipeline.collect(this.options.clock(), changed)) || this.last === null) this.evaluateNow();
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
    this.notices?.releaseQuiet(this.options.clock());
    // The answer channel's owner may have exited (a short `lookout feed`): this one takes it over.
    this.answering?.beat();
    const next = this.last?.nextChangeAt;
    if (this.last === null || (next !== null && next !== undefined && this.options.clock() >= next)) {
      this.evaluateNow();
      return;
    }
    // Another machine's claim can come due by time alone (an ambiguous one after its wait), with no
    // line from its host and nothing due here: its notification is checked on the beat too.
    if (this.remoteNotices.claims) this.publish(this.last, false, []);
  }

  /** One evaluation at the clock's now: emit if a row changed, carry out the decisions. */
  evaluateNow(force = false): Evaluation {
    const now = this.options.clock();
    const evaluation = this.pipeline.evaluate({ settings: this.state.settings, now, onScreen: this.onScreen, previous: this.last ?? undefined });
    const before = this.last;
    this.last = evaluation;
    // This machine's claims and other machines' gained in this beat make one notification (R42).
    this.publish(evaluation, force || before === null || changedRows(before, evaluation), evaluation.notifyDue);
    this.answering?.reconcile(this.state.settings.timings.answeredHold);
    // A phone's tokens for a prompt this machine's rows no longer show open are void (R93).
    this.phone?.keepShown(shownOpen(evaluation, this.hosts.names));
    void this.pipeline.refreshTrees(evaluation, now, this.state.settings.timings.gitRefresh).then((changed) => {
      if (changed && !this.disposed) this.evaluateNow();
    });
    return evaluation;
  }

  /**
   * This machine's rows and every host's, to the listeners when anything changed; then one
   * notification for this machine's claims due now (`localDue`) and the hosts' (R40–R44).
   */
  private publish(evaluation: Evaluation, changed: boolean, localDue: readonly NotifyCandidate[]): void {
    const views = this.hosts.views();
    if (changed || this.hostsChanged || this.published === null) {
      this.hostsChanged = false;
      const snapshot = mergeHosts(evaluation.snapshot, views);
      this.published = snapshot;
      for (const listener of this.listeners) listener(snapshot, evaluation);
      this.settle.touch();
    }
    if (this.notices === null) return;
    const now = this.options.clock();
    this.notices.releaseQuiet(now);
    const remote = views.length === 0 ? [] : (this.published?.sessions ?? []);
    const remoteDue = hostClaimsDue(this.remoteNotices, remote, now, {
      providerNames: this.pipeline.providerNames,
      settings: this.state.settings,
      notified: this.facts.facts.notified,
      onScreen: this.onScreen,
    });
    const plan = planNotification([...localDue, ...remoteDue]);
    if (plan !== null) this.notices.tell(plan, now);
  }
}
