// `lookout phone add telegram` (issue 49, R90): the bot token checked with getMe, then the chat
// and user found from the first private message sent to the bot (long-polling getUpdates), so the
// person never looks an id up; the updates read are confirmed so they are not seen again.
import { cutLine } from '../../engine/text-cut';
import { visibleText } from '../../engine/visible-text';
import { PhoneError } from './channel';
import { botCall } from './telegram';

interface Found {
  chatId: string;
  userId: string;
  name: string;
}

export async function findChat(
  botToken: string,
  api: string,
  options: { fetch?: typeof fetch; signal?: AbortSignal; pollSeconds?: number } = {},
): Promise<Found> {
  const config = { api, botToken };
  const call = (method: string, body: Record<string, unknown>, timeoutMs?: number) =>
    botCall(config, method, body, {
      fetch: options.fetch ?? fetch,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
    });
  try {
    await call('getMe', {});
  } catch (error) {
    if (error instanceof PhoneError && (error.status === 401 || error.status === 404)) throw new PhoneError('Telegram refused this bot token', error.status);
    throw error;
  }
  const poll = options.pollSeconds ?? 30;
  let offset: number | null = null;
  for (;;) {
    if (options.signal?.aborted === true) throw new Error('no message reached the bot in time');
    const updates = await call('getUpdates', { timeout: poll, allowed_updates: ['message'], ...(offset === null ? {} : { offset }) }, poll * 1000 + 15_000);
    if (!Array.isArray(updates)) continue;
    for (const update of updates as { update_id?: unknown; message?: unknown }[]) {
      if (typeof update.update_id === 'number') offset = Math.max(offset ?? 0, update.update_id + 1);
      const message = update.message as
        | { chat?: { id?: unknown; type?: unknown }; from?: { id?: unknown; first_name?: unknown; username?: unknown } }
        | undefined;
      const chat = message?.chat;
      const from = message?.from;
      if (chat?.type !== 'private' || typeof chat.id !== 'number' || typeof from?.id !== 'number') continue;
      // Confirmed: the next reader (Lookout's listener) starts after it.
      await call('getUpdates', { offset, timeout: 0, allowed_updates: ['message'] }).catch(() => undefined);
      const named = typeof from.username === 'string' ? `@${from.username}` : typeof from.first_name === 'string' ? from.first_name : `user ${from.id}`;
      return { chatId: String(chat.id), userId: String(from.id), name: cutLine(visibleText(named), 60) };
    }
  }
}
