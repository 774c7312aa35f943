// The Telegram channel's way in (issue 49): the channel itself, and the set-up's search for the
// chat the person messaged the bot from.
import type { PhoneChannel } from './channel';
import type { TelegramConfig } from './phone-config';
import { TelegramChannel } from './telegram';
import { findChat } from './telegram-setup';

export function telegramChannel(config: TelegramConfig): PhoneChannel {
  return new TelegramChannel(config);
}

/** Long-polls getUpdates for the first message sent to the bot: the chat and user to answer to. */
export function findTelegramChat(
  botToken: string,
  api: string,
  options?: { fetch?: typeof fetch; signal?: AbortSignal },
): Promise<{ chatId: string; userId: string; name: string }> {
  return findChat(botToken, api, options);
}
