// The runtime's phone (issue 49): built from phone.json when a channel is set up and this face
// should send from it: always (`watch --phone`, or the file's mode "always"), or while away where
// the face can tell (the tray). Each channel's health goes to run/phone-state.json for doctor.
import type { NotificationAction, NotificationPlan } from '../../engine';
import type { Notifier } from '../notify/notifier';
import type { Backoff } from '../phone/backoff';
import { failureText } from '../phone/backoff';
import { channelFor } from '../phone/channels';
import { channelLabel, loadPhone, phonePath } from '../phone/phone-config';
import { existsSync } from 'node:fs';
import type { PhoneLine, PhonePorts } from '../phone/phone-notifier';
import { PhoneNotifier } from '../phone/phone-notifier';
import { writeChannelHealth } from '../phone/phone-state';

export interface PhoneOptions {
  /** Sends on every notification, whatever phone.json's mode (`watch --phone`). */
  force?: boolean;
  /** This face can tell when the person is away (the tray): mode "away" sends then. */
  awayKnown?: boolean;
  /** The retry's backoff (tests make it short). */
  backoff?: () => Backoff;
}

type WiringPorts = Pick<PhonePorts, 'home' | 'clock' | 'ttl' | 'onProblem' | 'answer'> & { home: string };

/**
 * The phone as the runtime holds it: built anew from phone.json whenever that file changes (a
 * channel added or removed, the mode switched), so `lookout phone add` needs no restart. Until a
 * channel sends from this face, notifications go to the desktop's notifier alone.
 */
export class PhoneSwitch implements Notifier {
  private current: PhoneNotifier | null;
  private away = false;
  private started = false;

  constructor(
    private readonly desktop: Notifier | null,
    private readonly options: PhoneOptions,
    private readonly ports: WiringPorts,
  ) {
    this.current = phoneNotifier(desktop, options, ports);
  }

  /** Whether a face without a desktop notifier (a terminal `watch`) has a phone to tell: asked for, or set up. */
  static wanted(options: PhoneOptions, home: string): boolean {
    return options.force === true || existsSync(phonePath(home));
  }

  start(): void {
    this.started = true;
    this.current?.start();
  }

  /** phone.json changed: the old channels stop (their buttons read "unknown" from now on), the new ones start. */
  reload(): void {
    this.current?.stopPhone();
    this.current = phoneNotifier(this.desktop, this.options, this.ports);
    this.current?.setAway(this.away);
    if (this.started) this.current?.start();
  }

  send(plan: NotificationPlan, onAction: (action: NotificationAction) => void): Promise<void> {
    return (this.current ?? this.desktop)?.send(plan, onAction) ?? Promise.resolve();
  }

  active(): boolean {
    return this.current !== null || this.desktop !== null;
  }

  setAway(away: boolean): void {
    this.away = away;
    this.current?.setAway(away);
  }

  keepShown(shown: (key: string, request: string, digest: string) => boolean): void {
    this.current?.keepShown(shown);
  }

  dispose(): void {
    if (this.current === null) this.desktop?.dispose?.();
    else this.current.dispose();
    this.current = null;
  }
}

function phoneNotifier(desktop: Notifier | null, options: PhoneOptions, ports: WiringPorts): PhoneNotifier | null {
  const { file, problem } = loadPhone(ports.home, ports.clock());
  if (problem !== null) ports.onProblem(problem);
  if (file === null || file.channels.length === 0) {
    if (options.force === true) ports.onProblem('lookout: --phone: no phone channel is set up (see lookout phone add, docs/phone.md)');
    return null;
  }
  const always = options.force === true || file.mode === 'always';
  if (!always && options.awayKnown !== true) return null;
  const lines: PhoneLine[] = [];
  for (const config of file.channels) {
    try {
      lines.push({ id: config.id, channel: channelFor(config) });
    } catch (error) {
      ports.onProblem(`lookout: phone channel ${channelLabel(config)} cannot start: ${failureText(error)}`);
    }
  }
  if (lines.length === 0) return null;
  return new PhoneNotifier(
    desktop,
    lines,
    {
      ...ports,
      onHealth: (id, health) => {
        try {
          writeChannelHealth(ports.home, id, health);
        } catch {
          // doctor only misses the latest line; the sending goes on.
        }
      },
      ...(options.backoff === undefined ? {} : { backoff: options.backoff }),
    },
    always,
  );
}
