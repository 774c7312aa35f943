// Appends one hook event to the spool, in a single write, rotating a spool past its bound. Any
// failure is swallowed: a hook must never disturb the agent that runs it.
import { appendFileSync, closeSync, mkdirSync, openSync, readSync, renameSync, rmdirSync, statSync } from 'node:fs';
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

function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

function endsWithNewline(path: string, size: number): boolean {
  const fd = openSync(path, 'r');
  try {
    const last = Buffer.alloc(1);
    readSync(fd, last, 0, 1, size - 1);
    return last[0] === 0x0a;
  } finally {
    closeSync(fd);
  }
}

export function writeSpool(folder: string, provider: SpoolProvider, channel: SpoolEntry['channel'], text: string, now: number): boolean {
  try {
    if (text.length === 0 || Buffer.byteLength(text) > PAYLOAD_MAX_BYTES) return false;
    const payload = parseRecord(text.trim());
    if (payload === null) return false;
    const path = join(folder, spoolName(provider));
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    // The same lock as the sh shim: one writer appends at a time; one held for two seconds was
    // left by a killed hook and is taken over; without it nothing is written.
    const lock = `${path}.lock`;
    if (!takeLock(lock)) return false;
    try {
      // Under the lock: no writer appends to a file being rotated away.
      const size = sizeOf(path);
      if (size > SPOOL_ROTATE_BYTES) renameSync(path, `${path}.1`);
      // A torn last line (a write cut short by a full disk) is ended first: this event stands alone.
      const torn = size > 0 && size <= SPOOL_ROTATE_BYTES && !endsWithNewline(path, size);
      // Prompts and tool inputs: the spool is private (0600) from its first line.
      appendFileSync(path, `${torn ? '\n' : ''}${spoolLine({ provider, at: now, precision: 'ms', channel, payload })}`, { mode: 0o600 });
    } finally {
      rmdirSync(lock);
    }
    return true;
  } catch {
    return false;
  }
}
