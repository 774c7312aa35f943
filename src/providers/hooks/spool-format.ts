// One spool line per hook event: {"provider","at","precision","payload"}. Written by the hook
// (the shell shim or `lookout hook`), read by the runtime as direct evidence.
import type { JsonRecord } from '../jsonl/parse-record';
import { num, obj, str } from '../jsonl/parse-record';

/** A provider id from the registry: each provider with hooks has a spool file of its own. */
export type SpoolProvider = string;

/** Ids become file names and shell words: lower-case letters, digits and dashes only. */
export function safeProviderWord(id: string): boolean {
  return /^[a-z][a-z0-9-]{0,31}$/.test(id);
}

/** Past this size the writer rotates the spool to `<name>.1` (the previous .1 is dropped). */
export const SPOOL_ROTATE_BYTES = 8 * 1024 * 1024;
/** A payload larger than this is not recorded: no hook payload Lookout reads comes close. */
export const PAYLOAD_MAX_BYTES = 256 * 1024;

export function spoolName(provider: SpoolProvider): string {
  return `${provider}.jsonl`;
}

export interface SpoolEntry {
  provider: SpoolProvider;
  /** When the hook ran (epoch ms); with precision "s" it is the start of that second. */
  at: number;
  precision: 'ms' | 's';
  /** `hook` (agent hooks on stdin) or `notify` (Codex's notify program, JSON in argv). */
  channel: 'hook' | 'notify';
  payload: JsonRecord;
}

export function spoolLine(entry: SpoolEntry): string {
  return `${JSON.stringify(entry)}\n`;
}

/** One line of `<provider>.jsonl`: a line naming another provider is not this spool's. */
export function readEntry(record: JsonRecord, spoolProvider: SpoolProvider): SpoolEntry | null {
  const provider = str(record.provider);
  const at = num(record.at);
  const payload = obj(record.payload);
  if (provider !== spoolProvider || at === null || payload === null) return null;
  return { provider, at, precision: record.precision === 's' ? 's' : 'ms', channel: record.channel === 'notify' ? 'notify' : 'hook', payload };
}
