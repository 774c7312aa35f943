// A phone in the lab (issue 49): an ntfy stand-in on 127.0.0.1, set up with `lookout phone add`
// as docs/phone.md says; its taps are what the ntfy app does with an `http` action.
import type { NtfyMessage } from '../../main/phone/ntfy-standin';
import { NtfyStandin } from '../../main/phone/ntfy-standin';
import { lookout } from './lookout';
import { waitFor } from '../../wait';

const TOPIC = 'lookout-lab-phone';

export class LabPhone {
  private readonly standin = new NtfyStandin();

  async start(): Promise<void> {
    await this.standin.start();
  }

  stop(): Promise<void> {
    return this.standin.stop();
  }

  /** `lookout phone add ntfy <server>/<topic>`: a scenario's `beforeWatch`. */
  readonly add = (env: NodeJS.ProcessEnv): void => {
    const added = lookout(['phone', 'add', 'ntfy', `${this.standin.url}/${TOPIC}`], env);
    if (added.code !== 0) throw new Error(`lookout phone add: ${added.stdout}${added.stderr}`);
  };

  /** The phone message holding this text, with buttons. */
  messageFor(text: string): Promise<NtfyMessage> {
    return waitFor(
      `the phone shows "${text}" with buttons`,
      () => this.standin.messages.find((message) => message.topic === TOPIC && message.actions !== undefined && message.message.includes(text)),
      () => JSON.stringify(this.standin.messages.map((message) => [message.topic, message.title, message.message])),
    );
  }

  /** A message after this one saying `pattern` (a reply to a tap, what was answered). */
  told(message: NtfyMessage, pattern: RegExp): Promise<NtfyMessage> {
    return waitFor(
      `the phone told ${String(pattern)}`,
      () => this.standin.messages.slice(this.standin.messages.indexOf(message) + 1).find((item) => item.topic === TOPIC && pattern.test(item.message)),
      () => JSON.stringify(this.standin.messages.map((item) => item.message)),
    );
  }

  tap(message: NtfyMessage, label: string): Promise<number> {
    return this.standin.tap(message, label);
  }
}
