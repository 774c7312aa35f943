// What the running Lookout tells `lookout status` (issue 51): the rows it last published, as of its
// last evaluation, and what the command would print of them, made by the command's own code.
import type { Evaluation, Snapshot } from '../../engine';
import type { StatusQuestion } from '../answer/answer-service';
import { statusOutput } from '../cli/status-output';

/** The rows as last published, as of the last evaluation (a beat changes no row, yet it looked); null before the first. */
export function shownSnapshot(published: Snapshot | null, last: Evaluation | null): Snapshot | null {
  return published === null || last === null ? null : { ...published, now: last.snapshot.now };
}

/** What `lookout status` prints of `snapshot` for this question, in parts; null before the first evaluation. */
export function statusReply(snapshot: Snapshot | null, question: StatusQuestion, now: number): Buffer[] | null {
  if (snapshot === null) return null;
  const { all, json, width, color } = question;
  return statusOutput(snapshot, 'running', { all, json, layout: { width, color } }, now);
}
