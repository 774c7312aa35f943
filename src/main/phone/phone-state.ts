// run/phone-state.json (0600): each channel's last success and last error, written by the Lookout
// that sends, read by `doctor` and `phone list` in other processes.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod/mini';
import { privateFolder, writePrivate } from '../../providers/system/private-files';
import { runFolder } from '../answer/paths';
import type { ChannelHealth } from './outbox';

export const phoneStatePath = (home: string): string => join(runFolder(home), 'phone-state.json');

const healthSchema = z.object({
  lastOk: z.nullable(z.number()),
  lastError: z.nullable(z.object({ at: z.number(), text: z.string() })),
  dropped: z.number(),
});
const stateSchema = z.record(z.string(), healthSchema);
export type PhoneState = Record<string, ChannelHealth>;

export function readPhoneState(home: string): PhoneState {
  const path = phoneStatePath(home);
  if (!existsSync(path)) return {};
  try {
    const parsed = stateSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
    return parsed.success ? parsed.data : {};
  } catch {
    return {};
  }
}

/** One channel's health, merged into the file (by channel id). */
export function writeChannelHealth(home: string, id: string, health: ChannelHealth): void {
  const state = readPhoneState(home);
  state[id] = { lastOk: health.lastOk, lastError: health.lastError, dropped: health.dropped };
  privateFolder(runFolder(home));
  writePrivate(phoneStatePath(home), `${JSON.stringify(state)}\n`);
}

const when = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** A channel's last success and last error, for `phone list` and doctor. */
export function healthLine(health: { lastOk: number | null; lastError: { at: number; text: string } | null } | undefined): string {
  if (health === undefined || (health.lastOk === null && health.lastError === null)) return 'nothing sent yet';
  const ok = health.lastOk === null ? 'never sent' : `last sent ${when(health.lastOk)}`;
  const error = health.lastError === null ? '' : `; last error ${when(health.lastError.at)}: ${health.lastError.text}`;
  return `${ok}${error}`;
}

/** Whether the channel's latest word is a failure (doctor calls it a problem). */
export function failingNow(health: ChannelHealth | undefined): boolean {
  return health?.lastError !== undefined && health.lastError !== null && (health.lastOk === null || health.lastError.at > health.lastOk);
}
