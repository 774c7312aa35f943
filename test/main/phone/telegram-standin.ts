// A stand-in for Telegram's Bot API on 127.0.0.1 (issue 49): no outside service can be reached
// from the tests, so this follows the Bot API's public documentation (core.telegram.org/bots/api)
// for what Lookout uses:
// - Requests: POST https://api.telegram.org/bot<token>/<method> with a JSON body; every answer is
//   the envelope {ok: true, result} or {ok: false, error_code, description, parameters?}
//   ("Making requests", "ResponseParameters": retry_after on a 429 "Too Many Requests: retry
//   after N"). A token the server does not know: 401 "Unauthorized".
// - getMe: the bot as a User (is_bot: true).
// - getUpdates ("Getting updates"): `offset` confirms every update with a smaller id (they are
//   never returned again); `limit` 1–100; `timeout` long polling: the request is held until an
//   update arrives or the timeout passes, then answers []; `allowed_updates` filters the kinds.
//   A second getUpdates while one is held ends the first with 409 "Conflict: terminated by other
//   getUpdates request; make sure that only one bot instance is running".
// - sendMessage: chat_id must be a chat that talked to the bot (400 "Bad Request: chat not
//   found"); text 1–4096 characters ("message text is empty" / "message is too long"); no
//   parse_mode: the text is shown as written; reply_markup.inline_keyboard buttons with
//   callback_data of 1–64 bytes (400 "Bad Request: BUTTON_DATA_INVALID"). The result is the Message.
// - editMessageText: the message's new text and markup; the same text and markup again is 400
//   "Bad Request: message is not modified: …"; an unknown message 400 "message to edit not found".
// - answerCallbackQuery: text 0–200 characters; a query answered once already (or unknown) is
//   400 "Bad Request: query is too old and response timeout expired or query ID is invalid".
// Test hooks: a user's private message to the bot, a tap on a sent message's button (a
// callback_query from any chat and user), a forced failure (429 with retry_after, 500, a hang).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SentMessage {
  message_id: number;
  chat_id: string;
  text: string;
  keyboard: { text: string; callback_data: string }[][];
  edits: number;
}

interface Held {
  response: ServerResponse;
  offset: number;
  allowed: string[] | null;
  timer: NodeJS.Timeout;
}

