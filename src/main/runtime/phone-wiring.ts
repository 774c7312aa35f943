// The runtime's phone (issue 49): built from phone.json when a channel is set up and this face
// should send from it: always (`watch --phone`, or the file's mode "always"), or while away where
// the face can tell (the tray). Each channel's health goes to run/phone-state.json for doctor.
import type { Notifier } from '../notify/notifier';
import type { Backoff } from '../phone/backoff';
import { failureText } from '../phone/backoff';
import { channelFor } from '../phone/channels';
import { channelLabel, loadPhone } from '../phone/phone-config';
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

export function phoneNotifier(
  desktop: Notifier | null,
  options: PhoneOptions,
  ports: Pick<PhonePorts, 'home' | 'clock' | 'ttl' | 'onProblem' | 'answer'> & { home: string },
): PhoneNotifier | null {
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
