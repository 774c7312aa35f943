// The Telegram channel's way in (issue 49): its files are written apart and joined at the merge,
// which replaces these bodies with `new TelegramChannel(config)` and telegram-setup's findChat.
import type { PhoneChannel } from './channel';
import type { TelegramConfig } from './phone-config';

export function telegramChannel(config: TelegramConfig): PhoneChannel {
  void config;
  throw new Error('Telegram is not built yet');
}

/** Long-polls getUpdates for the first message sent to the bot: the chat and user to answer to. */
export function findTelegramChat(
  botToken: string,
  api: string,
  options?: { fetch?: typeof fetch; signal?: AbortSignal },
): Promise<{ chatId: string; userId: string; name: string }> {
  void botToken;
  void api;
  void options;
  return Promise.reject(new Error('Telegram is not built yet'));
}
