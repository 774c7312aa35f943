// Reads a process's place (process-place.ts) from the system: /proc on Linux, `ps` elsewhere
// (argv only); and which processes hold a file open (a Codex rollout names no pid of its own).
import { closeSync, openSync, readSync, readFileSync, readlinkSync } from 'node:fs';
import { basename } from 'node:path';
import type { ProcessPlace } from './process-place';
import { placeVariables, placeVariablesFromPs, ttyFromLink, ttyFromPs } from './process-place';
import { parentPid, pidAlive } from '../../providers/system/process';
import { procHolders } from '../../providers/system/file-holders';

/** An environment block larger than this is read only this far (the variables wanted come early enough or not at all). */
const ENVIRON_CAP = 256 * 1024;
const PS_TIMEOUT_MS = 2000;

function ps(args: string[]): string | null {
  try {
    return process
      .getBuiltinModule('node:child_process')
      .execFileSync('ps', args, { encoding: 'utf8', timeout: PS_TIMEOUT_MS, stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return null;
  }
}

function readCapped(path: string): string | null {
  let fd: number | null = null;
  try {
    fd = openSync(path, 'r');
    const buffer = Buffer.alloc(ENVIRON_CAP);
    const read = readSync(fd, buffer, 0, buffer.length, 0);
    return buffer.toString('utf8', 0, read);
  } catch {
    return null;
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

function processName(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return basename((ps(['-o', 'comm=', '-p', String(pid)]) ?? '').trim());
  }
}

function linuxTty(pid: number): string | null {
  for (const fd of [0, 1, 2]) {
    try {
      const tty = ttyFromLink(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (tty !== null) return tty;
    } catch {
      // Not ours to read, or closed: the next one.
    }
  }
  return null;
}

/** Where `pid` runs, or null when it is gone. */
export function readPlace(pid: number): ProcessPlace | null {
  if (!pidAlive(pid)) return null;
  const chain: ProcessPlace['chain'] = [];
  for (let current: number | null = pid; current !== null && current > 1 && chain.length < 64; current = parentPid(current)) {
    chain.push({ pid: current, name: processName(current) });
  }
  const environ = readCapped(`/proc/${pid}/environ`);
  if (environ !== null) return { pid, chain, env: placeVariables(environ), tty: linuxTty(pid) };
  // No /proc (macOS, the BSDs): `ps -E` prints the environment after the command.
  return {
    pid,
    chain,
    env: placeVariablesFromPs(ps(['-E', '-ww', '-o', 'command=', '-p', String(pid)]) ?? ''),
    tty: ttyFromPs(ps(['-o', 'tty=', '-p', String(pid)]) ?? ''),
  };
}

/** The processes that hold `path` open, Lookout itself left out: /proc's descriptors, else `lsof`. */
export function fileHolders(path: string): number[] {
  const held = procHolders(path);
  if (held !== null) return held;
  try {
    const out = process
      .getBuiltinModule('node:child_process')
      .execFileSync('lsof', ['-t', '--', path], { encoding: 'utf8', timeout: PS_TIMEOUT_MS, stdio: ['ignore', 'pipe', 'ignore'] });
    return out
      .split('\n')
      .filter((line) => /^\d+$/.test(line))
      .map(Number)
      .filter((pid) => pid !== process.pid);
  } catch {
    return [];
  }
}
