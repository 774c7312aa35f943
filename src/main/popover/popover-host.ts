// The runtime as the popover sees it, whatever the transport: the state it pushes, the commands
// it accepts (validated), explanations. `lookout serve` and the tray app both use this.
import type { DerivedSession, Evaluation, HostView, Settings, Snapshot } from '../../engine';
import type { AutomationRule, QuietHours } from '../../engine';
import { defaultSettings, hostState, ruleLine } from '../../engine';
import { splitHostKey } from '../../engine';
import type { CommandResult, Explanation, FeedCommand, PopoverCommand, PopoverProblem, PopoverState, SettingsView } from '../../engine/contract';
import { admit, commandSchemaFor, explainRequestSchema } from '../../engine/contract';
import { PROVIDERS, findProvider, hookProviders } from '../../providers';
import { join } from 'node:path';
import { explainSession } from './explain-row';
import type { HookContext } from '../hooks/installer';
import { install, status, uninstall } from '../hooks/installer';
import { planOpen } from '../open/plan';
import { openTarget } from '../open/session-process';
import { systemProbes } from '../open/probes';
import { runPlan } from '../open/run';
import { planRemoteOpen } from '../open/remote-plan';
import type { ProviderRoots } from '../../providers';
import type { AnswerAttempt } from '../answer/broker';
import type { AnswerFrom } from '../answer/protocol';
import type { FactWriter } from '../facts/fact-writer';
import type { HostConfig } from '../store/schema';
import { updateSettings } from '../store/settings-store';
import { PopoverPhone } from './popover-phone';
import { AnswerGate, refusedIfNot } from './popover-answer';
import { RULE_ACTIONS, freeRuleId, projectMuteRule } from './popover-rules';
import { muteUntil, remoteCommand } from './popover-remote';

export { BROWSER_ANSWERS_OFF } from './popover-answer';

/** What the popover needs of the runtime (the runtime satisfies it as it is): only these members. */
export interface PopoverRuntime {
  readonly snapshot: Snapshot | null;
  readonly evaluation: Evaluation | null;
  readonly settings: Settings;
  readonly roots: ProviderRoots;
  readonly home: string;
  readonly env: NodeJS.ProcessEnv;
  readonly hostConfigs: readonly HostConfig[];
  readonly hosts: { readonly names: string[]; views(): HostView[] };
  readonly facts: Pick<FactWriter, 'review' | 'mute' | 'muteAll' | 'unmute' | 'visit'>;
  onScreen: string | null;
  onSnapshot(listener: (snapshot: Snapshot) => void): () => void;
  evaluateNow(): void;
  reloadFacts(): void;
  remoteAsk(command: FeedCommand): Promise<boolean>;
  answer(attempt: AnswerAttempt): Promise<CommandResult>;
  release(request: string, from: AnswerFrom): Promise<CommandResult>;
}

export type StateListener = (state: PopoverState) => void;

/** Quiet hours as the settings view shows them: the window, and the zone its clock reads. */
function quietView(hours: QuietHours | null): NonNullable<SettingsView['quietHours']> {
  // The runtime's settings name a zone only when this system knows it (settings-store.ts).
  const named = hours?.timeZone ?? null;
  return {
    window: hours === null ? null : { from: hours.from, to: hours.to },
    zone: named ?? new Intl.DateTimeFormat().resolvedOptions().timeZone,
    named: named !== null,
  };
}

export class PopoverHost {
  private problems: PopoverProblem[] = [];
  private readonly listeners = new Set<StateListener>();
  private nextProblem = 1;
  private request: PopoverState['request'];
  /** `hooks status`, read once and again after each hooks command (it reads the agents' files). */
  private hookLines: string[] | null = null;
  /** Commands are validated against the providers of the registry. */
  private readonly commandSchema = commandSchemaFor(PROVIDERS.map((provider) => provider.id));

  /** Whether this popover may answer prompts (§13), and what it records an answer as. */
  private readonly answers: AnswerGate;
  /** The phone's channels in the settings (issue 49). */
  private readonly phone: PopoverPhone;

