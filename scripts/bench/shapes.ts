// The bench's two shapes of history (issue 27), each writable at any number of sessions: the
// mixed one it began with and the read-heavy one, so no figure holds for one shape alone.
import { spawnSync } from 'node:child_process';
import type { History } from './synthetic-history';
import { writeHistory } from './synthetic-history';
import { writeReadHeavyHistory } from './read-heavy-history';
import { QUICK_SESSIONS, historyPlan, scaledPlan } from './history-plan';

export interface Shape {
  name: 'mixed' | 'read-heavy';
  /** What it is, for the bench's output. */
  says: string;
  write(folder: string, sessions: number, now: number): History;
}

/**
 * The history once it is on disk: a gigabyte just written is dirty in the page cache, and its
 * writeback (the kernel's flusher threads) overlapped the first figure taken after it: the first
 * pass measured first after a write read 0.05–0.1 s more CPU on average than one measured later
 * (docs/performance.md, run AE).
 */
function onDisk(history: History): History {
  spawnSync('sync', [], { stdio: 'ignore' });
  return history;
}

export const SHAPES: readonly Shape[] = [
  {
    name: 'mixed',
    says: 'half Claude, half Codex, ~550 KB each, six files of 60 MB; finished over the last ten hours',
    write: (folder, sessions, now) => onDisk(writeHistory(folder, sessions === QUICK_SESSIONS ? historyPlan(true) : scaledPlan(sessions), now)),
  },
  {
    name: 'read-heavy',
    says: '1% Claude transcripts of 50 MB (~800-byte lines: prompt, Read, 600-byte result), 74% of 20–130 KB, 25% Codex rollouts of 20–68 KB; all finished within ten minutes',
    write: (folder, sessions, now) => onDisk(writeReadHeavyHistory(folder, sessions, now)),
  },
];

/** The shapes `--shape NAME` picks (both without it); an unknown name is said, not ignored. */
export function pickShapes(args: readonly string[]): readonly Shape[] {
  const at = args.indexOf('--shape');
  if (at === -1) return SHAPES;
  const wanted = args[at + 1];
  const shape = SHAPES.find((item) => item.name === wanted);
  if (shape === undefined) throw new Error(`--shape: unknown shape ${wanted ?? '(none)'}; the shapes are ${SHAPES.map((item) => item.name).join(', ')}`);
  return [shape];
}
