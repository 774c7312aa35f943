// `lookout status` printed by the running Lookout (issue 51), asked by the executable's small loader
// before the command line is loaded at all: Node's start, this file and one round trip. The owner
// prints with the command's own code (status-output.ts), so the bytes are those a cold read would
// print from the same rows. Other arguments, no Lookout to ask, or one that does not know the
// question (an older one): the whole command line runs, as ever.
import { parseArgs } from 'node:util';
import { OWNER_WAIT_MS, askOwner, type ReplyReader, replyOfType } from '../answer/owner-ask';
import { exitQuietlyOnClosedPipe } from '../cli/closed-pipe';
import { STATUS_OPTIONS } from '../cli/status-options';
import { tableLayout } from '../cli/table-layout';
import { lookoutHome } from '../store/home';
import { lookoutHomeProblem } from '../store/private-home';

/**
 * Printed; cut off mid-print (the owner went away: nothing else is printed after part of its
 * reply); or the whole command line to run, reading the files when the owner kept silent (`cold`).
 */
export type RunningStatus = { kind: 'printed' } | { kind: 'cut' } | { kind: 'command-line'; cold: boolean };

/** A whole history's output is large (a JSON row is ~600 bytes); a reply longer than this is not believed. */
const STATUS_MAX_BYTES = 512 * 1024 * 1024;
/** The head line: `{"type":"status","bytes":N}`, a few dozen bytes. */
const HEAD_MAX_BYTES = 256;

/** Prints the running Lookout's status for `argv` (`status …`) when it can. */
export async function runningStatus(argv: readonly string[]): Promise<RunningStatus> {
  const ask = statusAsk(argv);
  const home = lookoutHome();
  // A home not private: the command line refuses it, saying why.
  if (ask === null || lookoutHomeProblem(home) !== null) return { kind: 'command-line', cold: false };
  exitQuietlyOnClosedPipe();
  const printer = statusPrinter(process.stdout);
  const reply = await askOwner(home, { type: 'status', pid: process.pid, ...ask }, OWNER_WAIT_MS, printer.read);
  switch (reply.kind) {
    case 'reply':
      await printed();
      return { kind: 'printed' };
    case 'none':
      return printer.started() ? { kind: 'cut' } : { kind: 'command-line', cold: false };
    case 'silent':
      // Asked once already: the command line reads the files without waiting again.
      return printer.started() ? { kind: 'cut' } : { kind: 'command-line', cold: true };
  }
}

/** The question `status` asks, or null where its arguments are not for the running Lookout (`--now`, `--cold`, help, a mistake). */
function statusAsk(argv: readonly string[]): { all: boolean; json: boolean; width: number | null; color: boolean } | null {
  if (argv[0] !== 'status') return null;
  let values: { json?: boolean; all?: boolean; wide?: boolean; now?: string; cold?: boolean };
  try {
    ({ values } = parseArgs({ args: argv.slice(1), options: STATUS_OPTIONS, strict: true, allowPositionals: false }));
  } catch {
    return null;
  }
  if (values.now !== undefined || values.cold === true) return null;
  const layout = tableLayout(process.stdout, process.env, values.wide === true);
  return { all: values.all === true, json: values.json === true, width: layout.width, color: layout.color };
}

/**
 * Reads the head line, then prints exactly the bytes it announced as they come: the owner sending
 * and this printing overlap (13 MB at 20,000 rows). Anything else is not a status, and nothing is
 * printed for it.
 */
function statusPrinter(out: NodeJS.WritableStream): { read: ReplyReader<true>; started: () => boolean } {
  let head = Buffer.alloc(0);
  let left: number | null = null;
  let started = false;
  const take = (piece: Buffer): true | null | undefined => {
    if (left === null || piece.length > left) return null;
    if (piece.length > 0) {
      started = true;
      out.write(piece);
    }
    left -= piece.length;
    return left === 0 ? true : undefined;
  };
  const read: ReplyReader<true> = (chunk) => {
    if (left !== null) return take(chunk);
    head = Buffer.concat([head, chunk]);
    const newline = head.indexOf(10);
    if (newline === -1) return head.length > HEAD_MAX_BYTES ? null : undefined;
    left = announced(head.subarray(0, newline).toString('utf8'));
    return take(head.subarray(newline + 1));
  };
  return { read, started: () => started };
}

/** The length a head line announces, or null for a head that is not a status's (a refusal, no rows yet). */
function announced(line: string): number | null {
  const bytes = replyOfType(line, 'status')?.bytes;
  return typeof bytes === 'number' && Number.isInteger(bytes) && bytes >= 0 && bytes <= STATUS_MAX_BYTES ? bytes : null;
}

/** What was written is out before the process exits. */
function printed(): Promise<void> {
  return new Promise((resolve) => process.stdout.write('', () => resolve()));
}