export class TelegramStandin {
  readonly token = '123456789:AAtestTokenForTheStandin_abcdefghij';
  readonly sent: SentMessage[] = [];
  /** answerCallbackQuery calls: the query id and the text shown. */
  readonly answered: { id: string; text: string }[] = [];
  /** Every method called, in order (for the tests). */
  readonly calls: string[] = [];
  private readonly updates: { update_id: number; kind: string; body: Record<string, unknown> }[] = [];
  private readonly queries = new Map<string, boolean>();
  private readonly chats = new Set<string>();
  private readonly failures: { status: number; retryAfter?: number; hang?: boolean }[] = [];
  private held: Held | null = null;
  private nextUpdate = 1;
  private nextMessage = 1;
  private nextQuery = 1;
  private readonly server = createServer((request, response) => void this.handle(request, response));
  url = '';

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  async stop(): Promise<void> {
    if (this.held !== null) clearTimeout(this.held.timer);
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** The next requests fail, one each: an HTTP status (429 with retry_after), or a hang. */
  failNext(...failures: { status: number; retryAfter?: number; hang?: boolean }[]): void {
    this.failures.push(...failures);
  }

  /** A person sends the bot a private message. */
  message(chat: number, user: number, text: string, firstName = 'Ada'): void {
    this.chats.add(String(chat));
    this.push('message', {
      message: {
        message_id: this.nextMessage++,
        date: 0,
        chat: { id: chat, type: 'private', first_name: firstName },
        from: { id: user, is_bot: false, first_name: firstName },
        text,
      },
    });
  }

  /** A tap on a button of a sent message, from a chat and user (any: the tests tap from strangers too). */
  tap(message: SentMessage, label: string, from: { chat: number; user: number }): string {
    const button = message.keyboard.flat().find((item) => item.text === label);
    if (button === undefined) throw new Error(`no button "${label}" on message ${message.message_id}`);
    const id = `cq${this.nextQuery++}`;
    this.queries.set(id, false);
    this.push('callback_query', {
      callback_query: {
        id,
        from: { id: from.user, is_bot: false, first_name: 'Tapper' },
        chat_instance: 'ci',
        data: button.callback_data,
        message: { message_id: message.message_id, date: 0, chat: { id: from.chat, type: 'private' }, text: message.text },
      },
    });
    return id;
  }

  /** Whether a getUpdates is being held (a listener waiting). */
  get polling(): boolean {
    return this.held !== null;
  }

  private push(kind: string, body: Record<string, unknown>): void {
    this.updates.push({ update_id: this.nextUpdate++, kind, body });
    const held = this.held;
    if (held !== null && this.pending(held.offset, held.allowed).length > 0) {
      this.held = null;
      clearTimeout(held.timer);
      this.ok(held.response, this.pending(held.offset, held.allowed));
    }
  }

  private pending(offset: number, allowed: string[] | null): Record<string, unknown>[] {
    return this.updates
      .filter((update) => update.update_id >= offset && (allowed === null || allowed.includes(update.kind)))
      .slice(0, 100)
      .map((update) => ({ update_id: update.update_id, ...update.body }));
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const body = await new Promise<string>((resolve) => {
      let text = '';
      request.setEncoding('utf8');
      request.on('data', (chunk: string) => {
        text += chunk;
      });
      request.on('end', () => resolve(text));
    });
    const route = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(new URL(request.url ?? '/', this.url).pathname);
    if (route === null || request.method !== 'POST') return this.fail(response, 404, 'Not Found');
    const [, token, method] = route;
    this.calls.push(method ?? '');
    const failure = this.failures.shift();
    if (failure?.hang === true) return;
    if (failure !== undefined)
      return this.fail(
        response,
        failure.status,
        failure.status === 429 ? `Too Many Requests: retry after ${failure.retryAfter ?? 1}` : 'Internal Server Error',
        failure.retryAfter,
      );
    if (token !== this.token) return this.fail(response, 401, 'Unauthorized');
    let args: Record<string, unknown>;
    try {
      args = body === '' ? {} : (JSON.parse(body) as Record<string, unknown>);
    } catch {
      return this.fail(response, 400, "Bad Request: can't parse JSON object");
    }
    switch (method) {
      case 'getMe':
        return this.ok(response, { id: 123456789, is_bot: true, first_name: 'Lookout lab', username: 'lookout_lab_bot' });
      case 'getUpdates':
        return this.getUpdates(args, response);
      case 'sendMessage':
        return this.sendMessage(args, response);
      case 'editMessageText':
        return this.editMessageText(args, response);
      case 'answerCallbackQuery': {
        const id = String(args.callback_query_id ?? '');
        const text = typeof args.text === 'string' ? args.text : '';
        if (this.queries.get(id) !== false)
          return this.fail(response, 400, 'Bad Request: query is too old and response timeout expired or query ID is invalid');
        if (text.length > 200) return this.fail(response, 400, 'Bad Request: MESSAGE_TOO_LONG');
        this.queries.set(id, true);
        this.answered.push({ id, text });
        return this.ok(response, true);
      }
      default:
        return this.fail(response, 404, 'Not Found: method not found');
    }
  }

  private getUpdates(args: Record<string, unknown>, response: ServerResponse): void {
    const offset = typeof args.offset === 'number' ? args.offset : 0;
    // Confirmed: every update before the offset is forgotten.
    if (offset > 0) this.updates.splice(0, this.updates.filter((update) => update.update_id < offset).length);
    const allowed = Array.isArray(args.allowed_updates) ? (args.allowed_updates as string[]) : null;
    const ready = this.pending(offset, allowed);
    const previous = this.held;
    if (previous !== null) {
      this.held = null;
      clearTimeout(previous.timer);
      this.fail(previous.response, 409, 'Conflict: terminated by other getUpdates request; make sure that only one bot instance is running');
    }
    const timeout = typeof args.timeout === 'number' ? args.timeout : 0;
    if (ready.length > 0 || timeout <= 0) return this.ok(response, ready);
    const held: Held = {
      response,
      offset,
      allowed,
      timer: setTimeout(() => {
        if (this.held === held) this.held = null;
        this.ok(response, []);
      }, timeout * 1000),
    };
    this.held = held;
    response.on('close', () => {
      if (this.held === held) {
        clearTimeout(held.timer);
        this.held = null;
      }
    });
  }

  private sendMessage(args: Record<string, unknown>, response: ServerResponse): void {
    const chat = String(args.chat_id ?? '');
    if (!this.chats.has(chat)) return this.fail(response, 400, 'Bad Request: chat not found');
    const text = typeof args.text === 'string' ? args.text : '';
    if (text.length === 0) return this.fail(response, 400, 'Bad Request: message text is empty');
    if (text.length > 4096) return this.fail(response, 400, 'Bad Request: message is too long');
    const keyboard = keyboardOf(args.reply_markup);
    if (keyboard === null) return this.fail(response, 400, 'Bad Request: BUTTON_DATA_INVALID');
    const message: SentMessage = { message_id: this.nextMessage++, chat_id: chat, text, keyboard, edits: 0 };
    this.sent.push(message);
    this.ok(response, { message_id: message.message_id, date: 0, chat: { id: Number(chat), type: 'private' }, text });
  }

  private editMessageText(args: Record<string, unknown>, response: ServerResponse): void {
    const message = this.sent.find((item) => item.chat_id === String(args.chat_id ?? '') && item.message_id === args.message_id);
    if (message === undefined) return this.fail(response, 400, 'Bad Request: message to edit not found');
    const text = typeof args.text === 'string' ? args.text : '';
    if (text.length === 0 || text.length > 4096) return this.fail(response, 400, 'Bad Request: message text is empty or too long');
    const keyboard = keyboardOf(args.reply_markup) ?? [];
    if (text === message.text && JSON.stringify(keyboard) === JSON.stringify(message.keyboard))
      return this.fail(
        response,
        400,
        'Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message',
      );
    message.text = text;
    message.keyboard = keyboard;
    message.edits += 1;
    this.ok(response, { message_id: message.message_id, date: 0, text });
  }

  private ok(response: ServerResponse, result: unknown): void {
    response.writeHead(200, { 'Content-Type': 'application/json' });
    response.end(JSON.stringify({ ok: true, result }));
  }

  private fail(response: ServerResponse, status: number, description: string, retryAfter?: number): void {
    response.writeHead(status, { 'Content-Type': 'application/json' });
    response.end(
      JSON.stringify({ ok: false, error_code: status, description, ...(retryAfter === undefined ? {} : { parameters: { retry_after: retryAfter } }) }),
    );
  }
}

/** An inline keyboard as sent, or null when a button's callback_data is not 1–64 bytes. */
function keyboardOf(markup: unknown): { text: string; callback_data: string }[][] | null {
  const rows = (markup as { inline_keyboard?: unknown } | undefined)?.inline_keyboard;
  if (!Array.isArray(rows)) return [];
  const keyboard: { text: string; callback_data: string }[][] = [];
  for (const row of rows as { text?: unknown; callback_data?: unknown }[][]) {
    const buttons: { text: string; callback_data: string }[] = [];
    for (const button of row) {
      const data = typeof button.callback_data === 'string' ? button.callback_data : '';
      const bytes = Buffer.byteLength(data, 'utf8');
      if (bytes < 1 || bytes > 64) return null;
      buttons.push({ text: String(button.text ?? ''), callback_data: data });
    }
    keyboard.push(buttons);
  }
  return keyboard;
}
