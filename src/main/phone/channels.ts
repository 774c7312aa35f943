// A channel from its set-up: ntfy here, Telegram through its own files (telegram-entry.ts).
import type { PhoneChannel } from './channel';
import { NtfyChannel } from './ntfy';
import type { ChannelConfig } from './phone-config';
import { telegramChannel } from './telegram-entry';

export function channelFor(config: ChannelConfig): PhoneChannel {
  switch (config.kind) {
    case 'ntfy':
      return new NtfyChannel(config);
    case 'telegram':
      return telegramChannel(config);
  }
}
