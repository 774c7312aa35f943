// An end's reading kept in the session index for an agent whose accumulator holds plain fields, a
// signal, a turn and interrupted turns (Gemini CLI, Qwen Code, Factory Droid): an unchanged file
// is then not opened at all by a cold status. Never its prompts, never a signal that carries text.
import type { TranscriptSignal, TurnEvidence } from '../engine';
import type { FileCodec } from './file-index';
import type { FieldKind, ShapeOf } from './plain-shape';
import { hasShape, pick, withoutEmpty } from './plain-shape';
import { signalFrom, spansFrom, storableSignal, turnFrom } from './reading-shape';

/** What every such accumulator holds beside its plain fields. */
export interface Ending {
  signal: TranscriptSignal | null;
  turn: TurnEvidence | null;
  readonly interruptedTurns: { startedAt: number; endedAt: number }[];
  firstPrompt: string | null;
}

/**
 * `fields`: the plain fields the rows take from the end (ids, folder, titles, times; never
 * `firstPrompt`). A reading is kept only when the head holds the title the end would otherwise give.
 */
export function endingCodec<A extends Ending, F extends Record<string, FieldKind>>(
  fields: F,
  make: () => A,
): Required<Pick<FileCodec<A>, 'tailFacts' | 'restoreTail'>> {
  return {
    tailFacts: (tail, head) => {
      if (!storableSignal(tail.signal) || (tail.firstPrompt !== null && head.firstPrompt === null)) return null;
      const plain = pick(tail as unknown as ShapeOf<F>, fields);
      return withoutEmpty({ ...plain, signal: tail.signal, turn: tail.turn, interruptedTurns: tail.interruptedTurns });
    },
    restoreTail: (facts) => {
      if (!hasShape(facts, fields)) return null;
      const record = facts as { signal?: unknown; turn?: unknown; interruptedTurns?: unknown };
      const signal = signalFrom(record.signal);
      const turn = turnFrom(record.turn);
      const spans = spansFrom(record.interruptedTurns);
      if (signal === undefined || turn === undefined || spans === undefined) return null;
      const reading = Object.assign(make(), pick(facts, fields), { signal, turn });
      reading.interruptedTurns.push(...spans);
      return reading;
    },
  };
}
