// Setting the phone up (issue 49, R90): the changes to phone.json that `lookout phone` and the
// popover's settings both make, written once. A refusal is a PhoneSetupError whose message is the
// one line to show; the token a person gives is never part of it.
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { failureText } from './backoff';
import { channelFor } from './channels';
import type { ChannelConfig, PhoneFile, PhoneMode } from './phone-config';
import { TOPIC, channelLabel, savePhone, serverProblem } from './phone-config';
import { readPhoneState, writeChannelHealth } from './phone-state';

export class PhoneSetupError extends Error {}

/** `ntfy.sh/topic` or `https://ntfy.example.com/topic` (a path before the topic is the server's). */
export function ntfyTarget(text: string): { server: string; topic: string } {
  const full = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`;
  const cut = full.replace(/\/+$/, '').lastIndexOf('/');
  const server = full.slice(0, cut);
  const topic = full.replace(/\/+$/, '').slice(cut + 1);
  if (cut <= full.indexOf('://') + 2 || !TOPIC.test(topic))
    throw new PhoneSetupError(`phone add ntfy takes <server>/<topic>, like ntfy.sh/my-lookout-topic (got "${text.slice(0, 120)}")`);
  const problem = serverProblem(server);
  if (problem !== null) throw new PhoneSetupError(`phone add ntfy: ${problem}`);
  return { server, topic };
}

/** The kind's name if no channel has it, else the kind and the first free number ("ntfy-2"). */
export function freeId(file: PhoneFile, kind: ChannelConfig['kind']): string {
  if (!file.channels.some((channel) => channel.id === kind)) return kind;
  for (let n = 2; ; n += 1) if (!file.channels.some((channel) => channel.id === `${kind}-${n}`)) return `${kind}-${n}`;
}

/** Adds an ntfy topic; its reply topic, the buttons' secret (R93), is made here, unguessable, never shown. */
export function addNtfy(home: string, file: PhoneFile, target: string, token: string | null): ChannelConfig {
  const { server, topic } = ntfyTarget(target);
  if (token !== null && !/^[\x21-\x7e]{1,200}$/.test(token)) throw new PhoneSetupError('phone add ntfy: an access token is one word (tk_…)');
  const replyTopic = `lk_${randomBytes(18).toString('base64url')}`;
  const config: ChannelConfig = { kind: 'ntfy', id: freeId(file, 'ntfy'), server, topic, replyTopic, token };
  savePhone(home, { ...file, channels: [...file.channels, config] });
  return config;
}

export function removeChannel(home: string, file: PhoneFile, id: string): void {
  const kept = file.channels.filter((channel) => channel.id !== id);
  if (kept.length === file.channels.length) throw new PhoneSetupError(`lookout: no phone channel "${id.slice(0, 40)}" (see lookout phone list)`);
  savePhone(home, { ...file, channels: kept });
}

export function setMode(home: string, file: PhoneFile, mode: PhoneMode): void {
  savePhone(home, { ...file, mode });
}

/** One test message through each channel; each outcome kept for doctor and `phone list`. */
export async function testChannels(home: string, file: PhoneFile, now: number): Promise<{ config: ChannelConfig; error: string | null }[]> {
  if (file.channels.length === 0) throw new PhoneSetupError('lookout: no phone channel to test (lookout phone add …; docs/phone.md)');
  const outcomes: { config: ChannelConfig; error: string | null }[] = [];
  for (const config of file.channels) {
    const state = readPhoneState(home)[config.id] ?? { lastOk: null, lastError: null, dropped: 0 };
    try {
      await channelFor(config).send({ title: 'Lookout', body: `A test from Lookout on ${hostname()}: this channel works.`, buttons: [] });
      writeChannelHealth(home, config.id, { ...state, lastOk: now });
      outcomes.push({ config, error: null });
    } catch (error) {
      writeChannelHealth(home, config.id, { ...state, lastError: { at: now, text: failureText(error) } });
      outcomes.push({ config, error: failureText(error) });
    }
  }
  return outcomes;
}

/** What the settings show of one channel: never a token. */
export function channelLine(config: ChannelConfig): string {
  return `${config.id}: ${channelLabel(config)}`;
}
