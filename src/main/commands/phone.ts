// `lookout phone add|list|remove|test|mode` (issue 49, R90, docs/phone.md): the phone channels
// this machine's Lookout sends to, in phone.json (0600). A token is never printed whole, and a
// Telegram bot token is read from standard input, never from the command line (ps would show it).
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { resolveNow } from '../cli/now-option';
import { UsageError } from '../cli/usage-error';
import { lookoutHome } from '../store/home';
import { printLines } from '../text/terminal-text';
import { failureText } from '../phone/backoff';
import {
  PhoneSetupError,
  addNtfy as addNtfyChannel,
  channelLine,
  freeId,
  removeChannel,
  setMode,
  ntfyTarget as setupTarget,
  testChannels,
} from '../phone/phone-setup';
import type { ChannelConfig, PhoneFile } from '../phone/phone-config';
import { PHONE_MODES, TELEGRAM_API, channelLabel, emptyPhoneFile, loadPhone, savePhone, serverProblem } from '../phone/phone-config';
import { healthLine, readPhoneState } from '../phone/phone-state';
import { findTelegramChat } from '../phone/telegram-entry';

export interface PhoneIo {
  env: NodeJS.ProcessEnv;
  out(lines: readonly string[]): void;
  err(lines: readonly string[]): void;
  /** The first line of standard input (a bot token), or null at its end. */
  readLine(): Promise<string | null>;
  fetch?: typeof fetch;
}

/** How long `phone add telegram` waits for the first message to the bot. */
const FIND_CHAT_MS = 180_000;

/** A failure the person can act on: one line, exit 1 (the arguments were right). */
class Refused extends Error {}

/** `ntfy.sh/topic` or `https://ntfy.example.com/topic`; a malformed one is a bad argument (exit 2). */
export function ntfyTarget(text: string): { server: string; topic: string } {
  try {
    return setupTarget(text);
  } catch (error) {
    throw error instanceof PhoneSetupError ? new UsageError(error.message) : error;
  }
}

export async function runPhone(args: string[], io: PhoneIo): Promise<number> {
  const { values, positionals } = parseArgs({ args, options: { token: { type: 'string' }, now: { type: 'string' } }, strict: true, allowPositionals: true });
  const now = resolveNow(values.now);
  const home = lookoutHome(io.env);
  const [verb, first, ...rest] = positionals;
  const loaded = loadPhone(home, now);
  if (loaded.problem !== null) io.err([loaded.problem]);
  const file = loaded.file ?? emptyPhoneFile();
  const none = (what: string) => {
    if (rest.length > 0 || (what !== 'first' && first !== undefined))
      throw new UsageError(`phone ${verb ?? ''} takes ${what === 'first' ? 'one argument' : 'no argument'}`);
  };
  if (values.token !== undefined && !(verb === 'add' && first === 'ntfy')) throw new UsageError('--token is for phone add ntfy');
  try {
    switch (verb) {
      case 'add':
        if (first === 'ntfy') return addNtfy(rest, values.token ?? null, file, home, io);
        if (first === 'telegram') {
          if (rest.length > 0) throw new UsageError('phone add telegram takes no argument: the bot token is read from standard input');
          return await addTelegram(file, home, io);
        }
        throw new UsageError('phone add takes ntfy <server/topic> [--token T] or telegram');
      case 'list':
        none('none');
        return list(file, home, io);
      case 'remove': {
        none('first');
        if (first === undefined) throw new UsageError('phone remove takes a channel id (see lookout phone list)');
        removeChannel(home, file, first);
        io.out([`removed: ${first}`]);
        return 0;
      }
      case 'test':
        none('none');
        return await test(file, home, io, now);
      case 'mode': {
        none('first');
        const mode = PHONE_MODES.find((item) => item === first);
        if (mode === undefined) throw new UsageError('phone mode takes away or always');
        setMode(home, file, mode);
        io.out([
          `mode: ${mode}${mode === 'away' ? ' (the tray app sends while you are away; lookout watch --phone always)' : ' (every notification goes to the phone too)'}`,
        ]);
        return 0;
      }
      default:
        throw new UsageError('phone takes add, list, remove, test or mode (docs/phone.md)');
    }
  } catch (error) {
    if (!(error instanceof Refused) && !(error instanceof PhoneSetupError)) throw error;
    io.err([error.message]);
    return 1;
  }
}

