// One spool line per hook event: {"provider","at","precision","payload"}. Written by the hook
// (the shell shim or `lookout hook`), read by the runtime as direct evidence.
import type { JsonRecord } from '../jsonl/parse-record';
import { num, obj, str } from '../jsonl/parse-record';

export const SPOOL_PROVIDERS = ['claude', 'codex'] as const;
export type SpoolProvider = (typeof SPOOL_PROVIDERS)[number];

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

export function readEntry(record: JsonRecord): SpoolEntry | null {
  const provider = str(record.provider);
  const at = num(record.at);
  const payload = obj(record.payload);
  if ((provider !== 'claude' && provider !== 'codex') || at === null || payload === null) return null;
  return { provider, at, precision: record.precision === 's' ? 's' : 'ms', channel: record.channel === 'notify' ? 'notify' : 'hook', payload };
}