  /**
   * `programsEditable`: true for the app's own window, false for `lookout serve`'s page. Only the
   * app's window may change settings that name a program to run, so the page's token can never
   * be enough to make Lookout run a program of the caller's choosing; and the page answers
   * prompts only when settings.json allows it (`answerFromBrowser`, §13).
   */
  constructor(
    private readonly runtime: PopoverRuntime,
    private readonly clock: () => number,
    private readonly programsEditable: boolean,
  ) {
    this.answers = new AnswerGate(runtime, programsEditable);
    this.phone = new PopoverPhone(runtime.home, clock, programsEditable);
    runtime.onSnapshot(() => this.push());
  }

  /** A problem line from the runtime, shown once as a dismissible line. */
  addProblem(text: string): void {
    if (this.problems.some((problem) => problem.text === text)) return;
    this.problems = [...this.problems, { id: `p${this.nextProblem}`, text }];
    this.nextProblem += 1;
    this.push();
  }

  /**
   * The tray's "Settings…" (the popover switches to that view once); its global key (`jump`: the
   * list, with the next session wanting attention selected; pressed again, the one after); a
   * digest notification's click (`select`: that session, its group open).
   */
  requestView(view: 'list' | 'settings', then: { jump?: true; select?: string } = {}): void {
    this.request = { view, serial: (this.request?.serial ?? 0) + 1, ...then };
    this.push();
  }

  subscribe(listener: StateListener): () => void {
    this.listeners.add(listener);
    const state = this.state();
    if (state !== null) listener(state);
    return () => this.listeners.delete(listener);
  }

  state(): PopoverState | null {
    const evaluation = this.runtime.evaluation;
    if (evaluation === null) return null;
    // Pushed on every change: built from what the runtime holds, never from disk.
    const settings = this.runtime.settings;
    this.hookLines ??= this.hooksStatus();
    return {
      snapshot: this.runtime.snapshot ?? evaluation.snapshot,
      problems: this.problems,
      settings: {
        timings: { ...settings.timings },
        notifications: settings.notifications,
        openCommand: settings.openCommand,
        programsEditable: this.programsEditable,
        answering: this.answers.state(),
        providers: PROVIDERS.map((provider) => ({
          id: provider.id,
          name: provider.name,
          shortName: provider.shortName,
          root: this.runtime.roots[provider.id] ?? '',
          rootVariable: provider.root.env,
          hooks: provider.hooks !== null,
        })),
        hooks: this.hookLines,
        hosts: this.runtime.hosts.views().map((view) => ({
          name: view.name,
          destination: this.runtime.hostConfigs.find((host) => host.name === view.name)?.destination ?? view.name,
          state: hostState(view.status),
        })),
        rules: settings.rules.map((rule) => ({ id: rule.id, line: ruleLine(rule) })),
        quietHours: quietView(settings.quietHours),
        phone: this.phone.view(),
      },
      ...(this.request === undefined ? {} : { request: this.request }),
    };
  }

  private hookContext(): HookContext {
    return {
      home: this.runtime.home,
      roots: this.runtime.roots,
      platform: process.platform,
      cli: join(__dirname, 'cli.cjs'),
      now: this.clock(),
      env: this.runtime.env,
    };
  }

  private hooksStatus(): string[] {
    try {
      return status(this.hookContext(), hookProviders()).lines;
    } catch (error) {
      return [error instanceof Error ? error.message : String(error)];
    }
  }

  private push(): void {
    const state = this.state();
    if (state === null) return;
    for (const listener of this.listeners) listener(state);
  }

  private lastActivity(key: string): string | null {
    return this.runtime.snapshot?.sessions.find((row) => row.key === key)?.lastActivityAt ?? null;
  }

  /** The tray's "Mute all for 1 h": every shown, unmuted row, in one write. */
  muteAll(spanMs: number): void {
    const now = this.clock();
    const rows = (this.runtime.snapshot?.sessions ?? []).filter((row) => row.muted === null && !row.historical);
    this.runtime.facts.muteAll(
      rows.filter((row) => row.host === null).map((row) => row.key),
      now + spanMs,
      now,
    );
    // Another machine's sessions are muted there, where their facts live; one not connected is said so.
    for (const row of rows.filter((item) => item.host !== null)) {
      this.runtime
        .remoteAsk({ type: 'mute', key: row.key, until: new Date(now + spanMs).toISOString() })
        .catch((error: unknown) => this.addProblem(error instanceof Error ? error.message : String(error)));
    }
    this.runtime.evaluateNow();
  }

