// What a Codex rollout's head gave, and its end's reading when that holds no transcript text, as
// the session index keeps them (issue 14): the first session_meta (thread, parent, folder, branch),
// the first prompt, times, the turn and the signal's kind. Checked when taken back.
import type { TranscriptSignal, UsageWindow } from '../../engine';
import type { FileCodec } from '../file-index';
import { hasShape, pick, withoutEmpty } from '../plain-shape';
import { signalFrom, spansFrom, storableSignal, turnFrom } from '../reading-shape';
import { CodexRollout } from './rollout';

const FIELDS = { firstPrompt: 'string?', branch: 'string?', cwd: 'string?', firstAt: 'number?', lastRecordAt: 'number?' } as const;
const META = { id: 'string', cwd: 'string?', branch: 'string?', parentThreadId: 'string?', nickname: 'string?', startedAt: 'number?' } as const;
/** What an end's reading adds to the rows: its folder and times (its prompts are never kept). */
const ENDING = { cwd: 'string?', firstAt: 'number?', lastRecordAt: 'number?', answeredAt: 'number?' } as const;
/** A usage window (R83): the window's name is Codex's (`primary`, `secondary`), the rest numbers. */
const WINDOW = { name: 'string', usedPercent: 'number', windowMinutes: 'number?', resetsAt: 'number?', at: 'number' } as const;

/** Kept usage windows back (undefined: not their shape). */
function windowsFrom(value: unknown): UsageWindow[] | undefined {
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every((item) => hasShape(item, WINDOW))) return undefined;
  return value.map((item: UsageWindow) => pick(item, WINDOW));
}

/** A rollout's end as it was read: it takes no more records (a change to the file reads it afresh). */
class KeptRollout extends CodexRollout {
  constructor(private readonly kept: TranscriptSignal | null) {
    super();
  }

  override get signal(): TranscriptSignal | null {
    return this.kept;
  }
}

function headFrom(facts: unknown, make: () => CodexRollout): CodexRollout | null {
  if (!hasShape(facts, FIELDS)) return null;
  const meta: unknown = (facts as { meta?: unknown }).meta ?? null;
  if (meta !== null && !hasShape(meta, META)) return null;
  return Object.assign(make(), pick(facts, FIELDS), { meta: meta === null ? null : pick(meta, META) });
}

export const ROLLOUT_HEAD: FileCodec<CodexRollout> = {
  facts: (head) => withoutEmpty({ ...pick(head, FIELDS), meta: head.meta }),
  restore: (facts) => headFrom(facts, () => new CodexRollout()),
  tailFacts: (tail, head) => {
    const { signal } = tail;
    // Text in the signal, or a row that would need the end's first prompt (the head found none): not kept.
    if (!storableSignal(signal) || (tail.firstPrompt !== null && head.firstPrompt === null)) return null;
    return withoutEmpty({
      ...pick(tail, ENDING),
      meta: tail.meta,
      signal,
      turn: tail.turn,
      interruptedTurns: tail.interruptedTurns,
      usageWindows: tail.usageWindows,
    });
  },
  restoreTail: (facts) => {
    if (!hasShape(facts, ENDING)) return null;
    const record = facts as { meta?: unknown; signal?: unknown; turn?: unknown; interruptedTurns?: unknown; usageWindows?: unknown };
    const meta = record.meta ?? null;
    const signal = signalFrom(record.signal);
    const turn = turnFrom(record.turn);
    const spans = spansFrom(record.interruptedTurns);
    const usageWindows = windowsFrom(record.usageWindows);
    if (signal === undefined || turn === undefined || spans === undefined || usageWindows === undefined || (meta !== null && !hasShape(meta, META)))
      return null;
    const tail = Object.assign(new KeptRollout(signal), pick(facts, ENDING), { meta: meta === null ? null : pick(meta, META), turn, usageWindows });
    tail.interruptedTurns.push(...spans);
    return tail;
  },
};
