// Appends one hook event to the spool, in a single write, rotating a spool past its bound. Any
// failure is swallowed: a hook must never disturb the agent that runs it.
import { appendFileSync, mkdirSync, renameSync, rmdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { SpoolEntry, SpoolProvider } from '../../providers/hooks/spool-format';
import { PAYLOAD_MAX_BYTES, SPOOL_ROTATE_BYTES, spoolLine, spoolName } from '../../providers/hooks/spool-format';
import { parseRecord } from '../../providers/jsonl/parse-record';

const nap = new Int32Array(new SharedArrayBuffer(4));

function takeLock(lock: string): boolean {
  for (let tries = 0; tries <= 200; tries += 1) {
    try {
      mkdirSync(lock);
      return true;
    } catch {
      Atomics.wait(nap, 0, 0, 10);
    }
  }
  try {
    rmdirSync(lock);
    mkdirSync(lock);
    return true;
  } catch {
    return false;
  }
}

export function writeSpool(folder: string, provider: SpoolProvider, channel: SpoolEntry['channel'], text: string, now: number): boolean {
  try {
    if (text.length === 0 || Buffer.byteLength(text) > PAYLOAD_MAX_BYTES) return false;
    const payload = parseRecord(text.trim());
    if (payload === null) return false;
    const path = join(folder, spoolName(provider));
    try {
      if (statSync(path).size > SPOOL_ROTATE_BYTES) renameSync(path, `${path}.1`);
    } catch {
      mkdirSync(folder, { recursive: true, mode: 0o700 });
    }
    // The same lock as the sh shim: one writer appends at a time; one held for two seconds was
    // left by a killed hook and is taken over; without it nothing is written.
    const lock = `${path}.lock`;
    if (!takeLock(lock)) return false;
    try {
      // Prompts and tool inputs: the spool is private (0600) from its first line.
      appendFileSync(path, spoolLine({ provider, at: now, precision: 'ms', channel, payload }), { mode: 0o600 });
    } finally {
      rmdirSync(lock);
    }
    return true;
  } catch {
    return false;
  }
}
