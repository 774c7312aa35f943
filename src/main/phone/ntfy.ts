// ntfy (https://docs.ntfy.sh), the open-source push service, as a phone channel (issue 49):
// messages are published with the JSON publishing API (POST to the server's root); an answerable
// one carries `http` actions whose tap makes the phone app POST the one-time token to the reply
// topic, which this machine reads with a streaming subscription (GET /<reply>/json). Every
// connection goes out from here; nothing listens. ntfy cannot edit a sent message: a settled tap
// is told by a short follow-up message on the same topic.
import { cutLine, cutText } from '../../engine/text-cut';
import { visibleLines, visibleText } from '../../engine/visible-text';
import type { PhoneChannel, PhoneMessage, PhoneTap, SentRef } from './channel';
import { PhoneError } from './channel';
import type { NtfyConfig } from './phone-config';
import { channelLabel } from './phone-config';
import { TOKEN_SHAPE } from './tokens';

/** ntfy shows at most 3 actions; a message is at most 4,096 bytes (longer becomes an attachment). */
const NTFY_ACTIONS_MAX = 3;
const NTFY_MESSAGE_BYTES = 4096;
const TITLE_MAX = 120;
/** A publish that gets no answer in this long is a failure (a hanging server never holds the queue). */
const SEND_TIMEOUT_MS = 15_000;
/** ntfy sends a keepalive every 45 s by default: a stream silent far longer has dropped. */
const SILENT_DROP_MS = 120_000;
/** A subscription that ends this soon after it opened, this many times in a row, is a failure. */
const QUICK_DROP_MS = 1000;
const QUICK_DROPS_MAX = 3;

/** The JSON a publish sends: plain text only (never `markdown: true`), so markup shows as written. */
export interface NtfyPublish {
  topic: string;
  title: string;
  message: string;
  tags?: string[];
  actions?: { action: 'http'; label: string; url: string; method: 'POST'; body: string; headers?: Record<string, string>; clear: boolean }[];
}

/** Text cut to ntfy's limit in bytes (UTF-8), with every hidden character shown as itself. */
function ntfyText(text: string, maxBytes: number): string {
  let shown = visibleLines(text);
  let max = shown.length;
  while (Buffer.byteLength(shown, 'utf8') > maxBytes) {
    max = Math.floor(max * 0.9);
    shown = cutText(visibleLines(text), max);
  }
  return shown;
}

export class NtfyChannel implements PhoneChannel {
  readonly kind = 'ntfy' as const;
  readonly label: string;
  ignored = 0;
  readonly maxButtons = NTFY_ACTIONS_MAX;
  private readonly fetch: typeof fetch;
  private readonly root: string;

  constructor(
    private readonly config: NtfyConfig,
    options: { fetch?: typeof fetch } = {},
  ) {
    this.label = channelLabel(config);
    this.fetch = options.fetch ?? fetch;
    this.root = config.server.replace(/\/+$/, '');
  }

  /** The body of one publish: what `send` posts (exported for the tests). */
  publication(message: PhoneMessage): NtfyPublish {
    const title = cutLine(visibleText(message.title), TITLE_MAX);
    const body = ntfyText(message.body === '' ? message.title : message.body, NTFY_MESSAGE_BYTES - 96);
    const buttons = message.buttons.slice(0, NTFY_ACTIONS_MAX);
    if (buttons.length === 0) return { topic: this.config.topic, title, message: body };
    return {
      topic: this.config.topic,
      title,
      message: body,
      tags: ['question'],
      actions: buttons.map((button) => ({
        action: 'http',
        label: cutLine(visibleText(button.label), 40),
        url: `${this.root}/${this.config.replyTopic}`,
        method: 'POST',
        body: button.token,
        ...(this.config.token === null ? {} : { headers: { Authorization: `Bearer ${this.config.token}` } }),
        clear: true,
      })),
    };
  }

  async send(message: PhoneMessage): Promise<SentRef> {
    const published = await this.publish(this.publication(message));
    return published;
  }

  /** ntfy has no edit: the outcome goes as a short message of its own. */
  async settle(ref: SentRef, text: string): Promise<void> {
    void ref;
    await this.publish({ topic: this.config.topic, title: 'Lookout', message: ntfyText(text, 1000), tags: ['lookout'] });
  }

  async reply(tap: PhoneTap, text: string): Promise<void> {
    void tap;
    await this.publish({ topic: this.config.topic, title: 'Lookout', message: ntfyText(text, 1000), tags: ['warning'] });
  }

