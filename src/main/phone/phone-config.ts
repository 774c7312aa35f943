// phone.json in LOOKOUT_HOME (issue 49, R90): the phone channels a person set up and when they
// send. It holds access and bot tokens, so it is written 0600 and no token is ever shown whole; a
// file that fails validation is kept aside and said, and no channel sends until it is set up again.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod/mini';
import { prettifyError } from 'zod/mini';
import { privateFolder, writePrivate } from '../../providers/system/private-files';
import { keepAside } from '../store/quarantine';
import { PHONE_MODE_NAMES } from '../../engine/contract';

const PHONE_VERSION = 1;

/** ntfy's server: https, or plain http only on this machine (a self-hosted test server, the stand-in). */
export function serverProblem(server: string): string | null {
  let url: URL;
  try {
    url = new URL(server);
  } catch {
    return `"${server}" is not a URL`;
  }
  if (url.username !== '' || url.password !== '') return 'a server URL carries no user or password (use --token)';
  if (url.search !== '' || url.hash !== '') return 'a server URL has no query or fragment';
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)) return null;
  return `${server}: only https (or http on 127.0.0.1/localhost) is allowed`;
}

/** ntfy's topic names: letters, digits, _ and -, at most 64. */
export const TOPIC = /^[A-Za-z0-9_-]{1,64}$/;

const id = z.string().check(z.regex(/^[a-z0-9][a-z0-9-]{0,31}$/));
const line = (max: number) => z.string().check(z.minLength(1), z.maxLength(max), z.regex(/^[^\0-\x1f\x7f]*$/));

const ntfyConfigSchema = z.object({
  kind: z.literal('ntfy'),
  id,
  server: z.string().check(z.refine((text) => serverProblem(text) === null, 'https, or http on 127.0.0.1/localhost')),
  topic: z.string().check(z.regex(TOPIC)),
  /** Where the phone's buttons publish their token: random, made at add time, never shown whole. */
  replyTopic: z.string().check(z.regex(TOPIC), z.minLength(20)),
  token: z.nullable(line(200)),
});
export type NtfyConfig = z.infer<typeof ntfyConfigSchema>;

const telegramConfigSchema = z.object({
  kind: z.literal('telegram'),
  id,
  botToken: line(200),
  chatId: line(40),
  userId: line(40),
  api: z.string().check(z.refine((text) => serverProblem(text) === null, 'https, or http on 127.0.0.1/localhost')),
});
/** What TelegramChannel takes (src/main/phone/telegram.ts). */
export interface TelegramConfig {
  kind: 'telegram';
  id: string;
  botToken: string;
  chatId: string;
  userId: string;
  /** The Bot API's base URL: https://api.telegram.org, or a stand-in's http://127.0.0.1:port in tests. */
  api: string;
}

export const TELEGRAM_API = 'https://api.telegram.org';

const channelConfigSchema = z.discriminatedUnion('kind', [ntfyConfigSchema, telegramConfigSchema]);
export type ChannelConfig = NtfyConfig | TelegramConfig;

// The contract's list: the popover and phone.json name the same modes.
export const PHONE_MODES = PHONE_MODE_NAMES;
export type PhoneMode = (typeof PHONE_MODES)[number];

const phoneFileSchema = z.object({
  schemaVersion: z.literal(PHONE_VERSION),
  mode: z._default(z.enum(PHONE_MODES), 'away'),
  channels: z.array(channelConfigSchema).check(z.maxLength(20)),
});
export interface PhoneFile {
  schemaVersion: typeof PHONE_VERSION;
  mode: PhoneMode;
  channels: ChannelConfig[];
}

export const phonePath = (home: string): string => join(home, 'phone.json');

export function emptyPhoneFile(): PhoneFile {
  return { schemaVersion: PHONE_VERSION, mode: 'away', channels: [] };
}

/** The file as written, or none (never set up), or none and a problem (set aside). */
export function loadPhone(
  home: string,
  now: number,
  options: { keepAside: boolean } = { keepAside: true },
): { file: PhoneFile | null; problem: string | null } {
  const path = phonePath(home);
  if (!existsSync(path)) return { file: null, problem: null };
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    return setAside(path, `it is not valid JSON (${error instanceof Error ? error.message : String(error)})`, now, options.keepAside);
  }
  const parsed = phoneFileSchema.safeParse(raw);
  if (!parsed.success) return setAside(path, prettifyError(parsed.error).replace(/\s*\n\s*/g, ' '), now, options.keepAside);
  return { file: parsed.data, problem: null };
}

function setAside(path: string, why: string, now: number, keep: boolean): { file: null; problem: string } {
  let where = '';
  if (keep)
    try {
      where = `; kept as ${keepAside(path, now)}`;
    } catch {
      where = '';
    }
  return { file: null, problem: `lookout: ${path} is not a phone set-up Lookout can use (${why})${where}; no phone channel sends until one is added again` };
}

export function savePhone(home: string, file: PhoneFile): void {
  privateFolder(home);
  writePrivate(phonePath(home), `${JSON.stringify(file, null, 2)}\n`);
}

/** A secret as `phone list` and `doctor` show it: its first 4 characters, never the rest. */
function hint(secret: string): string {
  return secret.length <= 4 ? '…' : `${secret.slice(0, 4)}…`;
}

/** A channel's name in every line Lookout prints: its kind, where it goes, no secret whole. */
export function channelLabel(config: ChannelConfig): string {
  switch (config.kind) {
    case 'ntfy': {
      const host = new URL(config.server).host;
      return `ntfy ${host}/${config.topic}${config.token === null ? '' : ` (token ${hint(config.token)})`}`;
    }
    case 'telegram':
      return `telegram chat ${config.chatId} (bot ${hint(config.botToken)})`;
  }
}
