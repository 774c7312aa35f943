// The phone in the popover's settings (issue 49, R90): the channels of phone.json with their last
// success or error, when they send, a test, a removal, and an ntfy topic added — only from the
// app's own window, since a channel names where notifications go and whose taps answer prompts.
import { statSync } from 'node:fs';
import type { PopoverCommand, SettingsView } from '../../engine/contract';
import { emptyPhoneFile, loadPhone, phonePath } from '../phone/phone-config';
import { addNtfy, channelLine, removeChannel, setMode, testChannels } from '../phone/phone-setup';
import { failingNow, healthLine, phoneStatePath, readPhoneState } from '../phone/phone-state';

type PhoneView = NonNullable<SettingsView['phone']>;
export type PhoneCommand = Extract<PopoverCommand, { type: 'phone-mode' | 'phone-remove' | 'phone-test' | 'phone-add-ntfy' }>;

/** A file's change time, or null when it is not there: what the view is kept for. */
function stamp(path: string): string {
  try {
    const stats = statSync(path);
    return `${stats.mtimeMs}:${stats.size}`;
  } catch {
    return '-';
  }
}

export class PopoverPhone {
  private kept: { stamp: string; view: PhoneView } | null = null;

  constructor(
    private readonly home: string,
    private readonly clock: () => number,
    private readonly programsEditable: boolean,
  ) {}

  /** Read again only when phone.json or the channels' health changed (the state is pushed often). */
  view(): PhoneView {
    const now = `${stamp(phonePath(this.home))}|${stamp(phoneStatePath(this.home))}`;
    if (this.kept?.stamp === now) return this.kept.view;
    const { file, problem } = loadPhone(this.home, this.clock(), { keepAside: false });
    const health = readPhoneState(this.home);
    const phone = file ?? emptyPhoneFile();
    const view: PhoneView = {
      mode: phone.mode,
      channels: phone.channels.map((config) => ({
        id: config.id,
        line: channelLine(config),
        health: healthLine(health[config.id]),
        failing: failingNow(health[config.id]),
      })),
      problem,
    };
    this.kept = { stamp: now, view };
    return view;
  }

  /** Carries a command out; a refusal throws with the line to show. */
  async run(command: PhoneCommand): Promise<void> {
    const { file, problem } = loadPhone(this.home, this.clock());
    if (problem !== null && file === null) throw new Error(problem);
    const phone = file ?? emptyPhoneFile();
    switch (command.type) {
      case 'phone-mode':
        setMode(this.home, phone, command.mode);
        break;
      case 'phone-remove':
        removeChannel(this.home, phone, command.id);
        break;
      case 'phone-test': {
        const failed = (await testChannels(this.home, phone, this.clock())).filter((outcome) => outcome.error !== null);
        if (failed.length > 0) throw new Error(failed.map((outcome) => `${channelLine(outcome.config)}: ${outcome.error ?? ''}`).join('; '));
        break;
      }
      case 'phone-add-ntfy':
        if (!this.programsEditable) throw new Error('a phone channel is added only in the Lookout app or with lookout phone add');
        addNtfy(this.home, phone, command.target.trim(), command.token?.trim() || null);
        break;
    }
    this.kept = null;
  }
}
