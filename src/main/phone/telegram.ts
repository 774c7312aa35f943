// Telegram, through a bot the person made with @BotFather, as a phone channel (issue 49): the Bot
// API (core.telegram.org/bots/api) over HTTPS, every call made from here. Messages are plain text
// (no parse_mode: Markdown and HTML show as written) with an inline keyboard whose callback_data
// is the one-time token; taps come back by long-polling getUpdates, only from the configured chat
// and user (R93: anyone else is told no and counted); a settled tap edits the message in place.
import { cutLine, cutText } from '../../engine/text-cut';
import { visibleLines, visibleText } from '../../engine/visible-text';
import type { PhoneChannel, PhoneMessage, PhoneTap, SentRef } from './channel';
import { PhoneError } from './channel';
import type { TelegramConfig } from './phone-config';
import { channelLabel } from './phone-config';

/** sendMessage and editMessageText take 1–4096 characters; a callback's answer at most 200. */
const TEXT_MAX = 4096;
const CALLBACK_TEXT_MAX = 200;
/** callback_data is 1–64 bytes. */
const CALLBACK_DATA_BYTES = 64;
/** A keyboard as wide as a phone shows: more buttons go on the next row. */
const BUTTONS_A_ROW = 2;
/** The long-poll's own wait (getUpdates `timeout`, seconds), and how much longer a request may take. */
const POLL_SECONDS = 50;
const REQUEST_SLACK_MS = 15_000;
const CALL_TIMEOUT_MS = 15_000;

const FOREIGN_TAP = "This chat may not answer Lookout's prompts.";

/** The Bot API's envelope: `{ok: true, result}` or `{ok: false, error_code, description, parameters}`. */
interface Envelope {
  ok?: unknown;
  result?: unknown;
  error_code?: unknown;
  description?: unknown;
  parameters?: { retry_after?: unknown } | null;
}

/** One call to the Bot API; a refusal or a failed connection is a PhoneError that never holds the bot token. */
export async function botCall(
  config: Pick<TelegramConfig, 'api' | 'botToken'>,
  method: string,
  body: Record<string, unknown>,
  options: { fetch: typeof fetch; signal?: AbortSignal; timeoutMs?: number },
): Promise<unknown> {
  const url = `${config.api.replace(/\/+$/, '')}/bot${config.botToken}/${method}`;
  const timeout = AbortSignal.timeout(options.timeoutMs ?? CALL_TIMEOUT_MS);
  const signal = options.signal === undefined ? timeout : AbortSignal.any([options.signal, timeout]);
  let response: Response;
  try {
    response = await options.fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body), signal });
  } catch (error) {
    if (options.signal?.aborted === true) throw error;
    const why = timeout.aborted ? 'no answer' : failure(error);
    throw new PhoneError(`cannot reach ${hostOf(config.api)} (${scrub(why, config.botToken)})`, null);
  }
  const answer = (await response.json().catch(() => null)) as Envelope | null;
  if (response.ok && answer?.ok === true) return answer.result;
  const status = typeof answer?.error_code === 'number' ? answer.error_code : response.status;
  const said = typeof answer?.description === 'string' ? `: ${cutLine(visibleText(scrub(answer.description, config.botToken)), 160)}` : '';
  const retry = Number(answer?.parameters?.retry_after ?? response.headers.get('retry-after'));
  const hint =
    status === 401 || status === 404
      ? ' (Telegram refused this bot token: lookout phone add telegram again)'
      : status === 409
        ? ' (another program reads this bot’s updates: one reader at a time)'
        : '';
  throw new PhoneError(`HTTP ${status}${said}${hint}`, status, Number.isFinite(retry) && retry > 0 ? retry : null);
}

export class TelegramChannel implements PhoneChannel {
  readonly kind = 'telegram' as const;
  readonly label: string;
  ignored = 0;
  /** Options on one message: a phone shows a few rows of two well. */
  readonly maxButtons = 8;
  private readonly fetch: typeof fetch;
  private readonly pollSeconds: number;
  private offset: number | null = null;

  constructor(
    private readonly config: TelegramConfig,
    options: { fetch?: typeof fetch; pollSeconds?: number } = {},
  ) {
    this.label = channelLabel(config);
    this.fetch = options.fetch ?? fetch;
    this.pollSeconds = options.pollSeconds ?? POLL_SECONDS;
  }