function addNtfy(rest: string[], token: string | null, file: PhoneFile, home: string, io: PhoneIo): number {
  const [target, ...more] = rest;
  if (target === undefined || more.length > 0) throw new UsageError('phone add ntfy takes one <server>/<topic>, like ntfy.sh/my-lookout-topic');
  const { topic, server } = ntfyTarget(target);
  if (token !== null && !/^[\x21-\x7e]{1,200}$/.test(token)) throw new UsageError('--token takes an ntfy access token (tk_…)');
  const config = addNtfyChannel(home, file, target, token);
  io.out([`added: ${channelLine(config)}`, `subscribe to "${topic}" in the ntfy app (server ${server}), then run: lookout phone test`]);
  return 0;
}

async function addTelegram(file: PhoneFile, home: string, io: PhoneIo): Promise<number> {
  io.err(['the bot token from @BotFather (one line on standard input):']);
  const botToken = (await io.readLine())?.trim() ?? '';
  if (!/^\d{1,20}:[A-Za-z0-9_-]{20,100}$/.test(botToken)) throw new Refused('lookout: that is not a bot token (@BotFather gives one like 123456789:AA…)');
  const api = io.env.LOOKOUT_TELEGRAM_API ?? TELEGRAM_API;
  const apiProblem = serverProblem(api);
  if (apiProblem !== null) throw new Refused(`lookout: LOOKOUT_TELEGRAM_API: ${apiProblem}`);
  io.err(['send any message to your bot now (from the Telegram account that should answer)…']);
  let chat: { chatId: string; userId: string; name: string };
  try {
    chat = await findTelegramChat(botToken, api, { ...(io.fetch === undefined ? {} : { fetch: io.fetch }), signal: AbortSignal.timeout(FIND_CHAT_MS) });
  } catch (error) {
    throw new Refused(`lookout: no message reached the bot: ${failureText(error)}`);
  }
  const config: ChannelConfig = { kind: 'telegram', id: freeId(file, 'telegram'), botToken, chatId: chat.chatId, userId: chat.userId, api };
  savePhone(home, { ...file, channels: [...file.channels, config] });
  io.out([`added: ${config.id}: ${channelLabel(config)}, answering only ${chat.name}`, 'then run: lookout phone test']);
  return 0;
}

function list(file: PhoneFile, home: string, io: PhoneIo): number {
  const state = readPhoneState(home);
  if (file.channels.length === 0) {
    io.out(['no phone channel (lookout phone add ntfy <server/topic> | telegram; docs/phone.md)']);
    return 0;
  }
  io.out([`mode: ${file.mode}`, ...file.channels.map((config) => `${config.id}: ${channelLabel(config)}: ${healthLine(state[config.id])}`)]);
  return 0;
}

async function test(file: PhoneFile, home: string, io: PhoneIo, now: number): Promise<number> {
  const outcomes = await testChannels(home, file, now);
  for (const { config, error } of outcomes) {
    if (error === null) io.out([`sent: ${channelLine(config)}`]);
    else io.err([`lookout: ${channelLine(config)}: ${error}`]);
  }
  return outcomes.every((outcome) => outcome.error === null) ? 0 : 1;
}

function readFirstLine(): Promise<string | null> {
  return new Promise((resolve) => {
    const lines = createInterface({ input: process.stdin, terminal: false });
    let done = false;
    lines.once('line', (line) => {
      done = true;
      lines.close();
      resolve(line);
    });
    lines.once('close', () => {
      if (!done) resolve(null);
    });
  });
}

export function phoneCommand(args: string[]): Promise<number> {
  return runPhone(args, {
    env: process.env,
    out: (lines) => printLines(process.stdout, lines),
    err: (lines) => printLines(process.stderr, lines),
    readLine: readFirstLine,
  });
}