  snapshot(): Snapshot | null {
    return this.runtime.snapshot ?? null;
  }

  explain(raw: unknown): Explanation | null {
    const request = admit(explainRequestSchema, raw);
    if (!request.ok) return null;
    const session = this.runtime.evaluation?.derived.get(request.value.key);
    return session === undefined ? null : explainSession(session);
  }

  /** Runs one command from the popover; malformed ones are refused without effect. */
  async command(raw: unknown): Promise<CommandResult> {
    const admitted = admit(this.commandSchema, raw);
    if (!admitted.ok) return { ok: false, error: `refused: ${admitted.error}` };
    try {
      await this.run(admitted.value);
      return { ok: true };
    } catch (error) {
      return { ok: false, error: error instanceof Error ? error.message : String(error) };
    }
  }

  private known(key: string): DerivedSession {
    const session = this.runtime.evaluation?.derived.get(key);
    if (session === undefined) throw new Error(`no session ${key}`);
    return session;
  }

  /**
   * The request is the one this session's row shows (R71): a request id under another session's
   * key is refused, so an answer always lands on the prompt of the row it was given on.
   */
  private shownRequest(key: string, request: string): void {
    const view = this.known(key).answer;
    if (view === null) throw new Error('nothing in this session is waiting for an answer');
    if (view.state === 'unavailable') throw new Error(view.why);
    if (view.request.id !== request) throw new Error('this prompt is not the one the session shows now; nothing was sent');
  }

  /** R30: a visit to a shown session, through the fact writer, then a fresh evaluation. */
  private async visit(key: string): Promise<void> {
    const session = this.known(key);
    await this.runtime.facts.visit(key, session.evidence.cwd, this.clock());
    this.runtime.evaluateNow();
  }

  private async run(command: PopoverCommand): Promise<void> {
    const now = this.clock();
    const facts = this.runtime.facts;
    if (command.type === 'answer' || command.type === 'release') {
      const answering = this.answers.state();
      if (!answering.allowed) throw new Error(answering.why ?? 'answering is off here');
    }
    if (await remoteCommand(command, now, this.runtime)) return;
    switch (command.type) {
      case 'review':
        this.known(command.key);
        facts.review(command.key, command.state, this.lastActivity(command.key), now);
        this.runtime.evaluateNow();
        return;
      case 'mute':
        this.known(command.key);
        facts.mute(command.key, muteUntil(command.span, now), now);
        this.runtime.evaluateNow();
        return;
      case 'unmute':
        this.known(command.key);
        facts.unmute(command.key, now);
        this.runtime.evaluateNow();
        return;
      case 'mute-project': {
        // A rule muting the row's folder and everything under it (issue 16): this session at once, later ones as they come.
        const cwd = this.known(command.key).evidence.cwd;
        if (cwd === null) throw new Error('this session has no folder to make a rule of');
        this.changeRules((rules) => [...rules, projectMuteRule(cwd, rules)]);
        return;
      }
      case 'rule-remove':
        this.changeRules((rules) => rules.filter((rule) => rule.id !== command.id));
        return;
      case 'rule-add': {
        const action = RULE_ACTIONS[command.action];
        this.changeRules((rules) => [...rules, { id: freeRuleId('rule', rules), version: 1, ...action, when: { folder: command.folder, ...action.when } }]);
        return;
      }
      case 'select':
        // Selecting a row records a visit (R30); the selected row is "on screen" (R40, §5).
        this.runtime.onScreen = command.key;
        if (command.key !== null) await this.visit(command.key);
        else this.runtime.evaluateNow();
        return;
      case 'open':
        await this.open(command.key);
        return;
      case 'answer': {
        this.shownRequest(command.key, command.request);
        refusedIfNot(
          await this.runtime.answer({
            request: command.request,
            digest: command.digest,
            decision: command.decision,
            from: this.answers.from(command.via),
            via: command.via,
          }),
        );
        return;
      }
      case 'release':
        this.shownRequest(command.key, command.request);
        refusedIfNot(await this.runtime.release(command.request, this.answers.from('click')));
        return;
      case 'dismiss':
        this.problems = this.problems.filter((problem) => problem.id !== command.id);
        this.push();
        return;
      case 'settings':
        this.saveSettings(command);
        return;
      case 'phone-mode':
      case 'phone-remove':
      case 'phone-test':
      case 'phone-add-ntfy':
        // The running Lookout reads phone.json again by itself (its watcher); the view shows the change now.
        await this.phone.run(command);
        this.push();
        return;
      case 'hooks': {
        // Only when the user asks, from the settings view (issue 6); refusals come back as errors.
        const provider = findProvider(command.provider);
        if (provider === undefined) throw new Error(`no provider ${command.provider}`);
        const outcome = command.action === 'install' ? install(this.hookContext(), [provider]) : uninstall(this.hookContext(), [provider]);
        for (const line of outcome.lines.filter((text) => text.includes('/hooks'))) this.addProblem(line);
        this.hookLines = this.hooksStatus();
        this.push();
        return;
      }
    }
  }