  async listen(onTap: (tap: PhoneTap) => void, signal: AbortSignal): Promise<void> {
    let since: string | null = null;
    // A server that closes each subscription at once would be asked again and again: after a few, the caller's backoff.
    let quick = 0;
    while (!signal.aborted) {
      const opened = Date.now();
      const url = `${this.root}/${this.config.replyTopic}/json${since === null ? '' : `?since=${encodeURIComponent(since)}`}`;
      let response: Response;
      // A server that takes the connection and never answers is cut after SEND_TIMEOUT_MS, like a publish.
      const connection = new AbortController();
      const stop = (): void => connection.abort();
      signal.addEventListener('abort', stop, { once: true });
      const hang = setTimeout(stop, SEND_TIMEOUT_MS);
      try {
        response = await this.fetch(url, { headers: this.headers(), signal: connection.signal });
      } catch (error) {
        signal.removeEventListener('abort', stop);
        if (signal.aborted) return;
        throw new PhoneError(`cannot reach ${new URL(this.root).host} (${connection.signal.aborted ? 'no answer' : failure(error)})`, null);
      } finally {
        clearTimeout(hang);
      }
      if (!response.ok) throw await refusal(response);
      const body = response.body;
      if (body === null) throw new PhoneError('the subscription came back empty', response.status);
      try {
        since = await this.read(body, since, onTap, signal);
      } finally {
        signal.removeEventListener('abort', stop);
      }
      quick = Date.now() - opened < QUICK_DROP_MS ? quick + 1 : 0;
      if (quick >= QUICK_DROPS_MAX && !signal.aborted) throw new PhoneError('the reply topic subscription keeps closing', null);
    }
  }

  /** Reads the stream's lines until it ends or goes silent; where to resume from (the last message id, or the open's time). */
  private async read(body: ReadableStream<Uint8Array>, since: string | null, onTap: (tap: PhoneTap) => void, signal: AbortSignal): Promise<string | null> {
    const reader = body.getReader();
    const decoder = new TextDecoder();
    let buffered = '';
    let last = since;
    let silent: NodeJS.Timeout | null = null;
    const arm = (): void => {
      if (silent !== null) clearTimeout(silent);
      silent = setTimeout(() => void reader.cancel().catch(() => undefined), SILENT_DROP_MS);
      silent.unref();
    };
    const stop = (): void => void reader.cancel().catch(() => undefined);
    signal.addEventListener('abort', stop, { once: true });
    try {
      arm();
      for (;;) {
        let chunk: ReadableStreamReadResult<Uint8Array>;
        try {
          chunk = await reader.read();
        } catch {
          return last;
        }
        if (chunk.done) return last;
        arm();
        buffered += decoder.decode(chunk.value, { stream: true });
        // A line longer than any event ntfy sends is no event: dropped whole.
        if (buffered.length > 65_536 && !buffered.includes('\n')) {
          buffered = '';
          this.ignored += 1;
        }
        let end = buffered.indexOf('\n');
        while (end >= 0) {
          last = this.event(buffered.slice(0, end), last, onTap);
          buffered = buffered.slice(end + 1);
          end = buffered.indexOf('\n');
        }
      }
    } finally {
      if (silent !== null) clearTimeout(silent);
      signal.removeEventListener('abort', stop);
    }
  }

  private event(line: string, last: string | null, onTap: (tap: PhoneTap) => void): string | null {
    if (line.trim() === '') return last;
    let event: unknown;
    try {
      event = JSON.parse(line);
    } catch {
      this.ignored += 1;
      return last;
    }
    if (typeof event !== 'object' || event === null) {
      this.ignored += 1;
      return last;
    }
    const { event: kind, id, message, time } = event as { event?: unknown; id?: unknown; message?: unknown; time?: unknown };
    // Before any message, a reconnect resumes from when the stream opened (ntfy's since=<unix time>): a tap during a drop is not lost.
    if (kind === 'open') return last ?? (typeof time === 'number' && Number.isInteger(time) && time > 0 ? String(time) : null);
    if (kind !== 'message') return last;
    const next = typeof id === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(id) ? id : last;
    const token = typeof message === 'string' ? message.trim() : '';
    if (TOKEN_SHAPE.test(token)) onTap({ token, from: null, ref: null, callback: null });
    else this.ignored += 1;
    return next;
  }

  private headers(): Record<string, string> {
    return this.config.token === null ? {} : { Authorization: `Bearer ${this.config.token}` };
  }

  private async publish(body: NtfyPublish): Promise<SentRef> {
    let response: Response;
    try {
      response = await this.fetch(this.root, {
        method: 'POST',
        headers: { ...this.headers(), 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
      });
    } catch (error) {
      throw new PhoneError(`cannot reach ${new URL(this.root).host} (${failure(error)})`, null);
    }
    if (!response.ok) throw await refusal(response);
    const answer = (await response.json().catch(() => null)) as { id?: unknown } | null;
    return typeof answer?.id === 'string' ? answer.id : null;
  }
}

function failure(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : null;
  return cause ?? (error instanceof Error ? error.message : String(error));
}

/** A refused request as one line: the status, ntfy's own error text, the wait a 429 asked. */
async function refusal(response: Response): Promise<PhoneError> {
  const answer = (await response.json().catch(() => null)) as { error?: unknown } | null;
  const said = typeof answer?.error === 'string' ? `: ${cutLine(visibleText(answer.error), 160)}` : '';
  const after = Number(response.headers.get('retry-after'));
  const hint = response.status === 401 || response.status === 403 ? ' (check the access token: lookout phone add ntfy … --token)' : '';
  return new PhoneError(`HTTP ${response.status}${said}${hint}`, response.status, Number.isFinite(after) && after > 0 ? after : null);
}