  /** The body of one sendMessage: what `send` posts (exported for the tests). */
  sendBody(message: PhoneMessage): Record<string, unknown> {
    const title = visibleText(message.title);
    const text = cutText(message.body === '' ? title : `${title}\n${visibleLines(message.body)}`, TEXT_MAX);
    for (const button of message.buttons)
      if (Buffer.byteLength(button.token, 'utf8') > CALLBACK_DATA_BYTES) throw new Error('a button token longer than Telegram carries (64 bytes)');
    const rows: { text: string; callback_data: string }[][] = [];
    message.buttons.forEach((button, index) => {
      if (index % BUTTONS_A_ROW === 0) rows.push([]);
      rows.at(-1)?.push({ text: cutLine(visibleText(button.label), 60), callback_data: button.token });
    });
    return {
      chat_id: this.config.chatId,
      text,
      link_preview_options: { is_disabled: true },
      ...(rows.length === 0 ? {} : { reply_markup: { inline_keyboard: rows } }),
    };
  }

  async send(message: PhoneMessage): Promise<SentRef> {
    const result = (await this.call('sendMessage', this.sendBody(message))) as { message_id?: unknown } | null;
    return typeof result?.message_id === 'number' ? String(result.message_id) : null;
  }

  /** The message says what was answered, and its buttons go. */
  async settle(ref: SentRef, text: string): Promise<void> {
    if (ref === null || !/^\d+$/.test(ref)) return;
    try {
      await this.call('editMessageText', {
        chat_id: this.config.chatId,
        message_id: Number(ref),
        text: cutText(visibleText(text), TEXT_MAX),
        reply_markup: { inline_keyboard: [] },
      });
    } catch (error) {
      // The same text twice is no failure (a replayed tap settling an already settled message).
      if (error instanceof PhoneError && error.status === 400 && /not modified/i.test(error.message)) return;
      throw error;
    }
  }

  /** A tap's answer: Telegram shows it briefly and stops the button's spinner. */
  async reply(tap: PhoneTap, text: string): Promise<void> {
    if (tap.callback === null) return;
    await this.call('answerCallbackQuery', { callback_query_id: tap.callback, text: cutLine(visibleText(text), CALLBACK_TEXT_MAX) });
  }

  async listen(onTap: (tap: PhoneTap) => void, signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      let updates: unknown;
      try {
        updates = await this.call(
          'getUpdates',
          { timeout: this.pollSeconds, allowed_updates: ['callback_query'], ...(this.offset === null ? {} : { offset: this.offset }) },
          { signal, timeoutMs: this.pollSeconds * 1000 + REQUEST_SLACK_MS },
        );
      } catch (error) {
        if (signal.aborted) return;
        throw error;
      }
      if (!Array.isArray(updates)) {
        this.ignored += 1;
        continue;
      }
      for (const update of updates) await this.update(update, onTap);
    }
  }

  private async update(update: unknown, onTap: (tap: PhoneTap) => void): Promise<void> {
    const id = (update as { update_id?: unknown } | null)?.update_id;
    // Confirmed by the next getUpdates (offset past it), whatever it held: it is never seen twice.
    if (typeof id === 'number' && Number.isInteger(id)) this.offset = Math.max(this.offset ?? 0, id + 1);
    const query = (update as { callback_query?: unknown } | null)?.callback_query as
      | { id?: unknown; data?: unknown; from?: { id?: unknown } | null; message?: { message_id?: unknown; chat?: { id?: unknown } | null } | null }
      | undefined;
    if (typeof query !== 'object' || query === null || typeof query.id !== 'string') {
      this.ignored += 1;
      return;
    }
    const chat = query.message?.chat?.id;
    const user = query.from?.id;
    if (String(chat) !== this.config.chatId || String(user) !== this.config.userId) {
      this.ignored += 1;
      // Told why, so the button stops spinning; nothing else happens.
      await this.call('answerCallbackQuery', { callback_query_id: query.id, text: FOREIGN_TAP }).catch(() => undefined);
      return;
    }
    if (typeof query.data !== 'string' || typeof query.message?.message_id !== 'number') {
      this.ignored += 1;
      await this.call('answerCallbackQuery', { callback_query_id: query.id }).catch(() => undefined);
      return;
    }
    onTap({ token: query.data, from: { chat: String(chat), user: String(user) }, ref: String(query.message.message_id), callback: query.id });
  }

  private call(method: string, body: Record<string, unknown>, options: { signal?: AbortSignal; timeoutMs?: number } = {}): Promise<unknown> {
    return botCall(this.config, method, body, { fetch: this.fetch, ...options });
  }
}

function hostOf(api: string): string {
  try {
    return new URL(api).host;
  } catch {
    return 'the Bot API';
  }
}

/** The bot token is in every URL: no text Lookout shows ever carries it. */
function scrub(text: string, botToken: string): string {
  return botToken === '' ? text : text.split(botToken).join('<bot token>');
}

function failure(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : null;
  return cause ?? (error instanceof Error ? error.message : String(error));
}