  /** R50, and the visit that goes with looking at a session (R44 when it came from a notification). */
  async open(key: string): Promise<void> {
    const row = this.runtime.snapshot?.sessions.find((item) => item.key === key);
    const host = row?.host === null || row === undefined ? undefined : this.runtime.hostConfigs.find((item) => item.name === row.host);
    if (row !== undefined && host !== undefined) {
      // Its own machine's Lookout finds the pane, folder and resume command there (`open-here`).
      const plan = planRemoteOpen({ host, key: splitHostKey(key, [host.name]).key, cwd: row.cwd }, this.runtime.env, systemProbes());
      // The visit is recorded on its machine; one not connected just misses it (its state line says so).
      this.runtime.remoteAsk({ type: 'visit', key }).catch(() => undefined);
      await runPlan(plan, this.runtime.home);
      return;
    }
    const session = this.known(key);
    const plan = planOpen(openTarget(session.evidence, session.observed.state, this.runtime.roots), this.runtime.settings.openCommand, systemProbes());
    // The user is looking at it either way: the visit stands even if nothing could be opened.
    await this.visit(key);
    await runPlan(plan, this.runtime.home);
  }

  /** A notification was clicked (R44): open and visit; a failure to open becomes a problem line. */
  openFromNotification(key: string): void {
    this.open(key).catch((error: unknown) => this.addProblem(`lookout: could not open ${key}: ${error instanceof Error ? error.message : String(error)}`));
  }

  /** The rules of settings.json changed (as written there), then taken up at once. */
  private changeRules(change: (rules: AutomationRule[]) => AutomationRule[]): void {
    for (const line of updateSettings(this.runtime.home, this.clock(), (file) => ({ ...file, rules: change(file.rules ?? defaultSettings().rules) })))
      this.addProblem(line);
    this.runtime.reloadFacts();
    this.runtime.evaluateNow();
    this.push();
  }

  private saveSettings(command: Extract<PopoverCommand, { type: 'settings' }>): void {
    if (command.openCommand !== undefined && !this.programsEditable) {
      throw new Error('the open command changes only in settings.json or in the Lookout app');
    }
    for (const line of updateSettings(this.runtime.home, this.clock(), (file) => ({
      ...file,
      timings: { ...file.timings, ...command.timings },
      notifications: { ...file.notifications, ...command.notifications },
      openCommand: command.openCommand === undefined ? file.openCommand : command.openCommand,
      // Quiet hours keep the time zone settings.json names; turned on afresh, this machine's.
      quietHours:
        command.quietHours === undefined
          ? file.quietHours
          : command.quietHours === null
            ? null
            : { ...command.quietHours, timeZone: file.quietHours?.timeZone ?? null },
    }))) {
      this.addProblem(line);
    }
    this.runtime.reloadFacts();
    this.push();
  }
}
